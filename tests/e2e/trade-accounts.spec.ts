/**
 * A trade buyer in the real store (issue 43, DESIGN "Trade accounts"): a member of an account with
 * net terms and PO numbers required checks out on terms; without a PO number the store says so and
 * orders nothing; with one the order is placed unpaid, invoiced with its due date. The tool is the
 * spec's own (made here through the console's API), so no other spec's stock moves.
 */
import { expect, test } from "@playwright/test";
import { TRADE_TEXT } from "../../src/contract/texts/trade";
import { ORDER_TEXT } from "../../src/contract/texts/orders";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, newAccount, signedInPage, signInAsAdmin } from "../support/e2e-helpers";

test("a buyer checks out on the account's terms with a PO number, which the store requires", async ({ page, browser }) => {
  const owner = await browser.newContext({ baseURL: APP_URL });
  await signInAsAdmin(owner.request);
  const tool = await owner.request.post("/api/admin/tools", {
    headers: { origin: APP_URL },
    data: { name: `Trade pruning saw ${Date.now()}`, image: "/images/tools/jigsaw.svg", price: 25, availableQuantity: 50, minimumQuantity: 1, description: "For crews.", category: "hand-tools" },
  });
  expect(tool.status(), await tool.text()).toBe(201);
  const toolId = ((await tool.json()) as { _id: string })._id;
  const account = await owner.request.post("/api/admin/accounts", { headers: { origin: APP_URL }, data: { name: "Green Acres Landscaping", terms: "net30", creditLimit: 5000, poRequired: true } });
  expect(account.status()).toBe(201);
  const accountId = ((await account.json()) as { _id: string })._id;

  const buyer = await signedInPage(page, newAccount("trade-buyer"));
  const joined = await owner.request.post(`/api/admin/accounts/${accountId}/members`, { headers: { origin: APP_URL }, data: { email: buyer.email, role: "buyer" } });
  expect(joined.status()).toBe(201);
  expect((await page.request.put(`/api/cart/lines/${toolId}`, { headers: { origin: APP_URL }, data: { quantity: 4 } })).status()).toBe(200);

  await page.goto("/checkout");
  await page.getByLabel("Address").fill("12 Orchard Lane, Brooklyn");
  await page.getByLabel("Phone").fill("+1 555 0100");
  // Terms are offered to a member of an account with terms, and the PO field says it is required.
  const terms = page.getByLabel(new RegExp(ORDER_TEXT.paymentMethod.terms.replace(/[()]/g, "\\$&")));
  await expect(terms).toBeVisible();
  await terms.check();
  await expect(page.getByLabel(TRADE_TEXT.poNumberRequired)).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByText(TRADE_TEXT.poRequired)).toBeVisible();
  expect((await (await page.request.get("/api/order")).json()) as unknown[]).toEqual([]);

  await page.getByLabel(TRADE_TEXT.poNumberRequired).fill("PO-2291");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/checkout\/confirmation\/[^/]+$/);
  const [order] = (await (await page.request.get("/api/order")).json()) as { _id: string; paymentMethod: string; poNumber: string; dueDate: string; balanceDue: number; subtotal: number; total: number; status: string }[];
  expect(order).toMatchObject({ paymentMethod: "terms", poNumber: "PO-2291", status: "pending" });
  // Nothing is paid on terms: the whole total is due (4 × $25, plus whatever tax the demo store's
  // rates add for the address: the seed has New York's).
  expect(order?.subtotal).toBe(100);
  expect(order?.balanceDue).toBe(order?.total);
  expect(order?.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await owner.close();
});
