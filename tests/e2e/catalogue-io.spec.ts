/**
 * The console's catalogue spreadsheet (issue 51) in the real store: the export's download, a dry
 * run of a one-row file that says what it would create (its progress shown while the job runs:
 * the first status answer is held as "running"), and a file with a bad price whose problem is
 * listed by line and column, nothing written, and its row downloaded to put right. axe on the page.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations, signInAsAdmin } from "../support/e2e-helpers";

const openPage = async (page: Page) => {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Import & export" }).click();
  await expect(page.getByRole("heading", { name: "Catalogue spreadsheet" })).toBeVisible();
};
const csvFile = (rows: string[]) => ({ name: "supplier.csv", mimeType: "text/csv", buffer: Buffer.from(["sku,name,category,price,stock,images", ...rows, ""].join("\r\n")) });

test("downloads the catalogue and dry-runs a file, showing its progress and what it would do", async ({ page }) => {
  test.slow();
  await signInAsAdmin(page.request);
  await openPage(page);
  const link = page.getByRole("link", { name: "Download catalogue.csv" });
  await expect(link).toHaveAttribute("href", "/api/admin/catalogue.csv");
  const csv = await page.request.get("/api/admin/catalogue.csv");
  expect(csv.status()).toBe(200);
  expect((await csv.text()).startsWith("sku,name,product,option1_name,")).toBe(true);

  // The first status answer says the job is halfway; the next ones are the store's.
  let held = true;
  await page.route("**/api/admin/catalogue/imports/*", async (route) => {
    if (!held || route.request().method() !== "GET") return route.continue();
    held = false;
    const id = new URL(route.request().url()).pathname.split("/").at(-1) ?? "";
    await route.fulfill({ json: { _id: id, status: "running", dryRun: true, rows: 10, processed: 5, created: 0, updated: 0, unchanged: 0, errors: [] } });
  });
  const sku = `E2E-${randomUUID().slice(0, 8)}`;
  await page.getByLabel("CSV file (up to 50 MB)").setInputFiles(csvFile([`${sku},Dry run drill,power-tools,19.99,3,/images/tools/cordless-drill.svg`]));
  await expect(page.getByRole("checkbox", { name: /^Dry run/ })).toBeChecked();
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByText("Checking rows: 5 of 10")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Import progress" })).toBeVisible();
  await expect(page.getByTestId("import-outcome")).toHaveText("Dry run: it would create 1, update 0 and leave 0 unchanged. Nothing was written.", { timeout: 20_000 });
  await expectNoSeriousViolations(page);
  const search = await page.request.get(`/api/admin/tools?q=${sku}`);
  expect(await search.json()).toEqual([]);
});

test("an import with a bad price lists the problem by line and column and writes nothing", async ({ page }) => {
  test.slow();
  await signInAsAdmin(page.request);
  await openPage(page);
  const sku = `E2E-${randomUUID().slice(0, 8)}`;
  await page.getByLabel("CSV file (up to 50 MB)").setInputFiles(
    csvFile([`${sku}-1,Good saw,chainsaws,99.00,2,/images/tools/pole-saw.svg`, `${sku}-2,"Saw, ""bad"" price",chainsaws,twelve,2,/images/tools/pole-saw.svg`]),
  );
  await page.getByRole("checkbox", { name: /^Dry run/ }).uncheck();
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was written: the file has 1 problem." })).toBeVisible({ timeout: 20_000 });
  const table = page.getByRole("table", { name: "Problems in the file" });
  await expect(table.getByRole("columnheader")).toHaveText(["Line", "Column", "Problem"]);
  await expect(page.getByTestId("import-error")).toHaveCount(1);
  await expect(page.getByTestId("import-error").getByRole("cell")).toHaveText(["3", "price", "A price is a number with at most two decimals, like 24.99."]);
  // The rows with problems, to put right and import again: the header and the bad row, as the file had them.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the rows with problems" }).click()]);
  expect(download.suggestedFilename()).toBe("bad-rows-supplier.csv");
  expect(await readFile(await download.path(), "utf8")).toBe(`sku,name,category,price,stock,images\n${sku}-2,"Saw, ""bad"" price",chainsaws,twelve,2,/images/tools/pole-saw.svg\n`);
  await expectNoSeriousViolations(page);
  const search = await page.request.get(`/api/admin/tools?q=${sku}-1`);
  expect(await search.json()).toEqual([]);
});
