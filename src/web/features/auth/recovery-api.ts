import type { ChangePasswordInput, DeleteAccountInput } from "../../../contract/account-schemas";
import { api } from "../../lib/api";

export const requestPasswordReset = (email: string) => api.post<unknown>("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
export const resetPassword = (token: string, newPassword: string) => api.post<unknown>("/api/auth/reset-password", { token, newPassword });
export const verifyTotp = (code: string) => api.post<unknown>("/api/auth/two-factor/verify-totp", { code });
export const verifyBackupCode = (code: string) => api.post<unknown>("/api/auth/two-factor/verify-backup-code", { code });
export const sendVerification = (email: string) => api.post<unknown>("/api/auth/send-verification-email", { email, callbackURL: "/dashboard/profile" });
export const changePassword = (input: ChangePasswordInput) => api.post<unknown>("/api/auth/change-password", { ...input, revokeOtherSessions: true });

export interface DeviceSession {
  id: string;
  token: string;
  createdAt: string;
  ipAddress?: string | null;
  userAgent?: string | null;
}
export const listSessions = () => api.get<DeviceSession[]>("/api/auth/list-sessions");
export const revokeSession = (token: string) => api.post<unknown>("/api/auth/revoke-session", { token });
export const enableTwoFactor = (password: string) => api.post<{ totpURI: string; backupCodes: string[] }>("/api/auth/two-factor/enable", { password });
export const disableTwoFactor = (password: string) => api.post<unknown>("/api/auth/two-factor/disable", { password });

/** The account's ways to sign in: "credential" (a password) and/or "google". */
export const listSignInMethods = () => api.get<{ providerId: string }[]>("/api/auth/list-accounts");
export const deleteAccount = (input: DeleteAccountInput) => api.post<{ deleted: true }>("/api/me/delete-account", input);
