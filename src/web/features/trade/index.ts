export { myTradeAccountQuery } from "./api";
