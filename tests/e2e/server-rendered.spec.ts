import { expect, test, type Page } from "@playwright/test";
import { listTools } from "../support/e2e-helpers";

/**
 * Public pages arrive rendered from the server (entry-server.tsx); the browser takes them over
 * (hydration) without a mismatch and without fetching again what the HTML holds.
 */

/** Console errors and warnings of the page, hydration's among them, and the API calls it makes. */
function watch(page: Page) {
  const problems: string[] = [];
  const apiCalls: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/") && !url.pathname.startsWith("/api/auth/")) apiCalls.push(`${url.pathname}${url.search}`);
  });
  return { problems, apiCalls };
}

/** React answers clicks only once it has hydrated: a carousel arrow that moves the slide proves it. */
async function hydrated(page: Page) {
  await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
}

test("the home page hydrates without a warning, fetches no tool or review again, and reacts", async ({ page }) => {
  const { problems, apiCalls } = watch(page);
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await hydrated(page);
  await expect(page.getByTestId("tool-card").first()).toBeVisible();
  // Interactive: the carousel's next arrow shows the second slide without leaving the page.
  await page.getByRole("link", { name: "Next slide" }).first().click();
  await expect(page.getByTestId("carousel-slide").nth(1)).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(problems).toEqual([]);
  expect(apiCalls.filter((call) => call.startsWith("/api/tool") || call.startsWith("/api/review"))).toEqual([]);
  // The page came with the part of the stylesheet it uses; the whole sheet follows once the app has it.
  const rest = await page.locator("style[data-rest]").getAttribute("data-rest");
  expect(rest).toMatch(/^\/assets\/index-[\w-]+\.css$/);
  await expect(page.locator(`link[rel="stylesheet"][href="${rest}"]`)).toHaveCount(1);
});

test("a tool page hydrates without a warning and without fetching its tool again; its links work", async ({ page, request }) => {
  const [tool] = await listTools(request);
  if (!tool) throw new Error("the demo catalogue is empty");
  const { problems, apiCalls } = watch(page);
  expect((await page.goto(`/tools/${tool._id}`))?.status()).toBe(200);
  await hydrated(page);
  await expect(page.getByRole("heading", { name: tool.name, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(`${tool.name} · Toolyard`);
  await page.waitForLoadState("networkidle");
  expect(problems).toEqual([]);
  expect(apiCalls.filter((call) => call.startsWith("/api/tool"))).toEqual([]);
  // A client-side move: the category link renders the catalogue in the browser.
  await page.getByRole("main").getByRole("link", { name: /tools|mowers|saws/i }).first().click();
  await expect(page).toHaveURL(/\/tools\?category=/);
  await expect(page.getByTestId("tool-card").first()).toBeVisible();
});

for (const path of ["/tools", "/tools?category=power-tools&page=1", "/about", "/blogs", "/legal", "/no-such-page", "/tools/no-such-tool"]) {
  test(`${path} hydrates without a warning`, async ({ page }) => {
    const { problems } = watch(page);
    await page.goto(path);
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    // The 404 answers are the document's status, which Chromium reports as a console error.
    expect(problems.filter((text) => !/status of 404/.test(text))).toEqual([]);
  });
}

test("no page breaks the Content Security Policy (Chrome's issues, which the console does not show)", async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  const issues: string[] = [];
  cdp.on("Audits.issueAdded", (event) => {
    if (event.issue.code === "ContentSecurityPolicyIssue") issues.push(JSON.stringify(event.issue.details));
  });
  await cdp.send("Audits.enable");
  for (const path of ["/login", "/signup", "/", "/tools"]) {
    await page.goto(path);
    await hydrated(page);
    await page.waitForLoadState("networkidle");
  }
  expect(issues).toEqual([]);
});

test("the page's code is asked for once the first screen's biggest picture is shown, not between the first paint and it", async ({ page }) => {
  // Asked for earlier, the code shares a slow phone's network with the picture (app-loader.ts).
  let released = 0;
  let firstScript = 0;
  await page.route("**/images/slides/slide-1.svg", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    released = Date.now();
    await route.continue();
  });
  page.on("request", (request) => {
    if (firstScript === 0 && request.resourceType() === "script" && new URL(request.url()).pathname.startsWith("/assets/")) firstScript = Date.now();
  });
  await page.goto("/");
  await hydrated(page);
  expect(released).toBeGreaterThan(0);
  expect(firstScript).toBeGreaterThan(released);
});

test.describe("input that comes before the page's code has run", () => {
  /** Holds the app's entry script back until `release()`: the server's HTML is on screen, React is not. */
  async function holdTheCode(page: Page) {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }
  const params = (page: Page) => new URL(page.url()).searchParams;

  test("a click on 'Next' is acted on once the code has run", async ({ page }) => {
    const { problems } = watch(page);
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const pager = page.getByRole("navigation", { name: "Pages" });
    await expect(pager.getByText("Page 1 of 2", { exact: true })).toBeVisible();
    await pager.getByRole("button", { name: "Next" }).click();
    // Nothing can happen yet: no code has run.
    expect(params(page).get("page")).toBeNull();
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(0);
    release();
    await expect.poll(() => params(page).get("page")).toBe("2");
    await expect(pager.getByText("Page 2 of 2", { exact: true })).toBeVisible();
    await hydrated(page);
    expect(problems).toEqual([]);
  });

  test("a carousel arrow clicked is acted on once the code has run, without a jump to its anchor", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/", { waitUntil: "commit" });
    const slides = page.getByTestId("carousel-slide");
    await expect(slides.nth(0)).toBeVisible();
    await page.getByRole("link", { name: "Previous slide" }).click();
    // Held: the anchor's own jump (to #slide3, a slide still hidden) would be lost at hydration.
    expect(new URL(page.url()).hash).toBe("");
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(0);
    release();
    await expect(slides.nth(2)).toBeVisible();
    await expect(slides.nth(0)).toBeHidden();
    await hydrated(page);
    expect(new URL(page.url()).hash).toBe("");
  });

  test("a category chosen in the select is acted on once the code has run", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    await expect(page.getByRole("heading", { name: "All Tools", level: 1 })).toBeVisible();
    await page.getByLabel("Category").selectOption({ label: "Lawn Mowers" });
    expect(params(page).get("category")).toBeNull();
    release();
    await expect.poll(() => params(page).get("category")).toBe("lawn-mowers");
    await expect(page.getByRole("heading", { name: "Lawn Mowers", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Category")).toHaveValue("lawn-mowers");
  });

  test("a search typed and sent is acted on once the code has run, with what was typed", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const box = page.getByRole("searchbox", { name: "Search tools" });
    await box.fill("chainsaw");
    await box.press("Enter");
    expect(params(page).get("q")).toBeNull();
    release();
    await expect.poll(() => params(page).get("q")).toBe("chainsaw");
    await expect(box).toHaveValue("chainsaw");
    await expect(page.getByRole("article").first()).toContainText(/chainsaw/i);
  });

  test("a click React will never manage does not hold up what came after it for long", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const pager = page.getByRole("navigation", { name: "Pages" });
    await expect(pager.getByText("Page 1 of 2", { exact: true })).toBeVisible();
    // A button outside the app (as a browser extension might add): held like any other, never taken over.
    await page.evaluate(() => document.body.prepend(Object.assign(document.createElement("button"), { textContent: "Not the app's" })));
    await page.getByRole("button", { name: "Not the app's" }).click();
    await pager.getByRole("button", { name: "Next" }).click();
    release();
    await hydrated(page);
    // Let go 3 s after the page is the app's (early-input.ts), then 'Next' is done.
    await expect.poll(() => params(page).get("page"), { timeout: 8_000 }).toBe("2");
  });

  test("two prices typed and 'Apply' clicked are acted on in that order once the code has run", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const range = page.getByRole("form", { name: "Price range" });
    await range.getByLabel("Min price ($)").fill("20");
    await range.getByLabel("Max price ($)").fill("300");
    await range.getByRole("button", { name: "Apply" }).click();
    release();
    await expect.poll(() => params(page).get("minPrice")).toBe("20");
    expect(params(page).get("maxPrice")).toBe("300");
    await expect(range.getByLabel("Min price ($)")).toHaveValue("20");
  });
});
