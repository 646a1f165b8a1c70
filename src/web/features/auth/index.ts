export { RequireAuth, type FromState } from "./require-auth";
export { authErrorMessage } from "./api";
export { changePassword, deleteAccount, disableTwoFactor, enableTwoFactor, listSessions, listSignInMethods, revokeSession, sendVerification, verifyTotp } from "./recovery-api";
export { signInWithGoogle } from "./api";
