import { describe, expect, it } from "vitest";
import { AUTH_ERRORS } from "../../../contract/texts/auth";
import { ApiRequestError } from "../../lib/api";
import { authErrorMessage, callbackErrorMessage, safeReturnPath } from "./api";

describe("authErrorMessage", () => {
  it.each([
    [new ApiRequestError(401, "INVALID_EMAIL_OR_PASSWORD", "x"), AUTH_ERRORS.invalidCredentials],
    [new ApiRequestError(422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "x"), AUTH_ERRORS.emailInUse],
    [new ApiRequestError(429, "RATE_LIMITED", "x"), AUTH_ERRORS.tooManyRequests],
    [new ApiRequestError(0, "NETWORK", "x"), AUTH_ERRORS.network],
    [new ApiRequestError(404, "PROVIDER_NOT_FOUND", "x"), AUTH_ERRORS.googleNotConfigured],
    [new Error("boom"), AUTH_ERRORS.generic],
  ])("maps %o", (error, message) => {
    expect(authErrorMessage(error)).toBe(message);
  });

  it("explains an account that exists with another sign-in method", () => {
    expect(callbackErrorMessage("account_not_linked")).toBe(AUTH_ERRORS.differentMethod);
    expect(callbackErrorMessage(null)).toBeNull();
  });
});

describe("safeReturnPath", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeReturnPath("/purchase/abc?x=1")).toBe("/purchase/abc?x=1");
    expect(safeReturnPath("//evil.example")).toBe("/");
    expect(safeReturnPath("https://evil.example")).toBe("/");
    expect(safeReturnPath("/login")).toBe("/");
    expect(safeReturnPath(undefined)).toBe("/");
  });
});
