/** Payloads of the account-recovery and security forms, shared by the forms and the auth gateway. */
import { emailSchema, passwordSchema } from "./schemas";
import { VALIDATION_TEXT } from "./texts/validation";
import { z } from "./zod";

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** The reset form: the new password follows the sign-up rule and messages. */
export const resetPasswordFormSchema = z.object({ newPassword: passwordSchema });
export const resetPasswordSchema = resetPasswordFormSchema.extend({ token: z.string().trim().min(1).max(200) });

/** Any password the account already has (older rules included): only required. */
export const currentPasswordSchema = z.string({ error: VALIDATION_TEXT.passwordRequired }).min(1, VALIDATION_TEXT.passwordRequired).max(128);

export const changePasswordSchema = z.object({ currentPassword: currentPasswordSchema, newPassword: passwordSchema });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const passwordOnlySchema = z.object({ password: currentPasswordSchema });
export type PasswordOnlyInput = z.infer<typeof passwordOnlySchema>;

/** A code from an authenticator app (6 digits) or a backup code. */
export const twoFactorCodeSchema = z.object({ code: z.string().trim().min(1, VALIDATION_TEXT.codeRequired).max(32) });
export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeSchema>;

/**
 * Deleting the account (My Profile > Security): the password of an account that has one; an
 * account that signs in only with Google sends none and needs a fresh sign-in instead.
 */
export const deleteAccountSchema = z.object({ password: currentPasswordSchema.optional() }).strict();
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
export const deleteAccountResponseSchema = z.object({ deleted: z.literal(true) });

/** How a session may be this fresh, at most, for a Google-only account to delete itself. */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;
