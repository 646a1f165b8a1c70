import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "../support/e2e-helpers";

/**
 * Issue 13's catalogue browsing, clicked through: sort by price, a price range, search-as-you-type
 * suggestions picked with the keyboard, and 'Next' bringing the shopper to the top of the list.
 * Expected lists come from the API, so the tests hold whatever the seed holds.
 */

interface ApiTool {
  _id: string;
  name: string;
  price: number;
}

const cards = (page: Page) => page.getByTestId("tool-grid").getByTestId("tool-card");
const params = (page: Page) => new URL(page.url()).searchParams;
/** The prices the cards show ("$2,199.00"), as numbers. */
const shownPrices = async (page: Page): Promise<number[]> =>
  (await cards(page).getByTestId("tool-price").allTextContents()).map((text) => Number(text.replace(/[$,\s]/g, "")));

async function listTools(request: APIRequestContext, query: string): Promise<ApiTool[]> {
  const response = await request.get(`/api/tool?${query}`);
  expect(response.status(), `GET /api/tool?${query}`).toBe(200);
  return (await response.json()) as ApiTool[];
}

test.describe("catalogue browsing", () => {
  test("sorts by price both ways, kept in the URL, back to page 1", async ({ page, request }) => {
    const cheapest = await listTools(request, "sort=price-asc&limit=12");
    await page.goto("/tools?page=2");
    await expect(cards(page).first()).toBeVisible();
    // A sort applied as it is chosen is the app's (without JavaScript, a 'Show' button sends it).
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
    const sort = page.getByLabel("Sort by");
    // The default order, shown by its name; its value is none ("": browse-state.ts sortChosen).
    await expect(sort.locator("option:checked")).toHaveText("Oldest first");
    await expect(sort).toHaveValue("");

    await sort.selectOption({ label: "Price: low to high" });
    await expect.poll(() => params(page).get("sort")).toBe("price-asc");
    expect(params(page).get("page")).toBeNull();
    await expect(cards(page).getByRole("heading")).toHaveText(cheapest.map((t) => t.name));
    const ascending = await shownPrices(page);
    expect(ascending.length).toBeGreaterThan(1);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

    await sort.selectOption({ label: "Price: high to low" });
    await expect.poll(() => params(page).get("sort")).toBe("price-desc");
    await expect.poll(async () => (await shownPrices(page))[0]).toBeGreaterThan(ascending[ascending.length - 1] ?? 0);
    const descending = await shownPrices(page);
    expect(descending).toEqual([...descending].sort((a, b) => b - a));

    await page.reload();
    await expect(page.getByLabel("Sort by")).toHaveValue("price-desc");
    expect(await shownPrices(page)).toEqual(descending);
  });

  test("a price range shows only tools within it; min above max is refused with a message", async ({ page, request }) => {
    const all = await listTools(request, "limit=100");
    const prices = [...new Set(all.map((t) => t.price))].sort((a, b) => a - b);
    expect(prices.length).toBeGreaterThan(4);
    // A range that keeps some tools and leaves out some on both sides.
    const min = prices[1] ?? 0;
    const max = prices[prices.length - 2] ?? 0;
    const inRange = await listTools(request, `minPrice=${min}&maxPrice=${max}&limit=100`);
    expect(inRange.length).toBeLessThan(all.length);
    expect(inRange.every((t) => t.price >= min && t.price <= max)).toBe(true);

    await page.goto("/tools");
    const range = page.getByRole("form", { name: "Price range" });
    await range.getByLabel("Min price ($)").fill(String(min));
    await range.getByLabel("Max price ($)").fill(String(max));
    await range.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => params(page).get("minPrice")).toBe(String(min));
    expect(params(page).get("maxPrice")).toBe(String(max));
    await expect(page.getByText(`${inRange.length} tools`, { exact: true })).toBeVisible();
    const shown = await shownPrices(page);
    expect(shown.length).toBe(Math.min(12, inRange.length));
    for (const price of shown) {
      expect(price).toBeGreaterThanOrEqual(min);
      expect(price).toBeLessThanOrEqual(max);
    }

    // Min above max: the browser says so with the API's rule, and the URL does not change. The
    // message is the app's (the 'Apply' above may have come before it, a page load).
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
    const before = page.url();
    await range.getByLabel("Min price ($)").fill("500");
    await range.getByLabel("Max price ($)").fill("100");
    await range.getByLabel("Max price ($)").press("Enter");
    await expect(range.getByRole("alert")).toHaveText("The lowest price must not be above the highest");
    await expect(range.getByLabel("Max price ($)")).toHaveAttribute("aria-invalid", "true");
    expect(page.url()).toBe(before);
    // The API refuses the same range.
    expect((await request.get("/api/tool?minPrice=500&maxPrice=100")).status()).toBe(400);

    await range.getByRole("button", { name: "Clear" }).click();
    await expect.poll(() => params(page).get("minPrice")).toBeNull();
    await expect(range.getByLabel("Min price ($)")).toHaveValue("");
  });

  test("suggestions while typing: arrows pick one, Enter opens its page; Escape closes the list", async ({ page, request }) => {
    const response = await request.get("/api/tool/suggest?q=chain");
    expect(response.status()).toBe(200);
    const suggested = (await response.json()) as { _id: string; name: string }[];
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.length).toBeLessThanOrEqual(8);

    await page.goto("/tools");
    await expect(cards(page).first()).toBeVisible();
    // Suggestions are the app's: typed before it has taken the page over, the text is kept but no list opens.
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
    const box = page.getByRole("search").getByRole("searchbox", { name: "Search tools" });
    await box.pressSequentially("chain", { delay: 30 });
    const list = page.getByRole("listbox", { name: "Suggestions" });
    await expect(list).toBeVisible();
    const options = list.getByRole("option");
    await expect(options).toHaveCount(suggested.length);
    await expect(options.first()).toContainText(suggested[0]?.name ?? "");
    await expect(box).toHaveAttribute("aria-controls", (await list.getAttribute("id")) ?? "");

    // Escape closes the list and keeps the text.
    await box.press("Escape");
    await expect(list).toHaveCount(0);
    await expect(box).toHaveValue("chain");

    // The down arrow opens it again, and the next one highlights the first suggestion.
    await box.press("ArrowDown");
    await expect(list).toBeVisible();
    await box.press("ArrowDown");
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await options.first().getAttribute("id")) ?? "");
    // The open list and the price form: no critical or serious axe violations.
    await expectNoSeriousViolations(page);
    await box.press("Enter");
    await expect(page).toHaveURL((url) => url.pathname === `/tools/${suggested[0]?._id}`);
    await expect(page.getByRole("heading", { level: 1, name: suggested[0]?.name })).toBeVisible();
  });

  test("Enter with no suggestion highlighted searches", async ({ page }) => {
    await page.goto("/tools");
    // Suggestions are the app's (see above).
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
    const box = page.getByRole("searchbox", { name: "Search tools" });
    await box.pressSequentially("chain", { delay: 30 });
    await expect(page.getByRole("listbox", { name: "Suggestions" })).toBeVisible();
    await box.press("Enter");
    await expect.poll(() => params(page).get("q")).toBe("chain");
    expect(new URL(page.url()).pathname).toBe("/tools");
    await expect(page.getByRole("listbox", { name: "Suggestions" })).toHaveCount(0);
  });

  test("'Next' and 'Previous' bring the shopper to the top of the list, focus on its results line", async ({ page }) => {
    await page.goto("/tools");
    // Moving the focus is the app's: a click before it has taken the page over is the pager's GET
    // form, a page load from the server, which leaves the focus where a new page has it.
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
    const pager = page.getByRole("navigation", { name: "Pages" });
    const heading = page.getByRole("heading", { level: 1 });
    await expect(pager.getByText("Page 1 of", { exact: false })).toBeVisible();
    const next = pager.getByRole("button", { name: "Next" });
    await next.scrollIntoViewIfNeeded();
    await expect(heading).not.toBeInViewport();

    await next.click();
    await expect.poll(() => params(page).get("page")).toBe("2");
    await expect(pager.getByText("Page 2 of", { exact: false })).toBeVisible();
    await expect(heading).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(50);
    const results = page.getByText(/^\d[\d,]*\+? tools?$/);
    await expect(results).toBeFocused();
    await expect(results).toBeInViewport();

    // From the keyboard too: Previous, pressed with Enter.
    const previous = pager.getByRole("button", { name: "Previous" });
    await previous.focus();
    await expect(heading).not.toBeInViewport();
    await page.keyboard.press("Enter");
    await expect.poll(() => params(page).get("page")).toBeNull();
    await expect(heading).toBeInViewport();
    await expect(results).toBeFocused();
  });
});
