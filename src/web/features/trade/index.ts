export { myTradeAccountQuery } from "./api";
export { MemberForm, MembersTable, StatementTable } from "./parts";
