/**
 * Quotes in the real store (issue 41, DESIGN "Quotes"): a visitor's 'Request For Quote' on the
 * home page leads through the login to the request form; the owner answers in the console with a
 * revision holding the stock, then a second that supersedes it; the customer sees what changed and
 * each revision's PDF, accepts by card on the Stripe stand-in's page, and the order is paid at the
 * quoted prices. The message the customer typed (HTML) is shown as text on both sides.
 *
 * The tool is the demo seed's angle grinder: no other spec orders it.
 */
import { expect, test, type Page } from "@playwright/test";
import { ORDER_TEXT } from "../../src/contract/texts/orders";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, loginThroughForm, newAccount, signInAsAdmin, signUpViaApi } from "../support/e2e-helpers";

const GRINDER = "Angle Grinder 125 mm, 1200 W";
const MESSAGE = "<b>Five</b> grinders for the workshop, please.";

const toast = (page: Page) => page.locator(".Toastify__toast-container--top-right .Toastify__toast");

// The Stripe stand-in is shared with card-payment.spec, which holds its webhooks back at times.
test.describe.configure({ mode: "serial" });

test("request → the owner's revisions → accept by card → a paid order at the quoted prices", async ({ page, browser, request }) => {
  test.slow(); // two browsers, the console, the pay page and a webhook
  const account = await signUpViaApi(request, newAccount("quote"));

  // A visitor's 'Request For Quote' (the spec's button) leads to the login, then back to the request form.
  await page.goto("/");
  await page.getByRole("button", { name: "Request For Quote" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await loginThroughForm(page, account);
  await expect(page).toHaveURL(/\/dashboard\/quotes\/new$/);
  await expect(page.getByRole("heading", { name: "Request a quote" })).toBeVisible();

  // The request: a tool and its quantity, a needed-by date, a message; the form checks what the API checks.
  const form = page.getByRole("form", { name: "Request a quote" });
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(form.getByRole("alert").first()).toBeVisible();
  await form.getByLabel("Tool, line 1").selectOption({ label: `${GRINDER} ($89.00)` });
  await form.getByLabel("Quantity, line 1").fill("5");
  const neededBy = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel("Needed by (optional)").fill(neededBy);
  await form.getByLabel("Message (optional)").fill(MESSAGE);
  await expectNoSeriousViolations(page);
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(toast(page)).toContainText(/Request Q-\d{4}-\d{6} sent/);
  await expect(page).toHaveURL(/\/dashboard\/quotes\/[^/]+$/);
  const quoteId = new URL(page.url()).pathname.split("/").pop() ?? "";
  await expect(page.getByTestId("quote-status")).toHaveText("Requested");
  await expect(page.getByTestId("quote-message")).toHaveText(MESSAGE);
  const number = ((await (await page.request.get(`/api/quotes/${quoteId}`)).json()) as { number: string }).number;

  // The owner, in the console: the request, then revision 1 holding the stock, then revision 2.
  const owner = await browser.newContext({ baseURL: APP_URL });
  const console = await owner.newPage();
  await signInAsAdmin(console.request);
  const stockBefore = ((await (await console.request.get(`/api/admin/quotes/${quoteId}`)).json()) as { lines: { toolId: string }[] }).lines[0]?.toolId ?? "";
  const stockOf = async () => ((await (await console.request.get(`/api/tool/${stockBefore}`)).json()) as { availableQuantity: number }).availableQuantity;
  const initial = await stockOf();
  await console.goto("/admin/quotes");
  await console.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Quotes" }).click();
  const row = console.getByTestId("admin-quote-row").filter({ hasText: number });
  await expect(row).toContainText("Requested");
  await row.getByRole("link", { name: number }).click();
  await expect(console.getByTestId("admin-quote-message")).toHaveText(MESSAGE);
  const first = console.getByRole("form", { name: "Send revision 1" });
  // The list or tier price for the quantity is offered; the owner quotes less.
  await expect(first.getByLabel(`Unit price ($) of ${GRINDER}`)).toHaveValue("89");
  await first.getByLabel(`Unit price ($) of ${GRINDER}`).fill("80");
  await first.getByLabel("Shipping ($)").fill("15");
  await first.getByLabel("Hold the quoted units until the quote expires").check();
  await expectNoSeriousViolations(console);
  await first.getByRole("button", { name: "Send revision" }).click();
  await expect(console.getByText("Revision sent.")).toBeVisible();
  await expect(console.getByTestId("admin-revision")).toHaveCount(1);
  expect(await stockOf()).toBe(initial - 5);
  const second = console.getByRole("form", { name: "Send revision 2" });
  await second.getByLabel(`Unit price ($) of ${GRINDER}`).fill("78");
  await second.getByRole("button", { name: "Send revision" }).click();
  await expect(console.getByTestId("admin-revision")).toHaveCount(2);
  // Revision 2 holds nothing: revision 1's units went back when it was superseded.
  expect(await stockOf()).toBe(initial);
  await expect(console.getByTestId("admin-quote-status")).toHaveText("Quote sent");

  // The customer: both revisions, what changed, each one's PDF.
  await page.reload();
  await expect(page.getByTestId("quote-status")).toHaveText("Quote sent");
  const revisions = page.getByTestId("quote-revision");
  await expect(revisions).toHaveCount(2);
  await expect(revisions.first().getByTestId("revision-status")).toHaveText("Open");
  await expect(revisions.nth(1).getByTestId("revision-status")).toHaveText("Superseded");
  await expect(revisions.first().getByTestId("revision-changes")).toContainText(`${GRINDER}: 5 × $80.00 → 5 × $78.00`);
  const pdfLink = revisions.first().getByRole("link", { name: "PDF of revision 2" });
  const pdf = await page.request.get((await pdfLink.getAttribute("href")) ?? "");
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  const total = ((await (await page.request.get(`/api/quotes/${quoteId}`)).json()) as { revisions: { total: number }[] }).revisions[1]?.total ?? 0;
  await expectNoSeriousViolations(page);

  // Accept by card: the stand-in's pay page, Approve, and the order is paid at the quoted total.
  await revisions.first().getByRole("radio", { name: ORDER_TEXT.paymentMethod.card }).check();
  await revisions.first().getByRole("button", { name: "Accept this quote" }).click();
  await expect(page).toHaveURL(/\/pay\/[^/?]+$/);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders\/[^/?]+\?payment=return$/);
  await expect(page.getByTestId("order-status")).toHaveText(ORDER_TEXT.status.paid);
  const orderId = new URL(page.url()).pathname.split("/").pop() ?? "";
  const order = (await (await page.request.get(`/api/order/${orderId}`)).json()) as { quoteNumber: string; total: number; lines: { unitPrice: number; quantity: number }[] };
  expect(order).toMatchObject({ quoteNumber: number, total, lines: [{ unitPrice: 78, quantity: 5 }] });

  // The quote says so, on both sides.
  await page.goto(`/dashboard/quotes/${quoteId}`);
  await expect(page.getByTestId("quote-status")).toHaveText("Accepted");
  await expect(page.getByRole("link", { name: "View the order" })).toHaveAttribute("href", `/dashboard/orders/${orderId}`);
  await console.reload();
  await expect(console.getByTestId("admin-quote-status")).toHaveText("Accepted");
  await owner.close();
});

test("the cart's 'Ask for a quote' fills the request with the cart's lines", async ({ page, request }) => {
  const account = await signUpViaApi(request, newAccount("quote-cart"));
  await page.goto("/login");
  await loginThroughForm(page, account);
  await expect(page).not.toHaveURL(/\/login$/);
  const found = (await (await page.request.get(`/api/tool?q=${encodeURIComponent(GRINDER)}`)).json()) as { _id: string; name: string }[];
  const grinder = found.find((t) => t.name === GRINDER);
  if (!grinder) throw new Error("the demo seed's angle grinder is missing");
  const put = await page.request.put(`/api/cart/lines/${grinder._id}`, { headers: { origin: APP_URL }, data: { quantity: 3 } });
  expect(put.status(), await put.text()).toBe(200);
  await page.goto("/cart");
  await page.getByRole("link", { name: "Ask for a quote" }).click();
  await expect(page).toHaveURL(/\/dashboard\/quotes\/new\?from=cart$/);
  const form = page.getByRole("form", { name: "Request a quote" });
  await expect(form.getByLabel("Tool, line 1")).toHaveValue(grinder._id);
  await expect(form.getByLabel("Quantity, line 1")).toHaveValue("3");
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(page).toHaveURL(/\/dashboard\/quotes\/[^/]+$/);
  await expect(page.getByTestId("quote-requested-lines")).toHaveText(`3 × ${GRINDER}`);
  // My Quotes lists it.
  await page.getByRole("link", { name: "My Quotes" }).click();
  await expect(page.getByTestId("quote-row")).toHaveCount(1);
});
