/**
 * A customer's return from request to refund in the real store (issue 40, DESIGN "Refunds and
 * returns"): the customer asks from the delivered order's page; the owner approves it and marks
 * it received on the console's Returns page, then refunds it from the order's page choosing the
 * return; the customer sees it refunded. Its tool is the money spec's own (E2E_MONEY_TOOL_ID).
 */
import { expect, test } from "@playwright/test";
import { APP_URL, MONEY_TOOL } from "../support/env";
import { expectNoSeriousViolations, newAccount, signedInPage, signInAsAdmin } from "../support/e2e-helpers";

const origin = { origin: APP_URL };

test("a customer's return: asked on the order page, approved and received in the console, refunded with the return named", async ({ page, browser }) => {
  test.slow();
  const id = process.env.E2E_MONEY_TOOL_ID;
  if (!id) throw new Error("E2E_MONEY_TOOL_ID is not set: the global setup makes that tool");
  const customer = await browser.newPage();
  await signedInPage(customer, newAccount("returner"));
  expect((await customer.request.put(`${APP_URL}/api/cart/lines/${id}`, { headers: origin, data: { quantity: 2 } })).status()).toBe(200);
  const placed = await customer.request.post(`${APP_URL}/api/checkout`, {
    headers: { ...origin, "idempotency-key": `return-e2e-${Date.now()}` },
    data: { address: "5 Return Road", phone: "+1 555 0191", paymentMethod: "cash_on_delivery" },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = (await placed.json()) as { order: { _id: string; number: number } };
  await signInAsAdmin(page.request);
  for (const status of ["paid", "shipped", "delivered"]) {
    expect((await page.request.post(`${APP_URL}/api/admin/orders/${order._id}/status`, { headers: origin, data: { status } })).status()).toBe(200);
  }

  // The customer asks.
  await customer.goto(`${APP_URL}/dashboard/orders/${order._id}`);
  const form = customer.getByRole("form", { name: "Return items" });
  await form.getByLabel(`${MONEY_TOOL.name}: units to return (up to 2)`).fill("1");
  await form.getByLabel("Why are you returning them?").fill("Wrong size");
  await form.getByRole("button", { name: "Ask for a return" }).click();
  const theirs = customer.getByTestId("order-return");
  await expect(theirs.getByTestId("return-status")).toHaveText("Requested");

  // The owner approves it, then marks it received.
  await page.goto("/admin/returns");
  await expect(page.getByRole("heading", { level: 2, name: "Returns" })).toBeVisible();
  const row = page.getByTestId("return-row").filter({ hasText: `#${order.number}` });
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(row.getByTestId("return-status")).toHaveText("Approved");
  await row.getByRole("button", { name: "Mark received" }).click();
  await expect(row.getByTestId("return-status")).toHaveText("Received");
  await expectNoSeriousViolations(page);

  // And refunds it from the order's page, naming the return.
  await page.goto(`/admin/orders/${order._id}`);
  const refund = page.getByRole("form", { name: "Refund" });
  await refund.getByLabel("For the return").selectOption({ index: 1 });
  await expect(refund.getByLabel(`${MONEY_TOOL.name}: units to refund (up to 2)`)).toHaveValue("1");
  await refund.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByTestId("order-refund").getByTestId("refund-status")).toHaveText("Refunded");

  await customer.reload();
  await expect(customer.getByTestId("order-return").getByTestId("return-status")).toHaveText("Refunded");
  await expect(customer.getByTestId("order-refund")).toContainText("Wrong size");
  await customer.close();
});
