/**
 * Money at the checkout (issue 31): pickup with only the street line, delivery with a shipping
 * method and a tax rate the admin API makes, a promotion code, and the order page's invoice and
 * credit note. Its tool is its own (E2E_MONEY_TOOL_ID, made by the global setup). What the admin
 * makes is this worker's own: a delivery method and a tax rate for New Zealand postal codes
 * starting with a prefix drawn per worker, and a code with the worker's suffix, so no other spec's
 * totals move (the store's own address, where pickup is taxed, gets no rate here).
 */
import { expect, test, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from "@playwright/test";
import { expectNoSeriousViolations, newAccount, signedInPage, signInAsAdmin } from "../support/e2e-helpers";
import { APP_URL, MONEY_TOOL } from "../support/env";

const usd = (dollars: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(dollars);
const origin = { origin: APP_URL };

const moneyToolId = () => {
  const id = process.env.E2E_MONEY_TOOL_ID;
  if (!id) throw new Error("E2E_MONEY_TOOL_ID is not set: the global setup makes that tool");
  return id;
};

/** This worker's own names and numbers. */
const run = Math.random().toString(36).slice(2, 8).toUpperCase();
const courier = { name: `Courier ${run}`, price: 9.5 };
const prefix = String(100 + Math.floor(Math.random() * 900));
const tax = { name: `GST ${run}`, rateBasisPoints: 1500 };
const promo = `SAVE${run}`;
/** A New Zealand address the courier serves and the rate covers. */
const nz = { address: "5 Kauri Road", city: "Wellington", postalCode: `${prefix}7` };

async function post(request: APIRequestContext, path: string, data: object): Promise<void> {
  const response = await request.post(path, { headers: origin, data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(201);
}

async function signedInAdmin(playwright: PlaywrightWorkerArgs["playwright"]): Promise<APIRequestContext> {
  const admin = await playwright.request.newContext({ baseURL: APP_URL });
  await signInAsAdmin(admin);
  return admin;
}

/** axe once the page's CSS transitions are over (a menu link still fading its colours was once measured halfway). */
async function expectAccessible(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"));
  await expectNoSeriousViolations(page);
}

test.beforeAll(async ({ playwright }) => {
  const admin = await signedInAdmin(playwright);
  await post(admin, "/api/admin/shipping", {
    name: courier.name,
    freeOver: null,
    active: true,
    zones: [{ name: "New Zealand", destinations: [{ country: "NZ", region: "" }], bands: [{ maxGrams: 1_000_000, price: courier.price }] }],
  });
  await post(admin, "/api/admin/tax-rates", { country: "NZ", region: "", postalPrefix: prefix, name: tax.name, rateBasisPoints: tax.rateBasisPoints, taxShipping: true });
  await post(admin, "/api/admin/promotions", { code: promo, kind: "percent", value: 10 });
  await admin.dispose();
});

/** A new customer with `quantity` of the money tool in the cart, on the checkout page. */
async function atCheckout(page: Page, quantity: number): Promise<void> {
  await signedInPage(page, newAccount("money"));
  const response = await page.request.put(`/api/cart/lines/${moneyToolId()}`, { headers: origin, data: { quantity } });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
}

const totals = (page: Page) => page.getByTestId("checkout-totals");
const amount = (page: Page, row: "subtotal" | "discount" | "shipping" | "tax") => totals(page).getByTestId(`money-${row}-amount`);
const option = (page: Page, name: string) => page.getByTestId("shipping-option").filter({ hasText: name });

async function fillNewZealand(page: Page): Promise<void> {
  await page.getByLabel("Address").fill(nz.address);
  await page.getByLabel("City").fill(nz.city);
  await page.getByLabel("Country").selectOption({ label: "New Zealand" });
  await page.getByLabel("Postal code").fill(nz.postalCode);
  await page.getByLabel("Phone").fill("+64 4 555 0100");
}

interface PlacedOrder {
  _id: string;
  number: number;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  country: string;
  shippingMethod: string;
  promoCode: string | null;
  invoiceNumber: string | null;
}

async function placedOrder(page: Page): Promise<PlacedOrder> {
  await expect(page).toHaveURL(/\/checkout\/confirmation\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const response = await page.request.get(`/api/order/${encodeURIComponent(id)}`);
  expect(response.status()).toBe(200);
  const order = (await response.json()) as PlacedOrder;
  // DESIGN "Money": the total adds up to the cent.
  expect(Math.round(order.total * 100)).toBe(Math.round((order.subtotal - order.discount + order.shipping + order.tax) * 100));
  return order;
}

test("pickup needs no address beyond the street line: the store's address and hours, free shipping, and the totals on the confirmation", async ({ page }) => {
  await atCheckout(page, 2);
  const subtotal = 2 * MONEY_TOOL.price;

  const pickup = option(page, "Pickup at the store");
  await expect(pickup.getByRole("radio")).toBeChecked();
  await expect(pickup).toContainText("Free");
  await expect(pickup.getByTestId("pickup-place")).toContainText("12 Forge Lane, Brooklyn, NY 11201");
  await expect(pickup.getByTestId("pickup-place")).toContainText("Mon–Sat 8:00–18:00");
  await expect(amount(page, "subtotal")).toHaveText(usd(subtotal));
  await expect(amount(page, "shipping")).toHaveText(usd(0));

  await page.getByLabel("Address").fill("3 Hinge Street");
  await page.getByLabel("Phone").fill("+1 555 0111");
  await page.getByRole("button", { name: "Place order" }).click();

  const order = await placedOrder(page);
  expect(order).toMatchObject({ subtotal, discount: 0, shipping: 0, country: "", shippingMethod: "pickup", promoCode: null });
  await expect(page.getByTestId("order-subtotal")).toHaveText(usd(subtotal));
  await expect(page.getByTestId("order-shipping")).toHaveText(usd(0));
  await expect(page.getByTestId("order-shipping-row")).toContainText("Shipping (Pickup at the store)");
  await expect(page.getByTestId("order-tax")).toHaveText(usd(order.tax));
  await expect(page.getByTestId("order-total")).toHaveText(usd(order.total));
  // An address with only its street line shows that line alone.
  await expect(page.getByTestId("order-address")).toHaveText("3 Hinge Street");
  await expect(page.getByTestId("order-shipping-method")).toContainText("Pickup at the store");
});

test("delivery: an address nobody serves says so; the courier's price and the rate's tax make the total the order keeps", async ({ page }) => {
  test.slow(); // the estimate is asked for each address, and axe reads the page
  await atCheckout(page, 2);
  const subtotal = 2 * MONEY_TOOL.price;
  // 15 % of the lines and the shipping, rounded half away from zero: 8,950 × 0.15 = 1,342.5 → 1,343 cents.
  const taxDue = 13.43;
  const total = subtotal + courier.price + taxDue;

  // Mexico: no method delivers there, and pickup stays offered.
  await page.getByLabel("Country").selectOption({ label: "Mexico" });
  await page.getByLabel("Postal code").fill("01000");
  await expect(page.getByTestId("no-shipping")).toHaveText("No delivery method serves this address: choose pickup at the store, or another address");
  await expect(option(page, "Pickup at the store")).toBeVisible();
  await expect(option(page, courier.name)).toHaveCount(0);

  // New Zealand: the courier is offered with its price; choosing it prices shipping and tax.
  await fillNewZealand(page);
  await expect(page.getByTestId("no-shipping")).toHaveCount(0);
  await expect(option(page, courier.name)).toContainText(usd(courier.price));
  await option(page, courier.name).getByRole("radio").check();
  await expect(amount(page, "shipping")).toHaveText(usd(courier.price));
  await expect(amount(page, "tax")).toHaveText(usd(taxDue));
  await expect(page.getByTestId("checkout-total")).toHaveText(usd(total));
  await expect(totals(page)).toContainText(`Shipping (${courier.name})`);
  await expect(page.getByRole("button", { name: "Place order" })).toBeEnabled();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Place order" }).click();
  const order = await placedOrder(page);
  expect(order).toMatchObject({ subtotal, discount: 0, shipping: courier.price, tax: taxDue, total, country: "NZ" });
  await expect(page.getByTestId("order-shipping")).toHaveText(usd(courier.price));
  await expect(page.getByTestId("order-tax")).toHaveText(usd(taxDue));
  await expect(page.getByTestId("order-tax-row")).toContainText(`Tax (${tax.name}, 15%)`);
  await expect(page.getByTestId("order-total")).toHaveText(usd(total));
  const address = page.getByTestId("order-address");
  for (const part of [nz.address, `${nz.city}, ${nz.postalCode}`, "New Zealand"]) await expect(address).toContainText(part);
  await expect(page.getByTestId("order-shipping-method")).toHaveText(courier.name);
  await expectAccessible(page);
});

test("a promotion code: an unknown one is refused at the field; a good one takes 10 % off before the tax, on the order and in My Orders", async ({ page }) => {
  test.slow();
  await atCheckout(page, 2);
  const subtotal = 2 * MONEY_TOOL.price;
  const discount = 8;
  // 15 % of (80 − 8 + 9.50) = 12.225 → 12.23.
  const taxDue = 12.23;
  const total = subtotal - discount + courier.price + taxDue;

  await fillNewZealand(page);
  await option(page, courier.name).getByRole("radio").check();
  await expect(amount(page, "shipping")).toHaveText(usd(courier.price));

  const code = page.getByLabel("Promotion code");
  await code.fill(`NOPE${run}`);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByTestId("promo-problem")).toHaveText("This promotion code does not exist");
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expect(amount(page, "discount")).toHaveText(usd(0));

  // Typed in lower case, applied with Enter: it is the same code.
  await code.fill(promo.toLowerCase());
  await code.press("Enter");
  await expect(page.getByTestId("promo-applied")).toContainText(`Code ${promo} applied`);
  await expect(amount(page, "discount")).toHaveText(`-${usd(discount)}`);
  await expect(totals(page)).toContainText(`Discount (${promo})`);
  await expect(amount(page, "tax")).toHaveText(usd(taxDue));
  await expect(page.getByTestId("checkout-total")).toHaveText(usd(total));
  // Enter applied the code and placed nothing.
  await expect(page).toHaveURL(/\/checkout$/);

  await page.getByRole("button", { name: "Place order" }).click();
  const order = await placedOrder(page);
  expect(order).toMatchObject({ subtotal, discount, tax: taxDue, total, promoCode: promo });
  await expect(page.getByTestId("order-discount")).toHaveText(`-${usd(discount)}`);
  await expect(page.getByTestId("order-discount-row")).toContainText(`Discount (${promo})`);
  await expect(page.getByTestId("order-total")).toHaveText(usd(total));

  await page.getByRole("link", { name: "See my orders" }).click();
  const row = page.getByTestId("order-row").filter({ hasText: `#${order.number}` });
  await expect(row).toContainText(`Discount (${promo})`);
  await expect(row.getByTestId("order-row-total")).toHaveText(usd(total));
});

test("a tax-exempt trade customer pays no tax: the checkout and the order say why", async ({ page, playwright }) => {
  test.slow();
  await atCheckout(page, 1);
  const certificate = `EX-${run}`;
  const session = (await (await page.request.get("/api/auth/get-session")).json()) as { user: { id: string } };
  const admin = await signedInAdmin(playwright);
  const marked = await admin.patch(`/api/admin/users/${encodeURIComponent(session.user.id)}/tax-exempt`, { headers: origin, data: { taxExemptCertificate: certificate } });
  expect(marked.status(), await marked.text()).toBe(200);
  await admin.dispose();
  await page.reload();

  await fillNewZealand(page);
  await option(page, courier.name).getByRole("radio").check();
  await expect(amount(page, "shipping")).toHaveText(usd(courier.price));
  await expect(amount(page, "tax")).toHaveText(usd(0));
  await expect(totals(page)).toContainText(`Tax exempt: certificate ${certificate}`);
  await expect(page.getByTestId("checkout-total")).toHaveText(usd(MONEY_TOOL.price + courier.price));

  await page.getByRole("button", { name: "Place order" }).click();
  const order = await placedOrder(page);
  expect(order).toMatchObject({ tax: 0, total: MONEY_TOOL.price + courier.price });
  await expect(page.getByTestId("order-tax")).toHaveText(usd(0));
  await expect(page.getByTestId("order-tax-row")).toContainText(`Tax exempt: certificate ${certificate}`);
});

test("the order page links its invoice, and once cancelled its credit note, each a PDF", async ({ page }) => {
  await signedInPage(page, newAccount("invoice"));
  const put = await page.request.put(`/api/cart/lines/${moneyToolId()}`, { headers: origin, data: { quantity: 1 } });
  expect(put.status(), await put.text()).toBe(200);
  const checkout = await page.request.post("/api/checkout", {
    headers: { ...origin, "idempotency-key": `invoice-${run}-${Math.random().toString(36).slice(2)}` },
    data: { address: "9 Rivet Lane", phone: "555 0123", paymentMethod: "cash_on_delivery" },
  });
  expect(checkout.status(), await checkout.text()).toBe(201);
  const { order } = (await checkout.json()) as { order: PlacedOrder };
  expect(order.invoiceNumber).toMatch(/^INV-\d{4}-\d{6}$/);

  await page.goto(`/dashboard/orders/${order._id}`);
  const invoice = page.getByRole("link", { name: "Download invoice" });
  await expect(invoice).toHaveAttribute("href", `/api/order/${order._id}/invoice`);
  await expect(page.getByTestId("invoice-number")).toHaveText(`Invoice ${order.invoiceNumber}`);
  await expect(page.getByRole("link", { name: "Download credit note" })).toHaveCount(0);
  const pdf = await page.request.get((await invoice.getAttribute("href")) ?? "");
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // Cancelled: the credit note joins the invoice.
  await page.getByRole("button", { name: "Cancel order" }).click();
  await page.getByRole("dialog", { name: "Are You Sure ?" }).getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("order-status")).toHaveText("Cancelled");
  const creditNote = page.getByRole("link", { name: "Download credit note" });
  await expect(creditNote).toHaveAttribute("href", `/api/order/${order._id}/invoice?document=credit-note`);
  await expect(page.getByTestId("credit-note-number")).toHaveText(/^Credit note CN-\d{4}-\d{6}$/);
  const note = await page.request.get((await creditNote.getAttribute("href")) ?? "");
  expect(note.status()).toBe(200);
  expect(note.headers()["content-type"]).toContain("application/pdf");
  await expectAccessible(page);
});
