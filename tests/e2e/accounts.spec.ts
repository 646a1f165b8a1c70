import { expect, test } from "@playwright/test";
import {
  expectSignedIn,
  expectSignedOut,
  loginThroughForm,
  navbar,
  newAccount,
  pathOf,
  signedInPage,
  signUpViaApi,
} from "../support/e2e-helpers";

/** E-mail and password accounts in the real browser (spec §2 Login/Signup, §4, §5, §8). */

const AUTH_ERRORS = {
  invalidCredentials: "Wrong e-mail or password. Please check both and try again.",
  emailInUse: "An account with this e-mail already exists. Please log in instead.",
  network: "We could not reach the server. Check your connection and try again.",
};

test.describe("accounts", () => {
  test("sign-up, sign-out, login, protected redirect and return to the origin page", async ({ page }) => {
    test.slow(); // many steps, each a real round trip
    const account = newAccount();

    // Signed out, a protected page sends the visitor to /login.
    await page.goto("/dashboard/profile");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Login", level: 1 })).toBeVisible();
    await expectSignedOut(page);

    // 'Create New Account' keeps the origin.
    await page.getByRole("link", { name: "Create New Account" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole("heading", { name: "Sign Up", level: 1 })).toBeVisible();
    await page.getByLabel("Name").fill(account.name);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "SIGN UP", exact: true }).click();

    // Back on the page the visitor was sent from, signed in.
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
    await expect(page.getByRole("heading", { name: "Welcome To Your Dashboard" })).toBeVisible();
    await expect(page.getByTestId("profile-name")).toHaveText(account.name);
    await expect(page.getByTestId("profile-email")).toHaveText(account.email);
    await expectSignedIn(page);

    // Sign out: the Login link is back and the Dashboard link is gone.
    await navbar(page).getByRole("button", { name: "Sign Out" }).click();
    await expectSignedOut(page);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
    await expectSignedOut(page);

    // Log in with no origin (the navbar's Login link from the home page): back to the home page.
    await page.goto("/");
    await navbar(page).getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await loginThroughForm(page, account);
    await expect.poll(() => pathOf(page)).toBe("/");
    await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
    await expectSignedIn(page);
    // And the session is real: the dashboard opens.
    await navbar(page).getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Welcome To Your Dashboard" })).toBeVisible();
  });

  test("shows the validation messages in the browser", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "LOGIN", exact: true }).click();
    await expect(page.getByText("Email is required", { exact: true })).toBeVisible();
    await expect(page.getByText("Password is required", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel("Email").fill("Not-An-Email");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "LOGIN", exact: true }).click();
    await expect(page.getByText("Please provide a valid email", { exact: true })).toBeVisible();
    await expect(
      page.getByText("Should contain at least 8 (one uppercase ,one lowercase ,one digit, one special character)", { exact: true }),
    ).toBeVisible();
    await expect(page.getByText("Email is required", { exact: true })).toHaveCount(0);
    await expect(page.getByText("Password is required", { exact: true })).toHaveCount(0);
    await expect(page.getByTestId("auth-error")).toHaveCount(0);

    await page.goto("/signup");
    await page.getByRole("button", { name: "SIGN UP", exact: true }).click();
    await expect(page.getByText("Name is required", { exact: true })).toBeVisible();
    await expect(page.getByText("Email is required", { exact: true })).toBeVisible();
    await expect(page.getByText("Password is required", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
    await expectSignedOut(page);
  });

  test("shows the provider's errors below the form in red", async ({ page, request }) => {
    test.slow(); // four separate failures, each a real round trip
    const existing = await signUpViaApi(request);
    const error = page.getByTestId("auth-error");

    // Wrong password for an existing account.
    await page.goto("/login");
    await loginThroughForm(page, { email: existing.email, password: "Wr0ng!pass" });
    await expect(error).toHaveText(AUTH_ERRORS.invalidCredentials);
    await expect(error).toHaveRole("alert");
    // Red: the rendered colour, whatever notation the theme uses, has a dominant red channel.
    const { r, g, b } = await error.evaluate((el) => {
      const ctx = document.createElement("canvas").getContext("2d");
      if (!ctx) throw new Error("no 2d canvas");
      ctx.fillStyle = getComputedStyle(el).color;
      ctx.fillRect(0, 0, 1, 1);
      const [red = 0, green = 0, blue = 0] = ctx.getImageData(0, 0, 1, 1).data;
      return { r: red, g: green, b: blue };
    });
    expect(r, `rgb(${r}, ${g}, ${b})`).toBeGreaterThan(150);
    expect(r - Math.max(g, b), `rgb(${r}, ${g}, ${b})`).toBeGreaterThan(60);
    await expect(page).toHaveURL(/\/login$/);
    await expectSignedOut(page);

    // Unknown e-mail: the same words (never reveals which field was wrong).
    await page.goto("/login");
    await loginThroughForm(page, newAccount());
    await expect(error).toHaveText(AUTH_ERRORS.invalidCredentials);

    // Sign-up with an e-mail that already has an account.
    await page.goto("/signup");
    await page.getByLabel("Name").fill("Someone Else");
    await page.getByLabel("Email").fill(existing.email);
    await page.getByLabel("Password").fill(existing.password);
    await page.getByRole("button", { name: "SIGN UP", exact: true }).click();
    await expect(error).toHaveText(AUTH_ERRORS.emailInUse);
    await expect(page).toHaveURL(/\/signup$/);
    await expectSignedOut(page);

    // The server cannot be reached.
    await page.route("**/api/auth/sign-in/email", (route) => route.abort());
    await page.goto("/login");
    await loginThroughForm(page, existing);
    await expect(error).toHaveText(AUTH_ERRORS.network);
    await expectSignedOut(page);

    // Once the server answers again, the same form signs in and the message goes.
    await page.unroute("**/api/auth/sign-in/email");
    await page.getByRole("button", { name: "LOGIN", exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe("/");
    await expect(error).toHaveCount(0);
    await expectSignedIn(page);
  });

  test("sign-out in one tab signs out every open tab", async ({ page, context }) => {
    await signedInPage(page);
    const other = await context.newPage();
    await page.goto("/dashboard");
    await other.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome To Your Dashboard" })).toBeVisible();
    await expect(other.getByRole("heading", { name: "Welcome To Your Dashboard" })).toBeVisible();

    await navbar(page).getByRole("button", { name: "Sign Out" }).click();
    await expectSignedOut(page);

    // The other tab hears about it and leaves the protected page without a reload.
    await expect(other).toHaveURL(/\/login$/, { timeout: 15_000 });
    await expectSignedOut(other);
    await expect(other.getByRole("heading", { name: "Welcome To Your Dashboard" })).toHaveCount(0);
  });

  test("keeps no secret in localStorage; the session cookie is httpOnly", async ({ page, context, request }) => {
    const account = await signUpViaApi(request);
    await page.goto("/login");
    await loginThroughForm(page, account);
    await expect.poll(() => pathOf(page)).toBe("/");
    await expectSignedIn(page);

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.endsWith("session_token"));
    expect(session, `cookies: ${cookies.map((c) => c.name).join(", ")}`).toBeDefined();
    if (!session) return;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe("Lax");
    const rawToken = decodeURIComponent(session.value);
    const token = rawToken.split(".")[0] ?? rawToken;
    expect(token.length).toBeGreaterThan(10);

    // The page's own scripts cannot read the cookie either.
    expect(await page.evaluate(() => document.cookie)).not.toContain(token);

    // Visit a protected page too, so everything the app stores after sign-in is there.
    await page.goto("/dashboard/profile");
    await expect(page.getByTestId("profile-email")).toHaveText(account.email);
    for (const storage of ["localStorage", "sessionStorage"] as const) {
      const dump = await page.evaluate((name) => JSON.stringify(window[name]), storage);
      expect(dump, storage).not.toContain("accessToken");
      expect(dump, storage).not.toContain(token);
    }
  });
});
