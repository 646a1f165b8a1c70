/**
 * Card payments through the pay page (issue 32, DESIGN "Payments"): the store runs with the
 * Stripe stand-in (tests/support/global-setup.ts). The order page shows the order as the webhook
 * left it, whatever the return URL says: Approve → Paid; Abandon → still awaiting payment with
 * 'Pay now'; the session expiring → Cancelled, the stock back. The console refunds a paid card
 * order on cancel, and shows a refused refund's reason. Its tool is its own (E2E_CARD_TOOL_ID),
 * so no other spec's stock moves.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { ORDER_TEXT } from "../../src/contract/texts/orders";
import { PAYMENT_TEXT } from "../../src/contract/texts/payments";
import { ACCOUNT_PAGE_TEXT as TRADE_PAGE } from "../../src/contract/texts/trade";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, getTool, newAccount, signedInPage, signInAsAdmin } from "../support/e2e-helpers";
import { stripeStandInControls } from "../support/stripe";

const origin = { origin: APP_URL };

function cardTool(): string {
  const id = process.env.E2E_CARD_TOOL_ID;
  if (!id) throw new Error("E2E_CARD_TOOL_ID is not set: the global setup makes that tool");
  return id;
}

function stripe() {
  const url = process.env.E2E_STRIPE_URL;
  if (!url) throw new Error("E2E_STRIPE_URL is not set: the global setup starts the Stripe stand-in");
  return stripeStandInControls(url);
}

async function stockOf(request: APIRequestContext, id: string): Promise<number> {
  return (await getTool(request, id)).availableQuantity;
}

/** On the checkout: Card, 'Place order', and on to the stand-in's pay page. */
async function payByCard(page: Page): Promise<void> {
  const card = page.getByRole("radio", { name: new RegExp(`^${ORDER_TEXT.paymentMethod.card}`) });
  await card.check();
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/pay\/[^/?]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Pay with card (Stripe test stand-in)" })).toBeVisible();
}

const usd = (dollars: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(dollars);

// One stand-in for the whole run: a test holding its webhooks back would hold another's too.
test.describe.configure({ mode: "serial" });

test.describe("card payments", () => {
  test("Approve → the order page shows it paid; Abandon → awaiting with 'Pay now'; the page expiring → cancelled, the stock back", async ({ page, request }) => {
    test.slow(); // two orders through another site and back, and a wait for the webhook
    const toolId = cardTool();
    await signedInPage(page, newAccount("card"));

    // The checkout offers the card beside the other two, with their labels as before.
    await page.goto(`/tools/${toolId}`);
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await page.goto("/checkout");
    await expect(page.getByRole("radio")).not.toHaveCount(0);
    const payment = page.getByRole("group", { name: "Payment" });
    for (const method of ["cash_on_delivery", "bank_transfer", "card"] as const) {
      await expect(payment.getByRole("radio", { name: new RegExp(`^${ORDER_TEXT.paymentMethod[method]}`) })).toBeVisible();
    }
    await page.getByLabel("Address").fill("3 Ledger Street");
    await page.getByLabel("Phone").fill("+1 555 0142");
    await expect(page.getByLabel("Save to my profile")).toBeChecked();
    await payByCard(page);

    // The pay page asks for the order's total; Approve brings the customer back once the webhook is in.
    const [first] = (await (await page.request.get("/api/order")).json()) as Array<{ _id: string; number: number; total: number; status: string }>;
    if (!first) throw new Error("no order was placed");
    expect(first.status).toBe("awaiting_payment");
    await expect(page.getByTestId("amount")).toHaveText(usd(first.total));
    // The webhook is late: back on the order page, 'payment=return' makes nothing paid.
    await stripe().hold();
    try {
      await page.getByRole("button", { name: "Approve" }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${first._id}\\?payment=return$`));
      await expect(page.getByRole("heading", { name: `Order #${first.number}` })).toBeVisible();
      await expect(page.getByTestId("order-status")).toHaveText(ORDER_TEXT.status.awaiting_payment);
      await expect(page.getByTestId("payment-waiting")).toHaveText(PAYMENT_TEXT.waiting);
    } finally {
      await stripe().release();
    }
    // The webhook arrives: the page, asking again by itself, shows the order paid.
    await expect(page.getByTestId("order-status")).toHaveText(ORDER_TEXT.status.paid);
    await expect(page.getByTestId("order-payment-method")).toHaveText(ORDER_TEXT.paymentMethod.card);
    await expect(page.getByTestId("order-payment-status")).toHaveText(PAYMENT_TEXT.status.paid);
    await expect(page.getByTestId("pay-now")).toHaveCount(0);
    await expect(page.getByTestId("payment-waiting")).toHaveCount(0);
    await expectNoSeriousViolations(page);

    // A second order, its stock held while it awaits the payment.
    const beforeSecond = await stockOf(request, toolId);
    const added = await page.request.put(`/api/cart/lines/${toolId}`, { headers: origin, data: { quantity: 2 } });
    expect(added.status(), await added.text()).toBe(200);
    await page.goto("/checkout");
    // The address and phone came back from My Profile (saved with the first order).
    await expect(page.getByLabel("Address")).toHaveValue("3 Ledger Street");
    await payByCard(page);
    expect(await stockOf(request, toolId)).toBe(beforeSecond - 2);

    // Abandon: back on the order page, which still waits for the payment (the return URL decides nothing).
    await page.getByRole("button", { name: "Abandon" }).click();
    await expect(page).toHaveURL(/\/dashboard\/orders\/[^/?]+\?payment=cancelled$/);
    const secondId = new URL(page.url()).pathname.split("/").pop() ?? "";
    expect(secondId).not.toBe(first._id);
    await expect(page.getByTestId("order-status")).toHaveText(ORDER_TEXT.status.awaiting_payment);
    await expect(page.getByTestId("order-payment-status")).toHaveText(PAYMENT_TEXT.status.open);
    await expect(page.getByTestId("payment-waiting")).toHaveText(PAYMENT_TEXT.waiting);
    const payNow = page.getByRole("link", { name: PAYMENT_TEXT.payNow });
    await expect(payNow).toHaveAttribute("href", /\/pay\/[^/?]+$/);
    await expectNoSeriousViolations(page);

    // My Orders lists both, each with its status in words.
    await page.getByRole("link", { name: ORDER_TEXT.backToOrders }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(2);
    const row = (id: string) => page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);
    await expect(row(first._id).getByTestId("order-status")).toHaveText(ORDER_TEXT.status.paid);
    await expect(row(secondId).getByTestId("order-status")).toHaveText(ORDER_TEXT.status.awaiting_payment);
    await page.goto(`/dashboard/orders/${secondId}`);
    await expect(page.getByTestId("payment-waiting")).toBeVisible();

    // The payment page expires (Stripe's checkout.session.expired): the page, asking again by itself, shows the order cancelled.
    const sessionId = decodeURIComponent((await payNow.getAttribute("href"))?.split("/pay/")[1] ?? "");
    await stripe().expire(sessionId);
    await expect(page.getByTestId("order-status")).toHaveText(ORDER_TEXT.status.cancelled);
    await expect(page.getByTestId("order-payment-status")).toHaveText(PAYMENT_TEXT.status.expired);
    await expect(page.getByTestId("pay-now")).toHaveCount(0);
    await expect(page.getByTestId("payment-waiting")).toHaveCount(0);
    await expect(page.getByTestId("history-note")).toHaveText(PAYMENT_TEXT.sessionExpired);
    expect(await stockOf(request, toolId)).toBe(beforeSecond);
    await expectNoSeriousViolations(page);
  });
});

test.describe("card payments in the console", () => {
  test("the owner's cancel of a paid card order: a refused refund keeps it paid and says why; an accepted one refunds and cancels", async ({ page, browser }) => {
    test.slow();
    const customer = await browser.newPage();
    await signedInPage(customer, newAccount("cardrefund"));
    const line = await customer.request.put(`${APP_URL}/api/cart/lines/${cardTool()}`, { headers: origin, data: { quantity: 1 } });
    expect(line.status(), await line.text()).toBe(200);
    const placed = await customer.request.post(`${APP_URL}/api/checkout`, {
      headers: { ...origin, "idempotency-key": `card-refund-${Date.now()}` },
      data: { address: "8 Refund Row", phone: "+1 555 0177", paymentMethod: "card" },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const { order, payment } = (await placed.json()) as { order: { _id: string; number: number; total: number }; payment?: { url: string } };
    if (!payment) throw new Error("a card checkout answered without a payment page");
    await stripe().complete(decodeURIComponent(payment.url.split("/pay/")[1] ?? ""));

    await signInAsAdmin(page.request);
    await page.goto(`/admin/orders/${order._id}`);
    await expect(page.getByRole("heading", { name: `Order #${order.number}` })).toBeVisible();
    await expect(page.getByTestId("order-status")).toHaveText("Paid");
    await expect(page.getByTestId("order-payment-status")).toHaveText(PAYMENT_TEXT.status.paid);
    const moves = page.getByRole("region", { name: "Move to" });

    const reason = "This charge is under dispute and cannot be refunded.";
    await stripe().refuseRefunds(reason);
    try {
      await moves.getByRole("button", { name: "Cancelled" }).click();
      await expect(page.getByTestId("refund-refused")).toHaveText(PAYMENT_TEXT.refundRefused(reason));
      await expect(page.getByTestId("order-status")).toHaveText("Paid");
      await expect(page.getByTestId("order-payment-status")).toContainText(PAYMENT_TEXT.status.refund_failed);
      await expect(page.getByTestId("order-payment-status")).toContainText(PAYMENT_TEXT.refundError(reason));
      await expect(page.getByTestId("payment-problem")).toContainText(PAYMENT_TEXT.problems.REFUND_FAILED ?? "");
      await expectNoSeriousViolations(page);
    } finally {
      await stripe().refuseRefunds(null);
    }

    await moves.getByRole("button", { name: "Cancelled" }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Cancelled");
    await expect(page.getByTestId("order-payment-status")).toHaveText(PAYMENT_TEXT.status.refunded);
    await expect(page.getByTestId("payment-problem")).toHaveCount(0);
    await expect(page.getByTestId("order-history")).toContainText(`Refunded ${usd(order.total)} to the card`);

    // The customer sees the refund on the order's page.
    await customer.goto(`${APP_URL}/dashboard/orders/${order._id}`);
    await expect(customer.getByTestId("order-status")).toHaveText(ORDER_TEXT.status.cancelled);
    await expect(customer.getByTestId("order-payment-status")).toHaveText(PAYMENT_TEXT.status.refunded);
    // The history tells each step: the refund asked for, refused, asked for again, and done (the last completes the cancel).
    await expect(customer.getByTestId("history-note").filter({ hasText: `Refunded ${usd(order.total)} to the card` })).toHaveCount(1);
    await expect(customer.getByTestId("history-note").last()).toContainText(`Refunded ${usd(order.total)} to the card`);
    await customer.close();
  });
});

test.describe("paying trade invoices by card", () => {
  test("a trade account member pays two open invoices at once by card from the dashboard (issue 43)", async ({ page, browser }) => {
    test.slow(); // an account, two orders on terms and the stand-in's page
    const owner = await browser.newContext({ baseURL: APP_URL });
    await signInAsAdmin(owner.request);
    const member = await signedInPage(page, newAccount("invoice-card"));
    const account = await owner.request.post("/api/admin/accounts", { headers: origin, data: { name: `Invoice Card Ltd ${Date.now()}`, terms: "net30", creditLimit: 5000 } });
    expect(account.status(), await account.text()).toBe(201);
    const added = await owner.request.post(`/api/admin/accounts/${((await account.json()) as { _id: string })._id}/members`, { headers: origin, data: { email: member.email, role: "buyer" } });
    expect(added.status(), await added.text()).toBe(201);
    await owner.close();
    const invoices: { invoiceNumber: string; total: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const placed = await page.request.post("/api/order", { headers: origin, data: { toolId: cardTool(), quantity: 1, paymentMethod: "terms" } });
      expect(placed.status(), await placed.text()).toBe(201);
      invoices.push((await placed.json()) as { invoiceNumber: string; total: number });
    }

    await page.goto("/dashboard/account");
    await expect(page.getByTestId("open-invoice")).toHaveCount(2);
    for (const invoice of invoices) await page.getByRole("checkbox", { name: TRADE_PAGE.payInvoice(invoice.invoiceNumber) }).check();
    const sum = invoices.reduce((s, o) => s + o.total, 0);
    await page.getByRole("button", { name: TRADE_PAGE.payByCard(usd(sum)) }).click();
    await expect(page).toHaveURL(/\/pay\/[^/?]+$/);
    await expect(page.getByTestId("amount")).toHaveText(usd(sum));
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/dashboard\/account\?payment=return$/);
    await expect(page.getByText(TRADE_PAGE.payReturned)).toBeVisible();
    // Applied by the webhook: nothing is open any more.
    await expect.poll(async () => ((await (await page.request.get("/api/account/invoices")).json()) as unknown[]).length).toBe(0);
    await page.reload();
    await expect(page.getByText(TRADE_PAGE.noOpenInvoices)).toBeVisible();
  });
});
