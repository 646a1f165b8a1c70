import { expect, test } from "@playwright/test";
import { APP_URL } from "../support/env";
import { completeGoogleLogin, expectSignedIn, expectSignedOut, navbar, newAccount, OIDC_ORIGIN, pathOf, signedInPage } from "../support/e2e-helpers";
import { fetchMail } from "../support/smtp";
import { totp } from "../support/totp";

/**
 * Google sign-in follows the two-step rule (issue 10): an account with two-step sign-in on that
 * comes back from Google (the local OpenID stand-in) is asked for its code before it is signed in.
 */

const inbox = () => {
  const url = process.env.E2E_INBOX_URL;
  if (!url) throw new Error("E2E_INBOX_URL is not set: the global setup starts the SMTP stand-in");
  return url;
};

test("an account with two-step sign-in passes the code page after Google too", async ({ page }) => {
  test.slow();
  // A password account, its e-mail verified from the sign-up mail (Google links only to a verified one)...
  const account = await signedInPage(page, newAccount("g2fa"));
  const mail = await fetchMail(inbox(), account.email, "Confirm your e-mail");
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(`${APP_URL}/api/auth/verify-email?token=`));
  if (!link) throw new Error(`no verification link in:\n${mail.text}`);
  await page.goto(link);
  // ...with two-step sign-in on, turned on through the API with no store page open: a page's
  // own requests in flight could answer with the session cookie that turning it on replaces.
  await page.goto("about:blank");
  const headers = { origin: APP_URL };
  const enabled = await page.request.post("/api/auth/two-factor/enable", { headers, data: { password: account.password } });
  expect(enabled.status()).toBe(200);
  const secret = new URL(((await enabled.json()) as { totpURI: string }).totpURI).searchParams.get("secret") as string;
  expect((await page.request.post("/api/auth/two-factor/verify-totp", { headers, data: { code: totp(secret) } })).status()).toBe(200);
  await page.goto("/");
  await navbar(page).getByRole("button", { name: "Sign Out" }).click();
  await expectSignedOut(page);

  await page.goto("/dashboard/profile");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole("button", { name: "Continue With Google" }).click();
  await completeGoogleLogin(page, account.email);

  // The code page, not a session.
  await expect(page).toHaveURL((url) => url.origin !== OIDC_ORIGIN && url.pathname === "/two-factor");
  expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "VERIFY" }).click();
  await expect(page.getByText("That code is not right. Try again.")).toBeVisible();
  await page.getByLabel("Code").fill(totp(secret));
  await page.getByRole("button", { name: "VERIFY" }).click();

  // Signed in, back where the customer was going.
  await expect.poll(() => pathOf(page)).toBe("/dashboard/profile");
  await expectSignedIn(page);
  await expect(page.getByTestId("profile-email")).toHaveText(account.email);
});
