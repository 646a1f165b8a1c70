/**
 * The console's catalogue pages (issue 50), clicked through in the real store: brands, the category
 * tree (ordered by buttons and the keyboard, moved under another parent, the server's refusals told),
 * specification definitions, the tool form's catalogue fields (SKU, GTIN, brand, category, the
 * specifications as their kinds' inputs, several photos uploaded, reordered and removed, a product's
 * option values) and a product's page making its missing combinations in one step. Axe on each page.
 * Everything it makes has names of its own, its tools stay archived (the catalogue's counts never
 * move), and its brands and categories are deleted again.
 */
import sharp from "sharp";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectNoSeriousViolations, signInAsAdmin } from "../support/e2e-helpers";
import { APP_URL } from "../support/env";

const run = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
const headers = { origin: APP_URL };

async function api(request: APIRequestContext, method: "post" | "patch" | "delete" | "get", url: string, data?: unknown) {
  const response = await request[method](url, { headers, ...(data === undefined ? {} : { data }) });
  expect(response.status(), `${method} ${url}: ${await response.text()}`).toBeLessThan(300);
  return response.status() === 204 ? null : ((await response.json()) as Record<string, unknown>);
}

/** An archived tool of the test's own (the public catalogue never sees it). */
async function archivedTool(request: APIRequestContext, name: string, over: Record<string, unknown> = {}) {
  const tool = await api(request, "post", "/api/admin/tools", {
    name,
    image: "/images/tools/claw-hammer.svg",
    price: 40,
    availableQuantity: 6,
    minimumQuantity: 1,
    description: "Made by the console's catalogue test.",
    category: "hand-tools",
    active: false,
    ...over,
  });
  return tool as { _id: string; sku: string };
}

async function openSection(page: Page, name: string) {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
}

test("brands: a failed list offers a retry; add, rename, a brand in use is refused in the server's words, then deleted", async ({ page }) => {
  await signInAsAdmin(page.request);
  const id = run();
  // The list cannot be read (its retries included): the page says so and offers a retry, which shows the list.
  const broken = "**/api/admin/brands";
  await page.route(broken, (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "INTERNAL", message: "The brands could not be read." }) }),
  );
  await openSection(page, "Brands");
  await expect(page.getByRole("alert").filter({ hasText: "The brands could not be read." })).toBeVisible();
  await page.unroute(broken);
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("table", { name: "Brands" })).toBeVisible();

  await page.getByRole("button", { name: "Add a brand" }).click();
  const form = page.getByRole("form", { name: "Add a brand" });
  await form.getByLabel("Name").fill(`Hartwig ${id}`);
  await form.getByLabel("Slug").fill("Not A Slug");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("Use lowercase letters, digits and single hyphens.")).toBeVisible();
  await form.getByLabel("Slug").fill(`hartwig-${id}`);
  await form.getByRole("button", { name: "Save" }).click();
  const row = page.getByTestId("brand-row").filter({ hasText: `hartwig-${id}` });
  await expect(row).toContainText(`Hartwig ${id}`);
  await expectNoSeriousViolations(page);

  await row.getByRole("button", { name: `Rename Hartwig ${id}` }).click();
  const rename = page.getByRole("form", { name: `Rename Hartwig ${id}` });
  await rename.getByLabel("Name").fill(`Hartwig & Söhne ${id}`);
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText(`Hartwig & Söhne ${id}`);

  // A tool names it: the delete is refused, and the page says why in the server's words.
  const tool = await archivedTool(page.request, `Brand test tool ${id}`, { brand: `hartwig-${id}` });
  await row.getByRole("button", { name: `Delete Hartwig & Söhne ${id}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "Tools still name this brand: give them another one first." });
  await expect(refusal).toBeVisible();
  await expect(refusal).toHaveAttribute("data-error-code", "BRAND_IN_USE");
  await expect(row).toHaveCount(1);

  await api(page.request, "patch", `/api/admin/tools/${tool._id}`, { brand: null });
  await row.getByRole("button", { name: `Delete Hartwig & Söhne ${id}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Brand deleted.")).toBeVisible();
  await expect(row).toHaveCount(0);
  await api(page.request, "delete", `/api/admin/tools/${tool._id}`);
});

test("categories: add under a parent, reorder by keyboard, move under another, and the cycle and in-use refusals told", async ({ page }) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page.request);
  const id = run();
  const parent = `e2e-parent-${id}`;
  await api(page.request, "post", "/api/admin/categories", { slug: parent, name: `Parent ${id}`, parentSlug: "hand-tools" });
  await openSection(page, "Categories");
  const tree = page.getByRole("list", { name: "Category tree" });
  await expect(tree).toBeVisible();
  await expectNoSeriousViolations(page);

  const item = (slug: string) => page.locator(`[data-testid="category-item"][data-slug="${slug}"]`);
  const childrenOf = (slug: string) => item(slug).locator(":scope > ul > li").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-slug")));

  // Two children of the parent, made in the page.
  for (const [slug, name] of [
    [`e2e-a-${id}`, `Alpha ${id}`],
    [`e2e-b-${id}`, `Beta ${id}`],
  ] as const) {
    await page.getByRole("button", { name: `Add a category under Parent ${id}` }).click();
    const form = page.getByRole("form", { name: `Add a category under Parent ${id}` });
    await expect(form.getByLabel("Parent")).toHaveValue(parent);
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Slug").fill(slug);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(item(slug)).toBeVisible();
  }
  await expect.poll(() => childrenOf(parent)).toEqual([`e2e-a-${id}`, `e2e-b-${id}`]);

  // Beta moves up with the keyboard alone.
  const up = page.getByRole("button", { name: `Move Beta ${id} up` });
  await up.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => childrenOf(parent)).toEqual([`e2e-b-${id}`, `e2e-a-${id}`]);
  await expect(page.getByRole("button", { name: `Move Beta ${id} up` })).toBeDisabled();
  // The focus stays with Beta (on its other button, the first one being disabled now): Enter moves it back down.
  await expect(page.getByRole("button", { name: `Move Beta ${id} down` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect.poll(() => childrenOf(parent)).toEqual([`e2e-a-${id}`, `e2e-b-${id}`]);
  await expect(page.getByRole("button", { name: `Move Beta ${id} up` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect.poll(() => childrenOf(parent)).toEqual([`e2e-b-${id}`, `e2e-a-${id}`]);

  // Alpha moves under Beta; then Beta under Alpha would be a cycle: refused, in the server's words.
  await item(`e2e-a-${id}`).getByLabel(`Move Alpha ${id} under`).selectOption(`e2e-b-${id}`);
  await item(`e2e-a-${id}`).getByRole("button", { name: "Move under" }).first().click();
  await expect.poll(() => childrenOf(`e2e-b-${id}`)).toEqual([`e2e-a-${id}`]);
  await page.getByLabel(`Move Beta ${id} under`).selectOption(`e2e-a-${id}`);
  await item(`e2e-b-${id}`).locator(":scope > div").getByRole("button", { name: "Move under" }).click();
  const cycle = page.getByRole("alert").filter({ hasText: "A category cannot move under itself or one of its own sub-categories." });
  await expect(cycle).toBeVisible();
  await expect(cycle).toHaveAttribute("data-error-code", "CATEGORY_CYCLE");

  // Beta has a child: not deleted, and the page says why.
  await page.getByRole("button", { name: `Delete Beta ${id}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  const inUse = page.getByRole("alert").filter({ hasText: "The category still has tools or sub-categories: move them first." });
  await expect(inUse).toBeVisible();
  await expect(inUse).toHaveAttribute("data-error-code", "CATEGORY_IN_USE");

  // Renamed, then the three deleted, deepest first.
  await page.getByRole("button", { name: `Rename Alpha ${id}` }).click();
  const rename = page.getByRole("form", { name: `Rename Alpha ${id}` });
  await rename.getByLabel("Name").fill(`Alpha renamed ${id}`);
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(item(`e2e-a-${id}`)).toContainText(`Alpha renamed ${id}`);
  for (const name of [`Alpha renamed ${id}`, `Beta ${id}`, `Parent ${id}`]) {
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("button", { name: `Delete ${name}` })).toHaveCount(0);
  }
});

test("specifications: define one, edit it, delete it", async ({ page }) => {
  await signInAsAdmin(page.request);
  const id = run();
  await openSection(page, "Specifications");
  await page.getByRole("button", { name: "Add a specification" }).click();
  const form = page.getByRole("form", { name: "Add a specification" });
  await form.getByLabel("Key").fill(`blade_${id}`);
  await form.getByLabel("Name").fill(`Blade ${id}`);
  await form.getByLabel("Unit (optional)").fill("mm");
  await form.getByLabel("Kind").selectOption("number");
  await form.getByRole("button", { name: "Save" }).click();
  const row = page.getByTestId("spec-row").filter({ hasText: `blade_${id}` });
  await expect(row).toContainText(`Blade ${id}`);
  await expect(row).toContainText("mm");
  await expect(row).toContainText("Number");
  await expectNoSeriousViolations(page);

  await row.getByRole("button", { name: `Edit Blade ${id}` }).click();
  const edit = page.getByRole("form", { name: `Edit Blade ${id}` });
  await edit.getByLabel("Name").fill(`Blade length ${id}`);
  await edit.getByLabel("Unit (optional)").fill("cm");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText(`Blade length ${id}`);
  await expect(row).toContainText("cm");

  await row.getByRole("button", { name: `Delete Blade length ${id}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
});

test("the tool form: SKU, GTIN, brand, a sub-category, specifications by kind and several photos", async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page.request);
  const id = run();
  const brand = `e2e-brand-${id}`;
  const sub = `e2e-sub-${id}`;
  await api(page.request, "post", "/api/admin/brands", { slug: brand, name: `Brand ${id}` });
  await api(page.request, "post", "/api/admin/categories", { slug: sub, name: `Sub ${id}`, parentSlug: "power-tools" });
  const [volts, cordless, colour] = [`volts_${id}`, `cordless_${id}`, `colour_${id}`];
  await api(page.request, "post", "/api/admin/specs", { key: volts, name: `Voltage ${id}`, unit: "V", kind: "number" });
  await api(page.request, "post", "/api/admin/specs", { key: cordless, name: `Cordless ${id}`, kind: "boolean" });
  await api(page.request, "post", "/api/admin/specs", { key: colour, name: `Colour ${id}`, kind: "text" });
  const other = await archivedTool(page.request, `Other tool ${id}`);
  const name = `Form tool ${id}`;
  const tool = await archivedTool(page.request, name);

  await page.goto("/admin/tools");
  await page.getByLabel("Search tools").fill(name);
  const row = page.getByTestId("admin-tool-row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: `Edit ${name}` });

  // A taken SKU: the server's 409 at the SKU field. A GTIN with a wrong check digit: told at its field.
  await form.getByLabel("SKU").fill(other.sku);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText(`Another tool already has the SKU ${other.sku}.`)).toBeVisible();
  await form.getByLabel("SKU").fill(`SKU-${id}`);
  await form.getByLabel("GTIN (barcode, optional)").fill("4006381333932");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("A GTIN has 8, 12, 13 or 14 digits, the last a valid check digit.")).toBeVisible();
  await form.getByLabel("GTIN (barcode, optional)").fill("4006381333931");

  await form.getByLabel("Brand").selectOption(brand);
  await form.getByLabel("Category").selectOption(sub);
  await form.getByLabel(`Voltage ${id} (V)`).fill("18");
  await expect(form.getByLabel(`Voltage ${id} (V)`)).toHaveAttribute("type", "number");
  await form.getByLabel(`Cordless ${id}`).check();
  await form.getByLabel(`Colour ${id}`).fill("<b>Orange</b>");

  // Two photos uploaded: each joins first; then reordered and the original one removed.
  const png = (r: number) => sharp({ create: { width: 400, height: 300, channels: 3, background: { r, g: 90, b: 160 } } }).png().toBuffer();
  const photos = form.getByTestId("form-photo");
  await expect(photos).toHaveCount(1);
  await form.getByLabel("Add a photo").setInputFiles({ name: "one.png", mimeType: "image/png", buffer: await png(10) });
  await expect(photos).toHaveCount(2);
  await form.getByLabel("Add a photo").setInputFiles({ name: "two.png", mimeType: "image/png", buffer: await png(200) });
  await expect(photos).toHaveCount(3);
  const srcs = () => photos.locator("img").evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src") ?? ""));
  const [second, first, original] = await srcs();
  expect(original).toBe("/images/tools/claw-hammer.svg");
  expect(first).toMatch(/^\/uploads\/tools\//);
  await form.getByRole("button", { name: "Move photo 2 earlier" }).click();
  await form.getByRole("button", { name: "Remove photo 3" }).click();
  expect(await srcs()).toEqual([first, second]);
  await expectNoSeriousViolations(page);

  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tool saved.")).toBeVisible();
  const saved = (await api(page.request, "get", `/api/admin/tools/${tool._id}`)) as {
    tool: { sku: string; gtin: string; brand: { slug: string }; categoryPath: { slug: string }[]; category: string; specs: { key: string; value: unknown }[]; images: string[]; image: string };
  };
  expect(saved.tool).toMatchObject({ sku: `SKU-${id}`, gtin: "4006381333931", brand: { slug: brand }, category: "power-tools", images: [first, second], image: first });
  expect(saved.tool.categoryPath.map((c) => c.slug)).toEqual(["power-tools", sub]);
  expect(saved.tool.specs.map((s) => [s.key, s.value])).toEqual([
    [volts, 18],
    [cordless, true],
    [colour, "<b>Orange</b>"],
  ]);

  // Opened again after a reload, the form shows what was saved.
  await page.reload();
  // The list shows the category's path, and its filter offers the tree (a sub-category lists its tools).
  await expect(row).toContainText(`Power Tools › Sub ${id}`);
  await page.getByLabel("Category").selectOption(sub);
  await expect.poll(() => new URL(page.url()).searchParams.get("category")).toBe(sub);
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Edit" }).click();
  await expect(form.getByLabel("SKU")).toHaveValue(`SKU-${id}`);
  await expect(form.getByLabel("Category")).toHaveValue(sub);
  await expect(form.getByLabel(`Voltage ${id} (V)`)).toHaveValue("18");
  await expect(form.getByLabel(`Cordless ${id}`)).toBeChecked();
  await expect(photos).toHaveCount(2);
  await form.getByRole("button", { name: "Cancel" }).click();

  // Clean up what the storefront could show: the tool archived already; its brand and category freed and deleted.
  await api(page.request, "delete", `/api/admin/tools/${tool._id}`);
  await api(page.request, "delete", `/api/admin/tools/${other._id}`);
  await api(page.request, "delete", `/api/admin/brands/${brand}`);
  await api(page.request, "delete", `/api/admin/categories/${sub}`);
});

test("a new tool, once saved, stays open for its photos; a form opened for another tool starts from that tool", async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page.request);
  const id = run();
  const name = `New tool ${id}`;
  await page.goto("/admin/tools");
  await page.getByRole("button", { name: "Add a tool" }).click();
  const form = page.getByRole("form", { name: "Add a tool" });
  await expect(form.getByText("Photos are added once the tool is saved: the form then stays open to upload, reorder or remove them.")).toBeVisible();
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Price (dollars)").fill("12");
  await form.getByLabel("Stock", { exact: true }).fill("3");
  await form.getByLabel("Minimum order quantity").fill("1");
  await form.getByLabel("Description").fill("A tool for the new tool's photos test.");
  await form.getByLabel(/In the store at once/).uncheck();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tool added.")).toBeVisible();

  const edit = page.getByRole("form", { name: `Edit ${name}` });
  const photos = edit.getByTestId("form-photo");
  await expect(photos).toHaveCount(1);
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 40, g: 120, b: 60 } } }).png().toBuffer();
  await edit.getByLabel("Add a photo").setInputFiles({ name: "new.png", mimeType: "image/png", buffer: png });
  await expect(photos).toHaveCount(2);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tool saved.")).toBeVisible();
  await expect(edit).toHaveCount(0);
  await page.getByLabel("Search tools").fill(id);
  const created = page.getByTestId("admin-tool-row").filter({ hasText: name });
  await expect(created).toHaveCount(1);
  const createdId = decodeURIComponent((await created.getByRole("link", { name }).getAttribute("href"))?.split("/").pop() ?? "");
  const saved = (await api(page.request, "get", `/api/admin/tools/${createdId}`)) as { tool: { images: string[] } };
  expect(saved.tool.images).toHaveLength(2);
  expect(saved.tool.images[0]).toMatch(/^\/uploads\/tools\//);

  // Edit one tool, then another without closing: the form shows (and would save) the second one's values.
  const otherName = `Second tool ${id}`;
  const other = await archivedTool(page.request, otherName, { price: 77 });
  await page.reload();
  await page.getByRole("button", { name: "Edit" }).first().waitFor();
  await page.getByTestId("admin-tool-row").filter({ hasText: name }).getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("form", { name: `Edit ${name}` }).getByLabel("Price (dollars)")).toHaveValue("12");
  await page.getByTestId("admin-tool-row").filter({ hasText: otherName }).getByRole("button", { name: "Edit" }).click();
  const otherForm = page.getByRole("form", { name: `Edit ${otherName}` });
  await expect(otherForm.getByLabel("Name", { exact: true })).toHaveValue(otherName);
  await expect(otherForm.getByLabel("Price (dollars)")).toHaveValue("77");
  await otherForm.getByRole("button", { name: "Cancel" }).click();
  await api(page.request, "delete", `/api/admin/tools/${createdId}`);
  await api(page.request, "delete", `/api/admin/tools/${other._id}`);
});

test("products: add one with options, a tool joins it in the tool form, its page makes the missing combinations", async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page.request);
  const id = run();
  const productName = `Saw ${id}`;
  await openSection(page, "Products");
  await page.getByRole("button", { name: "Add a product" }).click();
  const form = page.getByRole("form", { name: "Add a product" });
  await form.getByLabel("Name", { exact: true }).fill(productName);
  await form.getByLabel("Option 1 name").fill("Bar");
  await form.getByLabel("Option 1 values, separated by commas").fill("16 in, 18 in, 20 in");
  await form.getByRole("button", { name: "Save" }).click();
  const row = page.getByTestId("product-row").filter({ hasText: productName });
  await expect(row).toContainText("Bar: 16 in, 18 in, 20 in");
  await expectNoSeriousViolations(page);

  await row.getByRole("link", { name: productName }).click();
  await expect(page.getByRole("heading", { level: 2, name: productName })).toBeVisible();
  await expect(page.getByText("No tool in this product yet")).toBeVisible();

  // A tool joins it with its bar length, in the tool form.
  const name = `Saw tool ${id}`;
  await archivedTool(page.request, name, { price: 320, availableQuantity: 4, category: "chainsaws" });
  await page.goto("/admin/tools");
  await page.getByLabel("Search tools").fill(name);
  const toolRow = page.getByTestId("admin-tool-row").filter({ hasText: name });
  await toolRow.getByRole("button", { name: "Edit" }).click();
  const toolForm = page.getByRole("form", { name: `Edit ${name}` });
  await toolForm.getByLabel("Product").selectOption({ label: productName });
  await toolForm.getByLabel("Bar", { exact: true }).selectOption("18 in");
  await toolForm.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tool saved.")).toBeVisible();

  // A second tool with the same bar: refused at the option values (VARIANT_EXISTS), nothing saved.
  const twinName = `Saw twin ${id}`;
  const twin = await archivedTool(page.request, twinName, { category: "chainsaws" });
  await page.getByLabel("Search tools").fill(twinName);
  await page.getByTestId("admin-tool-row").filter({ hasText: twinName }).getByRole("button", { name: "Edit" }).click();
  const twinForm = page.getByRole("form", { name: `Edit ${twinName}` });
  await twinForm.getByLabel("Product").selectOption({ label: productName });
  await twinForm.getByLabel("Bar", { exact: true }).selectOption("18 in");
  await twinForm.getByRole("button", { name: "Save" }).click();
  await expect(twinForm.getByTestId("option-value-fields").getByRole("alert")).toHaveText("Another tool of this product already has these option values.");
  await twinForm.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Products", exact: true }).click();
  await row.getByRole("link", { name: productName }).click();
  const tools = page.getByTestId("product-tool-row");
  await expect(tools).toHaveCount(1);
  await expect(tools.first()).toContainText("18 in");
  await expect(tools.first().getByTestId("product-tool-stock")).toHaveText("4");
  await expect(tools.first().getByTestId("product-tool-price")).toHaveText("$320.00");
  await expect(page.getByTestId("missing-combinations")).toHaveText("2 combinations have no tool yet.");
  await expectNoSeriousViolations(page);

  await page.getByRole("button", { name: "Create missing combinations" }).click();
  await expect(page.getByText("2 tools created, with no stock.")).toBeVisible();
  await expect(tools).toHaveCount(3);
  await expect(tools.nth(0)).toContainText("16 in");
  await expect(tools.nth(1)).toContainText("18 in");
  await expect(tools.nth(2)).toContainText("20 in");
  await expect(tools.getByTestId("product-tool-stock")).toHaveText(["0", "4", "0"]);
  await expect(tools.getByTestId("product-tool-price")).toHaveText(["$320.00", "$320.00", "$320.00"]);
  await expect(tools.nth(0)).toContainText("Archived");
  await expect(page.getByTestId("missing-combinations")).toHaveText("Every combination has a tool.");
  await expect(page.getByRole("button", { name: "Create missing combinations" })).toHaveCount(0);

  // The tool the catalogue's card shows: chosen here, one default at a time.
  await expect(tools.getByText("Default", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: `Make ${name} the product's default tool` }).click();
  await expect(page.getByText(`${name} is now the default: the catalogue's card shows it.`)).toBeVisible();
  await expect(tools.nth(1).getByText("Default", { exact: true })).toBeVisible();
  await expect(tools.getByText("Default", { exact: true })).toHaveCount(1);
  await expect(tools.nth(1).getByRole("button", { name: /Make .* default tool/ })).toHaveCount(0);
  await expect(tools.getByRole("button", { name: /Make .* default tool/ })).toHaveCount(2);
  await api(page.request, "delete", `/api/admin/tools/${twin._id}`);
});
