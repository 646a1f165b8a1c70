import { expect, test, type Page } from "@playwright/test";
import { listTools, pathOf } from "../support/e2e-helpers";

/**
 * The public pages work before (and without) the app's code: a browser that runs no JavaScript
 * gets the server's HTML, and every link, the mobile menu, the carousel and the catalogue's
 * controls (GET forms to /tools) do what they say. 'Add to Cart' needs the app and says so.
 */
test.use({ javaScriptEnabled: false });

const params = (page: Page) => new URL(page.url()).searchParams;

test("the navigation bar's links and the footer's reach every public page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
  const menu = page.getByTestId("desktop-menu");
  for (const [name, path, heading] of [
    ["Blogs", "/blogs", "Questions & Answers"],
    ["About", "/about", "About Us"],
    ["Purchase", "/tools", "All Tools"],
    ["Home", "/", "Welcome Best Tools"],
  ] as const) {
    await menu.getByRole("link", { name, exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe(path);
    await expect(page.getByRole("heading", { name: heading }).first()).toBeVisible();
  }
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy policy" }).click();
  await expect.poll(() => pathOf(page)).toBe("/legal");
  await expect(page.getByRole("heading", { name: "Cookie policy" })).toBeVisible();
});

test("the whole stylesheet loads from the page's <noscript> link, which a browser running JavaScript leaves to the app", async ({ page }) => {
  const sheet = page.waitForResponse((response) => /\/assets\/stylesheet-[\w-]+\.css$/.test(new URL(response.url()).pathname));
  await page.goto("/tools");
  expect((await sheet).status()).toBe(200);
  await expect(page.locator('body > noscript > link[rel="stylesheet"][href^="/assets/stylesheet-"]')).toHaveCount(1);
});

test("the 404 page leads home", async ({ page }) => {
  expect((await page.goto("/no-such-page"))?.status()).toBe(404);
  await page.getByRole("main").getByRole("link", { name: /home/i }).click();
  await expect.poll(() => pathOf(page)).toBe("/");
  await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
});

test("the carousel moves by its anchors, wrapping from the first slide to the last and back", async ({ page }) => {
  await page.goto("/");
  const slides = page.getByTestId("carousel-slide");
  await expect(slides.nth(0)).toBeVisible();
  await slides.nth(0).getByRole("link", { name: "Previous slide" }).click();
  await expect(slides.nth(2)).toBeVisible();
  await expect(slides.nth(0)).toBeHidden();
  await slides.nth(2).getByRole("link", { name: "Next slide" }).click();
  await expect(slides.nth(0)).toBeVisible();
  await expect(slides.nth(2)).toBeHidden();
  await slides.nth(0).getByRole("link", { name: "Next slide" }).click();
  await expect(slides.nth(1)).toBeVisible();
  await expect(slides.nth(0)).toBeHidden();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the menu opens, closes and its links navigate", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("banner").getByRole("button", { name: "Open menu" });
    const mobileMenu = page.getByTestId("mobile-menu");
    await expect(mobileMenu).toBeHidden();
    await toggle.click();
    await expect(mobileMenu).toBeVisible();
    await toggle.click();
    await expect(mobileMenu).toBeHidden();
    await toggle.click();
    await mobileMenu.getByRole("link", { name: "About", exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe("/about");
    await expect(page.getByRole("heading", { name: "About Us", level: 1 })).toBeVisible();
    await expect(mobileMenu).toBeHidden();
  });
});

test("the catalogue's category, sort, search, price range and pager are GET forms the server answers", async ({ page }) => {
  await page.goto("/tools");
  await expect(page.getByRole("heading", { name: "All Tools", level: 1 })).toBeVisible();

  // Page 2 and back. Other browser tests add tools meanwhile, so the number of pages may grow.
  const pager = page.getByRole("navigation", { name: "Pages" });
  await expect(pager.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await pager.getByRole("button", { name: "Next" }).click();
  await expect.poll(() => params(page).get("page")).toBe("2");
  await expect(pager.getByText(/^Page 2 of \d+$/)).toBeVisible();
  await pager.getByRole("button", { name: "Previous" }).click();
  await expect.poll(() => params(page).get("page")).toBe("1");
  await expect(pager.getByText(/^Page 1 of \d+$/)).toBeVisible();

  // A category and a sort, sent with the button that stands in for the app.
  await page.getByLabel("Category").selectOption({ label: "Lawn Mowers" });
  await page.getByLabel("Sort by").selectOption({ label: "Price: high to low" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect.poll(() => params(page).get("category")).toBe("lawn-mowers");
  expect(params(page).get("sort")).toBe("price-desc");
  await expect(page.getByRole("heading", { name: "Lawn Mowers", level: 1 })).toBeVisible();
  const prices = await page.getByRole("article").getByTestId("tool-price").allTextContents();
  const dollars = prices.map((p) => Number(p.replace(/[^0-9.]/g, "")));
  expect(dollars.length).toBeGreaterThan(1);
  expect([...dollars].sort((a, b) => b - a)).toEqual(dollars);

  // A price range keeps the category; clearing it keeps it too.
  const range = page.getByRole("form", { name: "Price range" });
  await range.getByLabel("Min price ($)").fill("100");
  await range.getByLabel("Max price ($)").fill("5000");
  await range.getByRole("button", { name: "Apply" }).click();
  await expect.poll(() => params(page).get("minPrice")).toBe("100");
  expect(params(page).get("maxPrice")).toBe("5000");
  expect(params(page).get("category")).toBe("lawn-mowers");
  await range.getByRole("button", { name: "Clear" }).click();
  await expect.poll(() => params(page).get("minPrice")).toBeNull();
  expect(params(page).get("category")).toBe("lawn-mowers");

  // A search keeps the category and starts again at page 1.
  const box = page.getByRole("searchbox", { name: "Search tools" });
  await box.fill("mower");
  await box.press("Enter");
  await expect.poll(() => params(page).get("q")).toBe("mower");
  expect(params(page).get("category")).toBe("lawn-mowers");
  await expect(page.getByRole("article").first()).toContainText(/mower/i);
});

test("a search sent from the catalogue in its default order comes by relevance, as the API ranks it; a sort the shopper chose stays", async ({ page, request }) => {
  const ranked = async (query: string) => {
    const response = await request.get(`/api/tool?${query}`);
    expect(response.status()).toBe(200);
    return ((await response.json()) as { name: string }[]).map((t) => t.name);
  };
  const byRelevance = await ranked("q=chainsaw&limit=12");
  const byPrice = await ranked("q=chainsaw&sort=price-desc&limit=12");
  expect(byRelevance.length).toBeGreaterThan(1);
  const names = page.getByTestId("tool-grid").getByTestId("tool-card").getByRole("heading");

  await page.goto("/tools");
  const box = page.getByRole("searchbox", { name: "Search tools" });
  await box.fill("chainsaw");
  await box.press("Enter");
  await expect.poll(() => params(page).get("q")).toBe("chainsaw");
  // Not the old default ('oldest', which the select sent before): relevance, as the API ranks it.
  expect(params(page).get("sort") ?? "").toBe("");
  await expect(names).toHaveText(byRelevance);
  await expect(page.getByLabel("Sort by").locator("option:checked")).toHaveText("Best match");

  await page.getByLabel("Sort by").selectOption({ label: "Price: high to low" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect.poll(() => params(page).get("sort")).toBe("price-desc");
  await expect(names).toHaveText(byPrice);
  await box.fill("chainsaw");
  await box.press("Enter");
  expect(params(page).get("sort")).toBe("price-desc");
  await expect(names).toHaveText(byPrice);
});

test("a tool's page: 'Book Now' leads to its purchase page; 'Add to Cart' says it needs JavaScript", async ({ page, request }) => {
  const [tool] = await listTools(request, 1);
  if (!tool) throw new Error("no tool in the catalogue");
  await page.goto(`/tools/${tool._id}`);
  await expect(page.getByRole("heading", { name: tool.name, level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add to Cart" })).toBeDisabled();
  await expect(page.getByText("Adding to the cart needs JavaScript. 'Book Now' works without it.", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Book Now" }).click();
  await expect.poll(() => pathOf(page)).toBe(`/purchase/${tool._id}`);
});
