import { expect, test } from "@playwright/test";
import {
  completeGoogleLogin,
  expectSignedIn,
  expectSignedOut,
  loginThroughForm,
  navbar,
  OIDC_ORIGIN,
  pathOf,
  signedInPage,
  uniqueEmail,
} from "../support/e2e-helpers";

/**
 * 'Continue With Google' against the local OpenID provider that stands in for Google
 * (tests/support/oidc.ts): authorization code + PKCE, a real round trip in the browser.
 */

const DIFFERENT_METHOD =
  "An account with this e-mail already exists with a different sign-in method. Log in with your e-mail and password.";

test.describe("Google sign-in", () => {
  // Each test is a full round trip through a second server (the OpenID provider).
  test.slow();

  test("a round trip from /login signs a new customer in and lands on the home page", async ({ page }) => {
    const email = uniqueEmail("g");
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue With Google" }).click();

    await completeGoogleLogin(page, email);

    await expect(page).toHaveURL((url) => url.origin !== OIDC_ORIGIN && url.pathname === "/");
    await expectSignedIn(page);
    await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();

    // The store knows who came back from Google.
    await navbar(page).getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("link", { name: "My Profile" }).click();
    await expect(page.getByTestId("profile-email")).toHaveText(email);
  });

  test("returns to the protected page the visitor was sent from", async ({ page }) => {
    const email = uniqueEmail("g");
    await page.goto("/dashboard/profile");
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole("button", { name: "Continue With Google" }).click();

    await completeGoogleLogin(page, email);

    await expect.poll(() => pathOf(page)).toBe("/dashboard/profile");
    await expect(page).toHaveURL((url) => url.origin !== OIDC_ORIGIN);
    await expectSignedIn(page);
    await expect(page.getByRole("heading", { name: "Welcome To Your Dashboard" })).toBeVisible();
    await expect(page.getByTestId("profile-email")).toHaveText(email);
  });

  test("does not take over a password account with the same e-mail", async ({ page }) => {
    const account = await signedInPage(page);
    await page.goto("/");
    await expectSignedIn(page);
    await navbar(page).getByRole("button", { name: "Sign Out" }).click();
    await expectSignedOut(page);

    await navbar(page).getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole("button", { name: "Continue With Google" }).click();
    await completeGoogleLogin(page, account.email);

    // Back on the store's login page with the explanation, and not signed in.
    await expect(page).toHaveURL((url) => url.origin !== OIDC_ORIGIN && url.pathname === "/login");
    await expect(page.getByTestId("auth-error")).toHaveText(DIFFERENT_METHOD);
    await expect(page.getByTestId("auth-error")).toHaveRole("alert");
    await expectSignedOut(page);
    const session = await page.request.get("/api/auth/get-session");
    expect(await session.json()).toBeNull();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);

    // The password account is untouched: its owner still logs in with the password.
    await loginThroughForm(page, account);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole("link", { name: "My Profile" }).click();
    await expect(page.getByTestId("profile-name")).toHaveText(account.name);
    await expect(page.getByTestId("profile-email")).toHaveText(account.email);
  });
});
