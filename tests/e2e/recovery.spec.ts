import { expect, test } from "@playwright/test";
import { APP_URL } from "../support/env";
import { expectSignedIn, expectSignedOut, loginThroughForm, navbar, newAccount, signedInPage, signUpViaApi } from "../support/e2e-helpers";
import { fetchMail } from "../support/smtp";
import { totp } from "../support/totp";

/** Account recovery and protection in the real browser, with the store's mail read from the test's SMTP server (issue 10). */

const inbox = () => {
  const url = process.env.E2E_INBOX_URL;
  if (!url) throw new Error("E2E_INBOX_URL is not set: the global setup starts the SMTP stand-in");
  return url;
};
const linkIn = (text: string, prefix: string) => {
  const found = text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in:\n${text}`);
  return found;
};

test.describe("account recovery and protection", () => {
  test("forgot password: link by e-mail, the sign-up password rule, then signed in with the new password", async ({ page, request }) => {
    test.slow();
    const account = await signUpViaApi(request, newAccount("forgot"));
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    // The address changes before the page's chunk has loaded, and the login form (with its own
    // 'Email') stays on screen until then: wait for the forgot-password page itself.
    await expect(page.getByRole("heading", { name: "Forgot password", level: 1 })).toBeVisible();
    await page.getByLabel("Email").fill(account.email.toUpperCase());
    await page.getByRole("button", { name: "SEND LINK" }).click();
    await expect(page.getByTestId("forgot-sent")).toContainText("If an account uses this e-mail");

    const mail = await fetchMail(inbox(), account.email, "Reset your Toolyard password");
    await page.goto(linkIn(mail.text, `${APP_URL}/reset-password?token=`));
    await page.getByLabel("New password").fill("weakpass");
    await page.getByRole("button", { name: "SET PASSWORD" }).click();
    await expect(page.getByText("Should contain at least 8")).toBeVisible();
    await page.getByLabel("New password").fill("N3w!passw");
    await page.getByRole("button", { name: "SET PASSWORD" }).click();
    await expect(page).toHaveURL(`${APP_URL}/`);
    await expectSignedIn(page);
  });

  test("verification: the profile says not verified, the link from the sign-up mail verifies", async ({ page }) => {
    const account = await signedInPage(page, newAccount("verify"));
    await page.goto("/dashboard/profile");
    await expect(page.getByTestId("email-verification")).toContainText("Not verified");
    const mail = await fetchMail(inbox(), account.email, "Confirm your e-mail");
    await page.goto(linkIn(mail.text, `${APP_URL}/api/auth/verify-email?token=`));
    await expect(page).toHaveURL(/\/dashboard\/profile/);
    await expect(page.getByTestId("email-verification")).toContainText("Verified");
    await expect(page.getByTestId("email-verification")).not.toContainText("Not verified");
  });

  test("two-step sign-in: set up with a QR code and a code, then sign-in asks for the code", async ({ page }) => {
    test.slow();
    const account = await signedInPage(page, newAccount("totp"));
    await page.goto("/dashboard/profile");
    const section = page.getByTestId("two-factor");
    await section.getByLabel("Password").fill(account.password);
    await section.getByRole("button", { name: "Turn on" }).click();
    await expect(section.getByRole("img", { name: /Scan this code/ })).toBeVisible();
    await expect(section.getByTestId("backup-codes").getByRole("listitem")).toHaveCount(10);
    const secret = (await section.getByTestId("totp-secret").textContent()) ?? "";
    await section.getByLabel("Code", { exact: true }).fill(totp(secret));
    await section.getByRole("button", { name: "Confirm" }).click();
    await expect(section).toContainText("On: sign-in asks for a code");

    await navbar(page).getByRole("button", { name: "Sign Out" }).click();
    // Signed out before /login opens: a session still there sends /login on to the home page.
    await expectSignedOut(page);
    await page.goto("/login");
    await loginThroughForm(page, account);
    await expect(page).toHaveURL(/\/two-factor/);
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "VERIFY" }).click();
    await expect(page.getByTestId("auth-error")).toHaveText("That code is not right. Try again.");
    await page.getByLabel("Code").fill(totp(secret));
    await page.getByRole("button", { name: "VERIFY" }).click();
    await expectSignedIn(page);
  });
});
