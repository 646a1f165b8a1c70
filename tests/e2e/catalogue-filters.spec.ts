/**
 * The catalogue's filters with counts (issue 51, DESIGN "Catalogue", `GET /api/tool/facets`):
 * beside the list, the category tree, the brands and each filterable specification with how many
 * rows of the list each choice leaves (the count in the label: "Voltline (2)"), a number as a
 * range. Without JavaScript they are fields of the catalogue's one GET form, server-rendered with
 * their counts; with it a choice updates the list and the counts without a reload, and the page
 * stays where it was scrolled. A checked brand still offers the others; a choice that leaves
 * nothing is shown disabled. On a phone the filters open as a sheet. Expected values come from the API.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "../support/e2e-helpers";

interface Facets {
  total: number;
  categories: { slug: string; name: string; count: number; children: Facets["categories"] }[];
  brands: { slug: string; name: string; count: number }[];
  specs: { key: string; name: string; unit: string | null; kind: "choice" | "range"; values?: { value: string | number | boolean; count: number }[]; min?: number; max?: number }[];
  price: { min: number | null; max: number | null };
}
interface ListedTool {
  name: string;
}

async function api<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}
const facetsOf = (request: APIRequestContext, query = "") => api<Facets>(request, `/api/tool/facets${query ? `?${query}` : ""}`);
const namesOf = async (request: APIRequestContext, query: string) => (await api<ListedTool[]>(request, `/api/tool?${query}&limit=12`)).map((t) => t.name);

const hydrated = (page: Page) => expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
const cards = (page: Page) => page.getByTestId("tool-grid").getByTestId("tool-card");
const brandBox = (page: Page, label: string) => page.getByTestId("brand-filter").getByLabel(label, { exact: true });
const withCount = (name: string, count: number) => `${name} (${count})`;

/** A brand with tools, and a category where some other brand has none (its box is disabled there). */
async function demoChoices(request: APIRequestContext) {
  const whole = await facetsOf(request);
  const brand = whole.brands.find((b) => b.count > 0);
  if (!brand) throw new Error("the demo has no brand with tools");
  for (const root of whole.categories) {
    const there = await facetsOf(request, `category=${root.slug}`);
    const empty = whole.brands.find((b) => !there.brands.some((t) => t.slug === b.slug && t.count > 0));
    const full = there.brands.find((b) => b.count > 0);
    if (empty && full) return { whole, brand, category: root, empty, full, there };
  }
  throw new Error("the demo has no category without some brand");
}

test.describe("the catalogue's filters without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("are server-rendered with their counts; a brand checked and 'Apply filters' send one GET whose address is shareable", async ({ page, request }) => {
    const { whole, brand } = await demoChoices(request);
    await page.goto("/tools");
    for (const b of whole.brands) await expect(brandBox(page, withCount(b.name, b.count))).toBeVisible();
    const power = whole.specs.find((s) => s.kind === "choice" && (s.values?.length ?? 0) > 0);
    if (power) {
      const first = power.values?.[0];
      await expect(page.getByTestId(`spec-filter-${power.key}`).getByLabel(withCount(String(first?.value), first?.count ?? 0), { exact: true })).toBeVisible();
    }
    // Each number specification is a range with its catalogue's ends as placeholders.
    const bar = whole.specs.find((s) => s.key === "bar_length");
    expect(bar?.kind).toBe("range");
    const range = page.getByTestId("spec-filter-bar_length");
    await expect(page.getByRole("group", { name: "Bar length (in)" })).toBeVisible();
    await expect(range.getByLabel("From")).toHaveAttribute("placeholder", String(bar?.min));

    await brandBox(page, withCount(brand.name, brand.count)).check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll("brand")).toEqual([brand.slug]);
    await expect(cards(page).getByRole("heading")).toHaveText(await namesOf(request, `brand=${brand.slug}`));
    // The checked brand still offers the others, with what adding each would show.
    const narrowed = await facetsOf(request, `brand=${brand.slug}`);
    for (const b of narrowed.brands) await expect(brandBox(page, withCount(b.name, b.count))).toBeVisible();
    await expect(brandBox(page, withCount(brand.name, narrowed.brands.find((b) => b.slug === brand.slug)?.count ?? 0))).toBeChecked();

    // A range, sent by its two ends, reads as the API's min..max; the address is one to share.
    await range.getByLabel("From").fill("12");
    await range.getByLabel("To").fill("18");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("spec.bar_length.min")).toBe("12");
    const expected = await namesOf(request, `brand=${brand.slug}&spec.bar_length=12..18`);
    await expect(cards(page).getByRole("heading")).toHaveText(expected);
    const shared = page.url();
    await page.goto("/");
    await page.goto(shared);
    await expect(cards(page).getByRole("heading")).toHaveText(expected);
    await expect(range.getByLabel("From")).toHaveValue("12");
    // Search engines are given the catalogue's page, not every combination of filters.
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/tools$/);
  });

  test("the category tree is links with counts, keeping the other filters", async ({ page, request }) => {
    const { brand } = await demoChoices(request);
    const facets = await facetsOf(request, `brand=${brand.slug}`);
    const root = facets.categories.find((c) => c.count > 0);
    if (!root) throw new Error("no category has the brand's tools");
    await page.goto(`/tools?brand=${brand.slug}`);
    const tree = page.getByRole("navigation", { name: "Categories" });
    await tree.getByRole("link", { name: withCount(root.name, root.count), exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toBe(`?category=${root.slug}&brand=${brand.slug}`);
    await expect(cards(page).getByRole("heading")).toHaveText(await namesOf(request, `category=${root.slug}&brand=${brand.slug}`));
  });
});

test.describe("the catalogue's filters with JavaScript", () => {
  test("a brand checked updates the list and the counts without a reload, where the page was scrolled; a choice that leaves nothing is disabled", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    const { category, empty, full } = await demoChoices(request);
    await page.goto(`/tools?category=${category.slug}`);
    await hydrated(page);
    // Shown, not hidden: disabled, with its zero.
    await expect(brandBox(page, withCount(empty.name, 0))).toBeDisabled();
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    const box = brandBox(page, withCount(full.name, full.count));
    await box.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 120));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await box.check();
    await expect.poll(() => new URL(page.url()).searchParams.getAll("brand")).toEqual([full.slug]);
    await expect(cards(page).getByRole("heading")).toHaveText(await namesOf(request, `category=${category.slug}&brand=${full.slug}`));
    const narrowed = await facetsOf(request, `category=${category.slug}&brand=${full.slug}`);
    // The others are still offered, with their counts; the checked one stays enabled.
    for (const b of narrowed.brands) await expect(brandBox(page, withCount(b.name, b.count))).toBeVisible();
    await expect(brandBox(page, withCount(full.name, narrowed.brands.find((b) => b.slug === full.slug)?.count ?? 0))).toBeEnabled();
    // The specifications' counts follow the list too.
    for (const spec of narrowed.specs.filter((s) => s.kind === "choice")) {
      for (const v of spec.values ?? []) await expect(page.getByTestId(`spec-filter-${spec.key}`).getByLabel(withCount(String(v.value), v.count), { exact: true })).toBeVisible();
    }
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThanOrEqual(2);

    // Back undoes the choice, and the box follows the address.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.getAll("brand")).toEqual([]);
    await expect(brandBox(page, withCount(full.name, full.count))).not.toBeChecked();
    await expectNoSeriousViolations(page);
  });

  test("a number range is applied when the field is left, as the API's min..max", async ({ page, request }) => {
    await page.goto("/tools");
    await hydrated(page);
    const range = page.getByTestId("spec-filter-bar_length");
    await range.getByLabel("From").fill("12");
    await range.getByLabel("To").fill("18");
    await range.getByLabel("To").press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.getAll("spec.bar_length")).toEqual(["12..18"]);
    await expect(cards(page).getByRole("heading")).toHaveText(await namesOf(request, "spec.bar_length=12..18"));
    await expect(range.getByLabel("From")).toHaveValue("12");
  });

  test("on a phone the filters open as a sheet: a dialog with its name, Close and Escape close it", async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const { brand } = await demoChoices(request);
    await page.goto("/tools");
    await hydrated(page);
    const open = page.getByRole("button", { name: "Filters", exact: true });
    await expect(open).toBeVisible();
    await expect(page.getByTestId("brand-filter")).toBeHidden();
    await open.click();
    const sheet = page.getByRole("dialog", { name: "Filters" });
    await expect(sheet).toBeVisible();
    await expectNoSeriousViolations(page);
    await sheet.getByTestId("brand-filter").getByLabel(withCount(brand.name, brand.count), { exact: true }).check();
    await expect.poll(() => new URL(page.url()).searchParams.getAll("brand")).toEqual([brand.slug]);
    await sheet.getByRole("button", { name: "Close" }).click();
    await expect(sheet).toBeHidden();
    await expect(cards(page).getByRole("heading")).toHaveText(await namesOf(request, `brand=${brand.slug}`));
    await expect(page.getByRole("button", { name: "Filters (1)" })).toBeFocused();
    await page.getByRole("button", { name: "Filters (1)" }).click();
    await expect(sheet).toBeVisible();
    await expect(sheet.getByTestId("brand-filter").getByLabel(new RegExp(`^${brand.name} \\(\\d+\\)$`))).toBeChecked();
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
  });
});
