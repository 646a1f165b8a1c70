/**
 * Refunds of any part in the real store (issue 40, DESIGN "Refunds and returns"): the owner refunds
 * one unit of a paid cash order from its console page; the refund is listed with its credit note,
 * whose link answers a PDF; the customer's order page shows what was refunded, when and why. Its
 * tool is the money spec's own (E2E_MONEY_TOOL_ID, 500 in stock, whose stock no spec checks).
 */
import { expect, test } from "@playwright/test";
import { APP_URL, MONEY_TOOL } from "../support/env";
import { expectNoSeriousViolations, newAccount, signedInPage, signInAsAdmin } from "../support/e2e-helpers";

const origin = { origin: APP_URL };

function moneyTool(): string {
  const id = process.env.E2E_MONEY_TOOL_ID;
  if (!id) throw new Error("E2E_MONEY_TOOL_ID is not set: the global setup makes that tool");
  return id;
}

test("the owner refunds one unit of a paid order with a credit note; the customer sees it on the order page", async ({ page, browser }) => {
  test.slow(); // two people, an order, a refund and a document
  const customer = await browser.newPage();
  await signedInPage(customer, newAccount("refund"));
  const line = await customer.request.put(`${APP_URL}/api/cart/lines/${moneyTool()}`, { headers: origin, data: { quantity: 2 } });
  expect(line.status(), await line.text()).toBe(200);
  const placed = await customer.request.post(`${APP_URL}/api/checkout`, {
    headers: { ...origin, "idempotency-key": `refund-e2e-${Date.now()}` },
    data: { address: "9 Refund Lane", phone: "+1 555 0190", paymentMethod: "cash_on_delivery" },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = (await placed.json()) as { order: { _id: string; number: number; total: number } };

  await signInAsAdmin(page.request);
  const paid = await page.request.post(`${APP_URL}/api/admin/orders/${order._id}/status`, { headers: origin, data: { status: "paid" } });
  expect(paid.status(), await paid.text()).toBe(200);

  await page.goto(`/admin/orders/${order._id}`);
  await expect(page.getByRole("heading", { name: `Order #${order.number}` })).toBeVisible();
  const form = page.getByRole("form", { name: "Refund" });
  // The form's rules are the route's: no unit and no shipping is refused before anything is sent.
  await form.getByLabel("Reason").fill("Damaged in transit");
  await form.getByRole("button", { name: "Refund" }).click();
  await expect(form.getByTestId("refund-problem")).toHaveText("Choose at least one unit or the shipping to refund");

  await form.getByLabel(`${MONEY_TOOL.name}: units to refund (up to 2)`).fill("1");
  await form.getByRole("button", { name: "Refund" }).click();
  const row = page.getByTestId("order-refund");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("refund-status")).toHaveText("Refunded");
  await expect(row).toContainText(`1 × ${MONEY_TOOL.name}`);
  await expect(row).toContainText("Damaged in transit");
  const link = row.getByTestId("refund-credit-note");
  await expect(link).toHaveText(/^Credit note CN-\d{4}-\d{6} \(PDF\)$/);
  const amount = (await row.getByTestId("refund-amount").textContent()) ?? "";
  await expect(page.getByTestId("order-refunded-total")).toHaveText(`Refunded so far: ${amount}`);
  // One unit is left to refund.
  await expect(form.getByLabel(`${MONEY_TOOL.name}: units to refund (up to 1)`)).toBeVisible();
  await expectNoSeriousViolations(page);

  // The credit note's link answers a PDF.
  const href = await link.getAttribute("href");
  if (!href) throw new Error("the credit note has no link");
  const pdf = await page.request.get(`${APP_URL}${href}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

  // The customer's order page shows the refund, why, and its credit note (theirs to download too).
  await customer.goto(`${APP_URL}/dashboard/orders/${order._id}`);
  const theirs = customer.getByTestId("order-refund");
  await expect(theirs).toHaveCount(1);
  await expect(theirs).toContainText("Damaged in transit");
  await expect(theirs.getByTestId("refund-amount")).toHaveText(amount);
  const mine = await customer.request.get(`${APP_URL}${href}`);
  expect(mine.headers()["content-type"]).toBe("application/pdf");
  await customer.close();
});
