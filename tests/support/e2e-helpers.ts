/**
 * Shared steps for the browser specs: unique accounts, sign-up through the API, and
 * the few UI steps several specs repeat. Every test creates its own user.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { ADMIN_EMAIL, APP_URL, OIDC_PORT, PASSWORD } from "./env";

export interface Account {
  name: string;
  email: string;
  password: string;
}

/** A lowercase e-mail no other test (or earlier run on the same database) uses. */
export function uniqueEmail(prefix = "u"): string {
  return `${prefix}${Date.now()}${Math.random().toString(36).slice(2, 10)}@example.com`;
}

export function newAccount(prefix = "u"): Account {
  const email = uniqueEmail(prefix);
  return { name: `Tester ${email.slice(prefix.length, prefix.length + 6)}`, email, password: PASSWORD };
}

/**
 * Creates the account through better-auth's endpoint (it signs in at once). With `page.request`
 * the session cookie lands in the page's browser context; with the `request` fixture it does not.
 */
export async function signUpViaApi(request: APIRequestContext, account: Account = newAccount()): Promise<Account> {
  const response = await request.post("/api/auth/sign-up/email", {
    headers: { origin: APP_URL },
    data: { name: account.name, email: account.email, password: account.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  return account;
}

/** A signed-in page: the account is created through `page.request`, which shares the page's cookies. */
export async function signedInPage(page: Page, account: Account = newAccount()): Promise<Account> {
  await signUpViaApi(page.request, account);
  return account;
}

/** Fills and submits the login form on the page it is on (/login). */
export async function loginThroughForm(page: Page, account: Pick<Account, "email" | "password">): Promise<void> {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "LOGIN", exact: true }).click();
}

/** The desktop navigation bar (Desktop Chrome viewport shows the horizontal menu). */
export const navbar = (page: Page) => page.getByTestId("desktop-menu");

export async function expectSignedIn(page: Page): Promise<void> {
  const nav = navbar(page);
  await expect(nav.getByRole("button", { name: "Sign Out" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Login" })).toHaveCount(0);
}

export async function expectSignedOut(page: Page): Promise<void> {
  const nav = navbar(page);
  await expect(nav.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  await expect(nav.getByRole("button", { name: "Sign Out" })).toHaveCount(0);
}

/** The path of the page's current URL. */
export const pathOf = (page: Page): string => new URL(page.url()).pathname;

/** The address of the local OpenID provider standing in for Google. */
export const OIDC_ORIGIN = `http://127.0.0.1:${OIDC_PORT}`;

/**
 * Drives the local OpenID provider's dev login and consent pages. Its login page accepts any
 * login (the login is the e-mail) and any password.
 */
export async function completeGoogleLogin(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.origin === OIDC_ORIGIN);
  const loginField = page.locator('input[name="login"]');
  await expect(loginField).toBeVisible();
  await loginField.fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const consent = page.getByRole("button", { name: "Continue" });
  await expect(consent).toBeVisible();
  await consent.click();
}

export interface ApiTool {
  _id: string;
  name: string;
  price: number;
  availableQuantity: number;
  minimumQuantity: number;
  description: string;
  image: string;
}

export async function getTool(request: APIRequestContext, id: string): Promise<ApiTool> {
  const response = await request.get(`/api/tool/${encodeURIComponent(id)}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiTool;
}

/** The tool the buying spec owns (made by the global setup; see BUYING_TOOL in env.ts). */
export async function buyingTool(request: APIRequestContext): Promise<ApiTool> {
  const id = process.env.E2E_BUYING_TOOL_ID;
  if (!id) throw new Error("E2E_BUYING_TOOL_ID is not set: the global setup makes that tool");
  return getTool(request, id);
}

/** The tools the cart spec owns (see CART_TOOLS in env.ts), as the API reports them now. */
export async function cartTools(request: APIRequestContext): Promise<ApiTool[]> {
  const ids = process.env.E2E_CART_TOOL_IDS?.split(",") ?? [];
  if (ids.length === 0) throw new Error("E2E_CART_TOOL_IDS is not set: the global setup makes those tools");
  return Promise.all(ids.map((id) => getTool(request, id)));
}

export async function listTools(request: APIRequestContext, limit = 6): Promise<ApiTool[]> {
  const response = await request.get(`/api/tool?limit=${limit}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiTool[];
}

/** Signs the store's admin (made by the global setup) in on `request`'s cookies. */
export async function signInAsAdmin(request: APIRequestContext): Promise<void> {
  const response = await request.post("/api/auth/sign-in/email", { headers: { origin: APP_URL }, data: { email: ADMIN_EMAIL, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * axe on the page as a person reads it: no critical or serious violation, each listed by its rule
 * and nodes (only within `include`, a selector, when given). Every spec's accessibility check goes
 * through here, so what "as a person reads it" means is said once:
 * - a toast is read once it has slid in, not mid-animation (its colours are half faded then, and
 *   axe reported contrast failures no reader sees): the window's focus loss pauses every toast
 *   (react-toastify's documented `pauseOnFocusLoss`, as when the shopper looks away), so none starts
 *   sliding out under the analysis, and the ones sliding in or out are waited for; the focus comes
 *   back afterwards;
 * - a colour still fading (a CSS transition, such as a menu link that has just stopped being the
 *   current page) is waited for.
 */
export async function expectNoSeriousViolations(page: Page, include?: string): Promise<void> {
  await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  let results: Awaited<ReturnType<AxeBuilder["analyze"]>>;
  try {
    await expect(page.locator('.Toastify__toast[class*="bounce-enter"], .Toastify__toast[class*="bounce-exit"]')).toHaveCount(0);
    await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"));
    const builder = new AxeBuilder({ page });
    results = await (include ? builder.include(include) : builder).analyze();
  } finally {
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  }
  const bad = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
