import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations, listTools } from "../support/e2e-helpers";

/** The static pages, the 404 page, and an accessibility check of every public page (spec §2). */

const pathOf = (page: Page) => new URL(page.url()).pathname;

test.describe("static pages", () => {
  test("/about shows the heading 'About Us'", async ({ page }) => {
    await page.goto("/about");
    await expect(page.getByRole("heading", { name: "About Us", level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/about$/);
  });

  test("/blogs shows the five question-and-answer cards", async ({ page }) => {
    await page.goto("/blogs");
    const blogCards = page.getByTestId("blog-card");
    await expect(blogCards).toHaveCount(5);
    const topics = [/performance/i, /(manage|management).*state|state.*(manage|management)/i, /prototypal inheritance/i, /unit test/i, /not set state directly/i];
    const questions = blogCards.getByRole("heading");
    await expect(questions).toHaveCount(5);
    await expect(questions).toHaveText(topics);
    for (let i = 0; i < 5; i += 1) {
      // A question with an answer below it.
      const card = blogCards.nth(i);
      await expect(card).toBeVisible();
      expect((await card.locator("p").allTextContents()).join(" ").length).toBeGreaterThan(100);
    }
  });
});

test("a tool's page of a tool that is not in the catalogue answers 404 and says so", async ({ page }) => {
  expect((await page.goto("/tools/no-such-tool"))?.status()).toBe(404);
  await expect(page.getByText("We could not find this tool. It may have been removed from the catalogue.", { exact: true })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Browse all tools" })).toHaveAttribute("href", "/tools");
});

test.describe("404 page", () => {
  for (const path of ["/no-such-page", "/tools/extra/deep/path"]) {
    test(`an unknown path (${path}) shows the 404 image page with a way home`, async ({ page }) => {
      // A real 404 status, for search engines and link checkers.
      expect((await page.goto(path))?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      const image = page.getByRole("main").getByRole("img");
      await expect(image).toBeVisible();
      await expect(image).toHaveAccessibleName(/\S/);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // The layout stays around it.
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();

      await page.getByRole("main").getByRole("link", { name: /home/i }).click();
      await expect.poll(() => pathOf(page)).toBe("/");
      await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
    });
  }
});

test.describe("accessibility", () => {
  const PAGES: { path: string; ready: (page: Page) => Promise<void> }[] = [
    { path: "/", ready: (page) => expect(page.getByTestId("tool-card").first()).toBeVisible() },
    { path: "/tools", ready: (page) => expect(page.getByTestId("tool-card").first()).toBeVisible() },
    { path: "/about", ready: (page) => expect(page.getByRole("heading", { name: "About Us" })).toBeVisible() },
    { path: "/blogs", ready: (page) => expect(page.getByTestId("blog-card")).toHaveCount(5) },
    { path: "/legal", ready: (page) => expect(page.getByRole("heading", { name: "Cookie policy" })).toBeVisible() },
    { path: "/login", ready: (page) => expect(page.getByRole("button", { name: "LOGIN" })).toBeVisible() },
    { path: "/signup", ready: (page) => expect(page.getByRole("button", { name: "SIGN UP" })).toBeVisible() },
    { path: "/no-such-page", ready: (page) => expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible() },
  ];

  for (const { path, ready } of PAGES) {
    test(`${path} has no critical or serious axe violations`, async ({ page }) => {
      await page.goto(path);
      await ready(page);
      await expectNoSeriousViolations(page);
    });
  }

  test("the open mobile menu has no critical or serious axe violations", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    await expect(page.getByTestId("tool-card").first()).toBeVisible();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByTestId("mobile-menu")).toBeVisible();
    await expectNoSeriousViolations(page);
  });
});

test("every page has its own title, and the home page gets its own back", async ({ page, request }) => {
  const [tool] = await listTools(request, 1);
  if (!tool) throw new Error("the catalogue is empty");
  const pages: Array<[string, string | RegExp]> = [
    ["/tools", "All Tools · Toolyard"],
    ["/tools?category=chainsaws", "Chainsaws · Toolyard"],
    [`/tools/${tool._id}`, `${tool.name} · Toolyard`],
    ["/about", "About Us · Toolyard"],
    ["/blogs", "Questions & Answers · Toolyard"],
    ["/login", "Login · Toolyard"],
    ["/signup", "Sign Up · Toolyard"],
    ["/cart", "Your Cart · Toolyard"],
    ["/no-such-page", "Page not found · Toolyard"],
  ];
  await page.goto("/");
  const homeTitle = await page.title();
  expect(homeTitle).toMatch(/^Toolyard/);
  for (const [path, title] of pages) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
  // Client-side navigation back home restores the home page's title.
  await page.getByRole("banner").getByRole("link", { name: "Toolyard" }).click();
  await expect(page).toHaveTitle(homeTitle);
});

test("a page's title and description are React's document metadata: one of each in the head, page after page in the app", async ({ page, request }) => {
  const [tool] = await listTools(request, 1);
  if (!tool) throw new Error("the catalogue is empty");
  const head = async () => ({
    titles: await page.locator("title").count(),
    inHead: await page.locator("head > title").count(),
    descriptions: await page.locator('meta[name="description"]').evaluateAll((metas) => metas.map((meta) => meta.getAttribute("content"))),
  });
  await page.goto(`/tools/${tool._id}`);
  await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
  expect(await head()).toEqual({ titles: 1, inHead: 1, descriptions: [tool.description.slice(0, 160)] });
  // Moves within the app: React puts each page's own tags in and takes the last page's out.
  await page.getByRole("banner").getByRole("link", { name: "About" }).first().click();
  await expect(page).toHaveTitle("About Us · Toolyard");
  const about = await head();
  expect(about.titles).toBe(1);
  expect(about.inHead).toBe(1);
  expect(about.descriptions).toHaveLength(1);
  expect(about.descriptions[0]).not.toBe(tool.description.slice(0, 160));
  await page.goBack();
  await expect(page).toHaveTitle(`${tool.name} · Toolyard`);
  expect(await head()).toEqual({ titles: 1, inHead: 1, descriptions: [tool.description.slice(0, 160)] });
});
