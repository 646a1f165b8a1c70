export { accountKeys, orderQuery, ordersQuery, profileQuery, useCancelOrder, usePlaceOrder, useSaveProfile } from "./api";
export { DeliveryAndPayment, OrderLines } from "./components/order-details";
export { AddressFields, type AddressValues } from "./components/address-fields";
export { addressLines, type StructuredAddress } from "./components/address";
export { PickupPlace } from "./components/pickup-place";
