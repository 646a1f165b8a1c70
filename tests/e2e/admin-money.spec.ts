/**
 * The console's money pages, clicked through in the real store (issue 31): the admin adds a tax
 * rate, a promotion and a delivery method, imports a rate file with a bad row and is told which
 * row, and edits the store settings; axe runs on each page. Everything made here is for
 * Tasmania (AU-TAS), inactive or deleted before the test ends, so no other spec's checkout,
 * all of them elsewhere, ever meets it; the settings are put back as they were.
 */
import { expect, test, type Page } from "@playwright/test";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, signInAsAdmin } from "../support/e2e-helpers";

const runId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
/** Four digits no earlier attempt on the same database used: Tasmania's postal codes are 7xxx. */
const tasmanianPrefix = () => `7${String(Date.now()).slice(-3)}`;

async function openSection(page: Page, name: string): Promise<void> {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
}

test("the admin adds a tax rate, a promotion and a delivery method through the console", async ({ page }) => {
  test.slow(); // three pages, each analysed by axe
  await signInAsAdmin(page.request);
  const id = runId();

  // A tax rate: the form's rules are the route's, so a missing name is refused before anything is sent.
  await openSection(page, "Tax rates");
  await expectNoSeriousViolations(page);
  await page.getByRole("button", { name: "Add a tax rate" }).click();
  const rateForm = page.getByRole("form", { name: "Add a tax rate" });
  await rateForm.getByLabel("Country").selectOption("AU");
  await rateForm.getByLabel("State / region").selectOption("TAS");
  await rateForm.getByLabel(/Postal code prefix/).fill(tasmanianPrefix());
  await rateForm.getByLabel(/Rate in basis points/).fill("1000");
  await expect(rateForm.getByText("That is 10 %.")).toBeVisible();
  await rateForm.getByRole("button", { name: "Save" }).click();
  await expect(rateForm.getByRole("alert")).toHaveText("Name is required");
  const rateName = `E2E Tasmania ${id}`;
  await rateForm.getByLabel(/^Name/).fill(rateName);
  await expectNoSeriousViolations(page);
  await rateForm.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tax rate added.")).toBeVisible();
  const rateRow = page.getByTestId("tax-rate-row").filter({ hasText: rateName });
  await expect(rateRow).toContainText("TAS");
  await expect(rateRow).toContainText("10 %");

  // A promotion, listed with its discount, limit and redemptions.
  await openSection(page, "Promotions");
  await page.getByRole("button", { name: "Add a promotion" }).click();
  const promoForm = page.getByRole("form", { name: "Add a promotion" });
  const code = `E2E${id}`;
  await promoForm.getByLabel("Code").fill(code.toLowerCase());
  await promoForm.getByLabel("Kind").selectOption("amount");
  await promoForm.getByLabel(/^Value/).fill("7.5");
  await promoForm.getByLabel(/Uses in all/).fill("3");
  await promoForm.getByLabel("Lawn Mowers").check();
  await expectNoSeriousViolations(page);
  await promoForm.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Promotion added.")).toBeVisible();
  const promoRow = page.getByTestId("promotion-row").filter({ hasText: code });
  for (const text of ["$7.50 off", "3 in all", "Lawn Mowers", "0 of 3"]) await expect(promoRow).toContainText(text);

  // A delivery method, kept inactive so no checkout offers it; pickup is said to be built in.
  await openSection(page, "Shipping");
  await expect(page.getByText(/Pickup at the store is built in/)).toBeVisible();
  await page.getByRole("button", { name: "Add a delivery method" }).click();
  const methodForm = page.getByRole("form", { name: "Add a delivery method" });
  const method = `E2E Island courier ${id}`;
  await methodForm.getByLabel("Name", { exact: true }).fill(method);
  await methodForm.getByLabel(/Free delivery from/).fill("300");
  await methodForm.getByLabel(/Active/).uncheck();
  await methodForm.getByLabel("Zone name").fill("Tasmania");
  const place = methodForm.getByRole("group", { name: "Zone 1, Destination 1" });
  await place.getByLabel("Country").selectOption("AU");
  await place.getByLabel("State / region").selectOption("TAS");
  const band = methodForm.getByRole("group", { name: "Zone 1, Band 1" });
  await band.getByLabel("Up to (grams)").fill("20000");
  await band.getByLabel("Price (dollars)").fill("19.5");
  await expectNoSeriousViolations(page);
  await methodForm.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Delivery method added.")).toBeVisible();
  const methodRow = page.getByTestId("shipping-row").filter({ hasText: method });
  for (const text of ["Tasmania: TAS, AU (1 band)", "$300.00", "No"]) await expect(methodRow).toContainText(text);

  // Put away: the method and the rate are deleted through the console.
  await methodRow.getByRole("button", { name: `Delete ${method}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Delivery method deleted.")).toBeVisible();
  await expect(methodRow).toHaveCount(0);
  await openSection(page, "Tax rates");
  await rateRow.getByRole("button", { name: `Delete ${rateName}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Tax rate deleted.")).toBeVisible();
  await expect(rateRow).toHaveCount(0);
});

test("a rate file with a bad row is refused whole, and the console names the row", async ({ page }) => {
  await signInAsAdmin(page.request);
  const id = runId();
  await openSection(page, "Tax rates");
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", "/api/admin/tax-rates.csv");
  const goodName = `E2E CSV good row ${id}`;
  const csv = ["country,region,postalPrefix,name,rateBasisPoints,taxShipping", `AU,TAS,${tasmanianPrefix()},${goodName},500,false`, `AU,TAS,,E2E CSV bad row ${id},12000,false`, ""].join("\n");
  await page.getByLabel("Import a CSV file").setInputFiles({ name: "rates.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const problem = page.getByTestId("csv-problem");
  await expect(problem).toContainText("Row 3");
  await expect(problem).toContainText("rateBasisPoints");
  await expect(problem).toContainText("Nothing was imported");
  await expectNoSeriousViolations(page);
  // All or nothing: the good row before the bad one is not in the table either.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Tax rates", level: 2 })).toBeVisible();
  await expect(page.getByText(goodName)).toHaveCount(0);
  const rates = (await (await page.request.get("/api/admin/tax-rates")).json()) as { name: string }[];
  expect(rates.map((r) => r.name)).not.toContain(goodName);
});

test("the admin edits the store settings: a postal code that does not fit is refused at its field, then the tax id is saved", async ({ page }) => {
  await signInAsAdmin(page.request);
  const before = (await (await page.request.get("/api/admin/settings")).json()) as Record<string, string>;
  await openSection(page, "Store settings");
  const form = page.getByRole("form", { name: "Store settings" });
  await expect(form.getByLabel("Legal name")).toHaveValue(before.legalName ?? "");
  await expectNoSeriousViolations(page);

  await form.getByLabel("Postal code").fill("ABC");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByLabel("Postal code")).toHaveAccessibleDescription("This postal code does not fit the country");
  await expectNoSeriousViolations(page);
  await form.getByLabel("Postal code").fill(before.postalCode ?? "");

  const taxId = `E2E-${runId()}`;
  await form.getByLabel(/Tax ID/).fill(taxId);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Store settings saved.")).toBeVisible();
  try {
    await page.reload();
    await expect(page.getByRole("form", { name: "Store settings" }).getByLabel(/Tax ID/)).toHaveValue(taxId);
    expect(await (await page.request.get("/api/admin/settings")).json()).toEqual({ ...before, taxId });
  } finally {
    // Invoices in other specs read these settings: they go back as they were.
    const restored = await page.request.put("/api/admin/settings", { headers: { origin: APP_URL }, data: before });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
