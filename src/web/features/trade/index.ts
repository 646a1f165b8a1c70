export { myTradeAccountQuery, useTradeDiscount } from "./api";
export { MemberForm, MembersTable, StatementTable } from "./parts";
