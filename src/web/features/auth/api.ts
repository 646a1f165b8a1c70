import { AUTH_ERRORS } from "../../../contract/texts/auth";
import type { LoginInput, SignupInput } from "../../../contract/schemas";
import { api, ApiRequestError } from "../../lib/api";

export const signInWithEmail = (input: LoginInput) => api.post<unknown>("/api/auth/sign-in/email", input);
export const signUpWithEmail = (input: SignupInput) => api.post<unknown>("/api/auth/sign-up/email", input);

/** Starts the Google (OpenID Connect + PKCE) round trip; the browser leaves the page. */
export async function signInWithGoogle(returnTo: string): Promise<void> {
  const origin = window.location.origin;
  const result = await api.post<{ url?: string }>("/api/auth/sign-in/social", {
    provider: "google",
    callbackURL: `${origin}${returnTo}`,
    errorCallbackURL: `${origin}/login?from=${encodeURIComponent(returnTo)}`,
    newUserCallbackURL: `${origin}${returnTo}`,
  });
  if (!result?.url) throw new ApiRequestError(500, "GOOGLE_FAILED", AUTH_ERRORS.googleFailed);
  window.location.assign(result.url);
}

/** Turns a provider error into a sentence a person understands (never reveals which field was wrong). */
export function authErrorMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return AUTH_ERRORS.generic;
  const E = AUTH_ERRORS;
  if (error.status === 0) return E.network;
  if (error.status === 429) return E.tooManyRequests;
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_PASSWORD":
    case "USER_NOT_FOUND":
    case "CREDENTIAL_ACCOUNT_NOT_FOUND":
      return E.invalidCredentials;
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return E.emailInUse;
    case "PROVIDER_NOT_FOUND":
    case "GOOGLE_NOT_CONFIGURED":
      return E.googleNotConfigured;
    case "VALIDATION":
      return error.message;
    default:
      return error.status === 401 ? E.invalidCredentials : E.generic;
  }
}

/** Errors better-auth reports by redirecting back with ?error=… after the Google round trip. */
export function callbackErrorMessage(code: string | null): string | null {
  if (!code) return null;
  if (code === "account_not_linked") return AUTH_ERRORS.differentMethod;
  return AUTH_ERRORS.googleFailed;
}

/** Only same-site paths may be returned to (no open redirect). */
export function safeReturnPath(path: string | null | undefined): string {
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return "/";
  if (path.startsWith("/login") || path.startsWith("/signup")) return "/";
  return path;
}
