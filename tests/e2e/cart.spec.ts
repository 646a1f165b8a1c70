import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { APP_URL } from "../support/env";
import { cartTools, expectNoSeriousViolations, getTool, listTools, loginThroughForm, newAccount, signedInPage, signUpViaApi, type ApiTool } from "../support/e2e-helpers";

/** The cart, the checkout, the confirmation and the orders they make (issue 8). */

const usd = (dollars: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(dollars);
const cents = (dollars: number) => Math.round(dollars * 100);
const origin = { origin: APP_URL };
const toast = (page: Page) => page.locator(".Toastify__toast-container--top-right .Toastify__toast");

async function setLine(request: APIRequestContext, toolId: string, quantity: number): Promise<void> {
  const response = await request.put(`/api/cart/lines/${toolId}`, { headers: origin, data: { quantity } });
  expect(response.status(), await response.text()).toBe(200);
}

async function stockOf(request: APIRequestContext, tool: ApiTool): Promise<number> {
  return (await getTool(request, tool._id)).availableQuantity;
}

test.describe("cart and checkout", () => {
  test("a visitor's cart joins the account's at login; checkout → confirmation → My Orders → order page → cancel", async ({ page, request }) => {
    test.slow(); // many pages, each a real round trip
    const [hammer, spanners] = await cartTools(request);
    if (!hammer || !spanners) throw new Error("the cart spec's tools are missing");
    const before = { hammer: hammer.availableQuantity, spanners: spanners.availableQuantity };

    // The account already has spanners in its cart (from another device, say).
    const account = await signUpViaApi(request, newAccount("cart"));
    await setLine(request, spanners._id, spanners.minimumQuantity);

    // Signed out: the tool's public page, 'Add to Cart' at the tool's minimum; the badge counts.
    await page.goto(`/tools/${hammer._id}`);
    await expect(page.getByRole("heading", { level: 1, name: hammer.name })).toBeVisible();
    await expect(page.getByTestId("stock-state")).toHaveText("In stock");
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByText(`${hammer.name} is in your cart.`)).toBeVisible();
    await expect(page.getByTestId("cart-link")).toHaveAccessibleName("Cart, 1 item");
    await page.goto(`/tools/${spanners._id}`);
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText(String(1 + spanners.minimumQuantity));

    // The visitor's cart page: lines with prices and totals, kept across a reload.
    await page.getByTestId("cart-link").click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.reload();
    const lines = page.getByTestId("cart-line");
    await expect(lines).toHaveCount(2);
    await expect(lines.filter({ hasText: hammer.name })).toContainText(usd(hammer.price));
    const visitorTotal = (cents(hammer.price) + cents(spanners.price) * spanners.minimumQuantity) / 100;
    await expect(page.getByTestId("cart-total")).toHaveText(usd(visitorTotal));
    // One more hammer with '+', and back with '−'.
    await page.getByRole("button", { name: `One more ${hammer.name}` }).click();
    await expect(page.getByLabel(`Quantity of ${hammer.name}`)).toHaveValue("2");
    await page.getByRole("button", { name: `One fewer ${hammer.name}` }).click();
    await expect(page.getByLabel(`Quantity of ${hammer.name}`)).toHaveValue("1");
    // The spanners cannot go below their minimum.
    await expect(page.getByRole("button", { name: `One fewer ${spanners.name}` })).toBeDisabled();

    // Checkout asks for a login, then comes back with the carts joined (spanners add up).
    await page.getByRole("link", { name: "Checkout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await loginThroughForm(page, account);
    await expect(page).toHaveURL(/\/checkout$/);
    const spannerCount = 2 * spanners.minimumQuantity;
    await expect(page.getByTestId("checkout-lines").getByRole("listitem")).toHaveCount(2);
    await expect(page.getByTestId("checkout-lines")).toContainText(`${spanners.name} × ${spannerCount}`);
    const subtotal = (cents(hammer.price) + cents(spanners.price) * spannerCount) / 100;
    // Pickup is taxed at the store's address (the demo's Brooklyn: New York City's rate): the total is the estimate's.
    const estimate = (await (await page.request.post("/api/cart/estimate", { data: {} })).json()) as { subtotal: number; tax: number; total: number };
    expect(estimate.subtotal).toBe(subtotal);
    expect(estimate.tax).toBeGreaterThan(0);
    const total = estimate.total;
    await expect(page.getByTestId("checkout-total")).toHaveText(usd(total));
    await expect(page.getByTestId("cart-count")).toHaveText(String(1 + spannerCount));
    // The browser's cart is gone: it lives on the server now.
    expect(await page.evaluate(() => localStorage.getItem("toolyard-cart"))).toBeNull();

    // No address yet: the form says so, and nothing is ordered.
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByText("A delivery address is required", { exact: true })).toBeVisible();
    const address = `7 Anvil Row, Flat ${Math.floor(Math.random() * 1000)}, Brooklyn`;
    await page.getByLabel("Address").fill(address);
    await page.getByLabel("Phone").fill("+1 555 0100");
    await expect(page.getByLabel("Save to my profile")).toBeChecked();
    await page.getByLabel(/Bank transfer/).check();
    await page.getByLabel("Note for the store (optional)").fill("Leave it with the neighbour.");
    // A double click is one order (one Idempotency-Key for the attempt).
    await page.getByRole("button", { name: "Place order" }).dblclick();

    await expect(page).toHaveURL(/\/checkout\/confirmation\/[^/]+$/);
    const [placed, ...others] = (await (await page.request.get("/api/order")).json()) as Array<{ _id: string; number: number }>;
    expect(others).toEqual([]);
    if (!placed) throw new Error("no order was placed");
    await expect(page.getByRole("heading", { level: 1, name: `Thank you! Order #${placed.number} is placed.` })).toBeVisible();
    await expect(page.getByTestId("order-line")).toHaveCount(2);
    await expect(page.getByTestId("order-total")).toHaveText(usd(total));
    await expect(page.getByTestId("order-address")).toHaveText(address);
    await expect(page.getByTestId("bank-details")).toContainText(`Toolyard order ${placed.number}`);
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
    await expect(page.getByTestId("cart-link")).toHaveAccessibleName("Cart, 0 items");
    await expectNoSeriousViolations(page);
    expect(await stockOf(request, hammer)).toBe(before.hammer - 1);
    expect(await stockOf(request, spanners)).toBe(before.spanners - spannerCount);
    const profile = (await (await page.request.get("/api/me/profile")).json()) as { address: string };
    expect(profile.address).toBe(address);

    // My Orders lists it with its number, tools, total and status, and links to its page.
    await page.getByRole("link", { name: "See my orders" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const row = page.getByTestId("order-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`#${placed.number}`);
    await expect(row.getByTestId("order-id")).toHaveText(placed._id);
    // The first line (the account had the spanners in its cart first), and how many more.
    await expect(row).toContainText(`${spanners.name} + 1 more`);
    await expect(row.getByTestId("order-status")).toHaveText("Pending");
    await row.getByRole("link", { name: `Details of order #${placed.number}` }).click();

    await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${placed._id}$`));
    await expect(page.getByRole("heading", { name: `Order #${placed.number}` })).toBeVisible();
    await expect(page.getByTestId("order-line")).toHaveCount(2);
    await expect(page.getByTestId("order-payment-method")).toHaveText("Bank transfer");
    await expect(page.getByTestId("order-note")).toHaveText("Leave it with the neighbour.");
    await expect(page.getByTestId("history-event")).toHaveCount(1);
    await expect(page.getByTestId("history-event").first()).toContainText("Pending by you");
    await expectNoSeriousViolations(page);

    // Cancel asks in the page; No keeps the order.
    await page.getByRole("button", { name: "Cancel order" }).click();
    const dialog = page.getByRole("dialog", { name: "Are You Sure ?" });
    await expect(dialog).toBeVisible();
    await expectNoSeriousViolations(page);
    await dialog.getByRole("button", { name: "No" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("order-status")).toHaveText("Pending");
    expect(await stockOf(request, hammer)).toBe(before.hammer - 1);

    // Yes cancels it: the status and the history change, and every line's stock is back once.
    await page.getByRole("button", { name: "Cancel order" }).click();
    await dialog.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Cancelled");
    await expect(page.getByTestId("history-event")).toHaveCount(2);
    await expect(page.getByTestId("history-event").last()).toContainText("Cancelled by you");
    await expect(page.getByRole("button", { name: "Cancel order" })).toHaveCount(0);
    await expect.poll(() => stockOf(request, hammer)).toBe(before.hammer);
    expect(await stockOf(request, spanners)).toBe(before.spanners);

    // My Orders: no open order left; the cancelled one is folded away, without its _id.
    await page.getByRole("link", { name: "Back to My Orders" }).click();
    await expect(page.getByTestId("order-row")).toHaveCount(0);
    await expect(page.getByText("You have no open orders.", { exact: true })).toBeVisible();
    const cancelled = page.getByTestId("cancelled-orders");
    await cancelled.getByText("Cancelled orders (1)").click();
    await expect(cancelled.getByTestId("cancelled-order")).toContainText(`#${placed.number}`);
    await expect(cancelled.getByTestId("order-status")).toHaveText("Cancelled");
    await expect(page.getByText(placed._id)).toHaveCount(0);
  });

  test("a line whose stock went away: the checkout says which and why, takes nothing, and the cart fixes it", async ({ page, request }) => {
    test.slow();
    // Tools no other test of this file orders, so the stock asserted here is this test's alone.
    const [, , chisels, pliers] = await cartTools(request);
    if (!chisels || !pliers) throw new Error("the cart spec's tools are missing");
    await signedInPage(page, newAccount("refused"));
    const wanted = chisels.availableQuantity;
    await setLine(page.request, pliers._id, 1);
    await setLine(page.request, chisels._id, wanted);

    await page.goto("/checkout");
    await expect(page.getByTestId("checkout-lines").getByRole("listitem")).toHaveCount(2);
    await page.getByLabel("Address").fill("1 Lathe Street");
    await page.getByLabel("Phone").fill("555 0199");

    // Meanwhile another customer buys one chisel set.
    await signUpViaApi(request, newAccount("rival"));
    const rival = await request.post("/api/order", { headers: origin, data: { toolId: chisels._id, quantity: 1 } });
    expect(rival.status(), await rival.text()).toBe(201);
    const rivalOrder = (await rival.json()) as { _id: string };
    const pliersBefore = await stockOf(request, pliers);

    await page.getByRole("button", { name: "Place order" }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "Nothing was ordered" });
    await expect(refusal).toContainText(`${chisels.name}: Only ${wanted - 1} in stock.`);
    expect(await stockOf(request, pliers)).toBe(pliersBefore);
    expect((await (await page.request.get("/api/order")).json()) as unknown[]).toEqual([]);

    // The cart names the problem and offers the fix; checkout waits until it is fixed.
    await refusal.getByRole("link", { name: "Back to the cart" }).click();
    const line = page.getByTestId("cart-line").filter({ hasText: chisels.name });
    await expect(line.getByTestId("line-problem")).toContainText(`Only ${wanted - 1} in stock.`);
    await expect(page.getByRole("button", { name: "Checkout" })).toBeDisabled();
    await line.getByRole("button", { name: `Set quantity to ${wanted - 1}` }).click();
    await expect(line.getByTestId("line-problem")).toHaveCount(0);
    await expect(page.getByLabel(`Quantity of ${chisels.name}`)).toHaveValue(String(wanted - 1));
    // A typed quantity above the stock is refused in place, before anything is sent.
    await page.getByLabel(`Quantity of ${chisels.name}`).fill(String(wanted + 5));
    await page.getByLabel(`Quantity of ${chisels.name}`).press("Enter");
    await expect(line.getByRole("alert")).toHaveText(`Only ${wanted - 1} in stock.`);
    await page.getByLabel(`Quantity of ${chisels.name}`).fill(String(wanted - 1));
    await page.getByLabel(`Quantity of ${chisels.name}`).press("Enter");

    await page.getByRole("link", { name: "Checkout" }).click();
    await page.getByLabel("Address").fill("1 Lathe Street");
    await page.getByLabel("Phone").fill("555 0199");
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page).toHaveURL(/\/checkout\/confirmation\//);
    await expect(page.getByTestId("order-line")).toHaveCount(2);
    await expect.poll(() => stockOf(request, chisels)).toBe(0);

    // Give the stock back for the next run.
    const [mine] = (await (await page.request.get("/api/order")).json()) as Array<{ _id: string }>;
    expect((await page.request.delete(`/api/order/${mine?._id}`, { headers: origin })).status()).toBe(200);
    expect((await request.delete(`/api/order/${rivalOrder._id}`, { headers: origin })).status()).toBe(200);
    expect(await stockOf(request, chisels)).toBe(wanted);
  });

  test("the cart on a phone: readable, no sideways scroll, no serious axe violations; the empty cart leads to the tools", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/cart");
    await expect(page.getByText("Your cart is empty.", { exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Browse all tools" })).toHaveAttribute("href", "/tools");

    const [hammer, spanners] = await cartTools(page.request);
    if (!hammer || !spanners) throw new Error("the cart spec's tools are missing");
    await signedInPage(page, newAccount("phone"));
    await setLine(page.request, hammer._id, 1);
    await setLine(page.request, spanners._id, spanners.minimumQuantity);
    await page.goto("/cart");
    await expect(page.getByTestId("cart-line")).toHaveCount(2);
    await expect(page.getByTestId("cart-count")).toHaveText(String(1 + spanners.minimumQuantity));
    await expect(page.getByRole("button", { name: `Remove ${hammer.name} from the cart` })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousViolations(page);

    await page.getByRole("button", { name: `Remove ${hammer.name} from the cart` }).click();
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    await page.getByRole("link", { name: "Checkout" }).click();
    await expect(page.getByRole("button", { name: "Place order" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousViolations(page);
  });
});

test("'Ordered' on the purchase page: My Orders greets the order with a toast naming its number", async ({ page, request }) => {
  // A catalogue tool (no test asserts its exact stock), not one of the cart spec's own.
  const [tool] = await listTools(request, 1);
  if (!tool) throw new Error("the catalogue is empty");
  await signedInPage(page, newAccount("toast"));
  await page.goto(`/purchase/${tool._id}`);
  await page.getByRole("button", { name: "Ordered", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const [placed] = (await (await page.request.get("/api/order")).json()) as Array<{ _id: string; number: number }>;
  if (!placed) throw new Error("no order was placed");
  await expect(toast(page).filter({ hasText: `Order #${placed.number} placed` })).toBeVisible();
  // Not again after a reload.
  await page.reload();
  await expect(page.getByTestId("order-row")).toHaveCount(1);
  await expect(toast(page)).toHaveCount(0);
  expect((await page.request.delete(`/api/order/${placed._id}`, { headers: origin })).status()).toBe(200);
});
