/**
 * A parcel in the real store (issue 52, DESIGN "Orders" → Shipments): the owner finds a cash order
 * among those waiting to ship, ships part of it from the order's page with a UPS tracking number
 * (the form prefilled with what is left), gets its packing slip; the customer sees the parcel with
 * its tracking link and what is still to come. Its tool is the money spec's own (E2E_MONEY_TOOL_ID).
 */
import { expect, test } from "@playwright/test";
import { APP_URL, MONEY_TOOL } from "../support/env";
import { SHIPMENT_TEXT } from "../../src/contract/texts/shipments";
import { expectNoSeriousViolations, newAccount, signedInPage, signInAsAdmin } from "../support/e2e-helpers";
import { pdfText } from "../support/pdf-text";
import { fetchMail, linkIn } from "../support/smtp";

const origin = { origin: APP_URL };
const UPS = "1Z999AA10123456784";

test("the owner ships part of an order with a tracking number; the customer sees the parcel, its link and what is to come", async ({ page, browser }) => {
  test.slow();
  const id = process.env.E2E_MONEY_TOOL_ID;
  if (!id) throw new Error("E2E_MONEY_TOOL_ID is not set: the global setup makes that tool");
  const customer = await browser.newPage();
  const account = await signedInPage(customer, newAccount("parcel"));
  expect((await customer.request.put(`${APP_URL}/api/cart/lines/${id}`, { headers: origin, data: { quantity: 3 } })).status()).toBe(200);
  const placed = await customer.request.post(`${APP_URL}/api/checkout`, {
    headers: { ...origin, "idempotency-key": `shipment-e2e-${Date.now()}` },
    data: { address: "7 Parcel Path", phone: "+1 555 0152", paymentMethod: "cash_on_delivery" },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = (await placed.json()) as { order: { _id: string; number: number } };

  // Cash on delivery waits to ship while pending.
  await signInAsAdmin(page.request);
  await page.goto("/admin/orders?status=to_ship");
  const row = page.getByTestId("admin-order-row").filter({ hasText: `#${order.number}` });
  await expect(row).toContainText(`3 × ${MONEY_TOOL.name}`);
  await row.getByRole("link", { name: `#${order.number}` }).click();

  const form = page.getByRole("form", { name: "Ship" });
  const units = form.getByLabel(`${MONEY_TOOL.name}: 3 left to ship`);
  await expect(units).toHaveValue("3");
  await units.fill("2");
  await form.getByLabel("Carrier", { exact: true }).selectOption("UPS");
  await form.getByLabel("Tracking number").fill("1Z 999 AA1 0123 456 784");
  await form.getByRole("button", { name: "Ship these units" }).click();
  const parcel = page.getByTestId("order-shipment");
  await expect(parcel).toHaveCount(1);
  await expect(parcel.getByTestId("shipment-tracking")).toHaveAttribute("href", `https://www.ups.com/track?tracknum=${UPS}`);
  await expect(page.getByTestId("order-fulfillment")).toHaveAttribute("data-status", "partly_shipped");
  await expect(page.getByTestId("order-to-come")).toContainText(`1 × ${MONEY_TOOL.name}`);
  // The form now offers what is left.
  await expect(page.getByRole("form", { name: "Ship" }).getByLabel(`${MONEY_TOOL.name}: 1 left to ship`)).toHaveValue("1");
  const slip = await page.request.get(`${APP_URL}${(await parcel.getByTestId("packing-slip").getAttribute("href")) ?? ""}`);
  expect(slip.status()).toBe(200);
  expect(slip.headers()["content-type"]).toContain("application/pdf");
  // The slip lists exactly this parcel's units, and the unit still to come apart from them.
  const slipText = pdfText(await slip.body());
  const inParcel = slipText.slice(slipText.indexOf("In this parcel"), slipText.indexOf("Still to come"));
  expect(inParcel).toContain(MONEY_TOOL.name);
  expect(inParcel).toMatch(/\b2\b/);
  expect(slipText.slice(slipText.indexOf("Still to come"))).toMatch(/\b1\b/);
  await expectNoSeriousViolations(page);

  // The customer's mail: the parcel's tracking link, and the link to the order's page, followed.
  const inbox = process.env.E2E_INBOX_URL;
  if (!inbox) throw new Error("E2E_INBOX_URL is not set: the global setup starts the SMTP stand-in");
  const mail = await fetchMail(inbox, account.email, SHIPMENT_TEXT.mail.partSubject(order.number));
  expect(linkIn(mail, "https://www.ups.com/track")).toBe(`https://www.ups.com/track?tracknum=${UPS}`);
  const orderLink = linkIn(mail, `${APP_URL}/dashboard/orders/`);
  expect(orderLink).toBe(`${APP_URL}/dashboard/orders/${order._id}`);

  // The customer's order page: the parcel, its link, and what is still to come.
  await customer.goto(orderLink);
  const theirs = customer.getByTestId("order-shipment");
  await expect(theirs).toHaveCount(1);
  await expect(theirs).toContainText(`2 × ${MONEY_TOOL.name}`);
  await expect(theirs).toContainText("UPS");
  await expect(theirs.getByRole("link", { name: UPS })).toHaveAttribute("href", `https://www.ups.com/track?tracknum=${UPS}`);
  await expect(customer.getByTestId("order-to-come")).toContainText(`1 × ${MONEY_TOOL.name}`);
  await customer.close();
});
