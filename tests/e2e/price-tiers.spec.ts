/**
 * Price tiers in the real store (issue 41, DESIGN "Price tiers"): the owner gives a tool a ladder
 * in the console (a ladder that breaks the rules is refused at the field); a tool's page shows
 * its ladder as a small table, the cart prices the line at the tier its quantity reaches and says
 * how many more reach the next, the checkout shows it, and the order keeps the tier's unit price
 * with its line total exactly unit × quantity.
 *
 * The console's tool is made archived, as admin.spec's is, so the public catalogue (and the other
 * specs' counts) never see it; the shopper orders the demo seed's drill, whose ladder comes with
 * the seed (10+ at $129.00, 25+ at $119.00).
 */
import { expect, test } from "@playwright/test";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, signedInPage, signInAsAdmin } from "../support/e2e-helpers";

const DRILL = "18 V Brushless Drill Driver";

test("the owner gives a tool price tiers in the console, refused at the field when they break the rules", async ({ page }) => {
  await signInAsAdmin(page.request);
  await page.goto("/admin/tools");
  const name = `Tiered Trowel ${Date.now().toString(36)}`;
  await page.getByRole("button", { name: "Add a tool" }).click();
  const form = page.getByRole("form", { name: "Add a tool" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Price (dollars)").fill("40");
  await form.getByLabel("Stock", { exact: true }).fill("100");
  await form.getByLabel("Minimum order quantity").fill("2");
  await form.getByLabel("Description").fill("A trowel for the price tiers test.");
  await form.getByLabel(/In the store at once/).uncheck();
  const tiers = form.getByTestId("price-tier-fields");
  await expect(tiers).toContainText("No tiers: every quantity at the list price.");

  // A tier priced above the list price, and one below the minimum, are refused before anything is sent.
  await tiers.getByRole("button", { name: "Add tier" }).click();
  await form.getByLabel("From quantity, tier 1").fill("2");
  await form.getByLabel("Unit price ($), tier 1").fill("45");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(tiers.getByRole("alert")).toHaveText("A tier starts above the minimum order (2)");
  await form.getByLabel("From quantity, tier 1").fill("10");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(tiers.getByRole("alert")).toHaveText("A tier's price is below the tool's price");
  await form.getByLabel("Unit price ($), tier 1").fill("36");
  await tiers.getByRole("button", { name: "Add tier" }).click();
  await form.getByLabel("From quantity, tier 2").fill("50");
  await form.getByLabel("Unit price ($), tier 2").fill("32");
  await expectNoSeriousViolations(page);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tool added.")).toBeVisible();

  // Edited: the second tier's price, and the first removed.
  await page.getByLabel("Search tools").fill(name);
  const row = page.getByTestId("admin-tool-row").filter({ hasText: name });
  await row.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("form", { name: `Edit ${name}` });
  await edit.getByLabel("Unit price ($), tier 2").fill("30");
  await edit.getByRole("button", { name: "Remove tier 1" }).click();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tool saved.")).toBeVisible();
  await row.getByRole("link", { name }).click();
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const saved = (await (await page.request.get(`/api/admin/tools/${id}`)).json()) as { tool: { priceTiers: unknown } };
  expect(saved.tool.priceTiers).toEqual([{ minQuantity: 50, price: 30 }]);
});

test("a tool page shows its ladder; the cart, the checkout and the order price the line at its tier", async ({ page }) => {
  test.slow(); // the tool page, the cart, the checkout and the order
  const found = (await (await page.request.get(`/api/tool?q=${encodeURIComponent(DRILL)}`)).json()) as { _id: string; name: string }[];
  const drill = found.find((t) => t.name === DRILL);
  if (!drill) throw new Error("the demo seed's drill is missing");

  // The tool's public page: the ladder as a small table.
  await page.goto(`/tools/${drill._id}`);
  await expect(page.getByRole("heading", { name: "Volume prices" })).toBeVisible();
  await expect(page.getByTestId("price-tiers")).toHaveText("1–9 $139.00 · 10–24 $129.00 · 25+ $119.00");

  // A customer's cart: below the first tier, then at it.
  await signedInPage(page);
  const put = await page.request.put(`/api/cart/lines/${drill._id}`, { headers: { origin: APP_URL }, data: { quantity: 4 } });
  expect(put.status(), await put.text()).toBe(200);
  await page.goto("/cart");
  const line = page.getByTestId("cart-line").filter({ hasText: DRILL });
  await expect(line.getByTestId("line-tier")).toHaveText("6 more for $129.00 each");
  await expect(line.getByTestId("line-total")).toHaveText("$556.00");
  await line.getByLabel(`Quantity of ${DRILL}`).fill("12");
  await line.getByLabel(`Quantity of ${DRILL}`).blur();
  await expect(line.getByTestId("line-tier")).toHaveText("Volume price from 10 · 13 more for $119.00 each");
  await expect(line).toContainText("$129.00");
  await expect(line.getByTestId("line-total")).toHaveText("$1,548.00");
  await expectNoSeriousViolations(page);

  // The checkout shows the line's tier; the order keeps the tier's unit price, the line exactly 12 × $129.00.
  await page.getByRole("link", { name: "Checkout" }).click();
  await expect(page.getByTestId("checkout-lines")).toContainText("Volume price from 10");
  await page.getByLabel("Address").fill("1 Dock St");
  await page.getByLabel("Phone").fill("+1 555 0100");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByTestId("order-subtotal")).toHaveText("$1,548.00");
  const orders = (await (await page.request.get("/api/order")).json()) as { lines: { toolId: string; unitPrice: number; quantity: number; lineTotal: number }[] }[];
  expect(orders[0]?.lines).toEqual([expect.objectContaining({ toolId: drill._id, unitPrice: 129, quantity: 12, lineTotal: 1548 })]);
});
