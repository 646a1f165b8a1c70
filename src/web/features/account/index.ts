export { accountKeys, orderQuery, ordersQuery, profileQuery, useCancelOrder, usePlaceOrder, useSaveProfile } from "./api";
export { DeliveryAndPayment, OrderLines } from "./components/order-details";
