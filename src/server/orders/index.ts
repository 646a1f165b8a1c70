/**
 * The orders module's one way in (issue 49). Other folders import orders/ only from here
 * (the lint rule toolyard/server-modules enforces it); what is not exported here is the
 * module's own business.
 */
export { orderRoutes } from "./routes";
export { orderAdminRoutes } from "./admin-routes";
export { getAdminOrder, listAdminOrders, type AdminOrderQuery } from "./admin-view";
export { OrderDesk } from "./desk";
export { lockForPlacement, lockedOf, ordersById, placeOrders, startPayment, type LockedToolJson, type PlacementRequest } from "./placement";
export { announceMove, getOrder, moveInTransaction, moveOrderStatus, withDetails, type MoveResult, type OrderRow } from "./service";
export { createShipment, deliverEverything, leftToShip, moveShipment, settleShipping, shipEverythingLeft, shipmentOrderId } from "./shipments";
export { renderPackingSlip } from "./packing-slip";
export { issueCreditNote, type CreditNoteRow, type CreditNoteSource } from "./credit-notes";
export { openCents, openCentsSql } from "./balance";
export { creditUsedSql, dueDateOf, overdueSql } from "./trade-policy";
export { checkReturnForRefund, listAdminReturns, moveReturn, settleReturn } from "./returns";
export { approveWaiting, flagPayment, forgetCustomer, noteOrder, numberPaidInvoice, payInvoices, type Approval, type PaymentProblem } from "./transitions";
