export { accountKeys, ordersQuery, profileQuery, useCancelOrder, usePlaceOrder, useSaveProfile } from "./api";
