export { RequireAuth, type FromState } from "./require-auth";
export { authErrorMessage } from "./api";
export { changePassword, disableTwoFactor, enableTwoFactor, listSessions, revokeSession, sendVerification, verifyTotp } from "./recovery-api";
