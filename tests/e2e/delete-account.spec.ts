import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, APP_URL, PASSWORD } from "../support/env";
import { completeGoogleLogin, expectNoSeriousViolations, expectSignedIn, expectSignedOut, loginThroughForm, navbar, newAccount, signedInPage, uniqueEmail } from "../support/e2e-helpers";

/**
 * Deleting the account from My Profile > Security (issue 10): the password (or, for a Google
 * account, a fresh Google sign-in), then an accessible confirm dialog; the customer leaves signed out.
 */

const QUESTION = "Delete your account for good? This cannot be undone.";

test.describe("deleting the account", () => {
  test("asks for the password and a confirmation, then signs the customer out for good", async ({ page }) => {
    test.slow();
    const account = await signedInPage(page, newAccount("leaver"));
    await page.goto("/dashboard/profile");
    const section = page.getByTestId("delete-account");
    await expect(section.getByRole("heading", { name: "Delete account" })).toBeVisible();
    await expect(section).toContainText("Your orders stay in the store's books without your name");

    // The password is required before anything is asked.
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(section.getByRole("alert")).toHaveText("Password is required");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // A wrong password: asked, confirmed, refused in place.
    await section.getByLabel("Password").fill("Wr0ng!pass");
    await section.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: QUESTION });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Yes, delete my account" }).click();
    await expect(page.getByTestId("delete-account-error")).toHaveText("That is not your current password.");
    await expect(dialog).toBeHidden();

    // The right one; Escape is a No and keeps the account.
    await section.getByLabel("Password").fill(account.password);
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "No, keep it" })).toBeFocused();
    await expectNoSeriousViolations(page, "dialog[open]");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expectSignedIn(page);

    await section.getByRole("button", { name: "Delete my account" }).click();
    await dialog.getByRole("button", { name: "Yes, delete my account" }).click();
    await expectSignedOut(page);
    await expect(page).toHaveURL((url) => url.pathname === "/");
    await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();

    // The password opens nothing any more.
    await navbar(page).getByRole("link", { name: "Login" }).click();
    await loginThroughForm(page, account);
    await expect(page.getByTestId("auth-error")).toBeVisible();
    await expectSignedOut(page);
  });

  test("a Google account deletes itself right after signing in with Google", async ({ page }) => {
    test.slow();
    const email = uniqueEmail("gleaver");
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue With Google" }).click();
    await completeGoogleLogin(page, email);
    await expectSignedIn(page);

    await page.goto("/dashboard/profile");
    const section = page.getByTestId("delete-account");
    await expect(section).toContainText("sign in with Google again, then delete it within 5 minutes");
    await expect(section.getByLabel("Password")).toHaveCount(0);
    await section.getByRole("button", { name: "Delete my account" }).click();
    await page.getByRole("dialog", { name: QUESTION }).getByRole("button", { name: "Yes, delete my account" }).click();
    await expectSignedOut(page);
    await expect(page).toHaveURL((url) => url.pathname === "/");
    expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();
  });

  test("the admin still finds a deleted customer's order, as 'Former customer'", async ({ page, browser }) => {
    const toolId = process.env.E2E_ADMIN_TOOL_ID;
    if (!toolId) throw new Error("E2E_ADMIN_TOOL_ID is not set: the global setup makes that tool");
    const customer = await browser.newPage();
    const account = await signedInPage(customer, newAccount("gone"));
    const headers = { origin: APP_URL };
    const placed = await customer.request.post(`${APP_URL}/api/order`, { headers, data: { toolId, quantity: 1 } });
    expect(placed.status(), await placed.text()).toBe(201);
    const order = (await placed.json()) as { _id: string; number: number };
    const deleted = await customer.request.post(`${APP_URL}/api/me/delete-account`, { headers, data: { password: account.password } });
    expect(deleted.status(), await deleted.text()).toBe(200);
    await customer.close();

    const signedIn = await page.request.post("/api/auth/sign-in/email", { headers, data: { email: ADMIN_EMAIL, password: PASSWORD } });
    expect(signedIn.status()).toBe(200);
    await page.goto(`/admin/orders/${order._id}`);
    await expect(page.getByRole("heading", { name: `Order #${order.number}` })).toBeVisible();
    await expect(page.getByText("Former customer ·")).toBeVisible();
    await expect(page.getByText(account.email)).toHaveCount(0);
  });
});
