import { expect, test, type Page } from "@playwright/test";
import { ENTRY_WAIT_MS } from "../../src/server/pages/deferred-entry";
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
  // The page came with the part of the stylesheet it uses in its head (beasties), and the app
  // brought the whole sheet (Vite's import() of it).
  expect(await page.locator("head style").count()).toBeGreaterThan(0);
  await expect(page.locator('head > link[rel="stylesheet"][href*="/assets/stylesheet-"]')).toHaveCount(1);
});

/**
 * What happened first, as the page went: the app taking #root over (`data-hydrated`), the whole
 * stylesheet's link arriving in the head, the root's first child, and whether the whole sheet was
 * applied by then.
 */
async function recordOrder(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { toolyardOrder: string[] }).toolyardOrder = seen;
    const wholeSheetApplied = () => [...document.styleSheets].some((sheet) => sheet.href?.includes("/assets/stylesheet-"));
    new MutationObserver((changes) => {
      for (const change of changes) {
        if (change.type === "attributes" && change.attributeName === "data-hydrated" && !seen.includes("hydrated")) seen.push("hydrated");
        for (const node of change.addedNodes) {
          if (node instanceof HTMLLinkElement && node.rel === "stylesheet" && node.href.includes("/assets/stylesheet-")) seen.push("sheet asked for");
          // Not the HTML parser's own insertions (a rendered page's), only a render by the app.
          const byTheApp = document.readyState !== "loading";
          if (byTheApp && change.target instanceof HTMLElement && change.target.id === "root" && !seen.some((s) => s.startsWith("first render"))) {
            seen.push(`first render, whole sheet ${wholeSheetApplied() ? "applied" : "missing"}`);
          }
        }
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-hydrated"] });
  });
  return () => page.evaluate(() => (window as unknown as { toolyardOrder: string[] }).toolyardOrder);
}

test("a rendered page asks for the whole stylesheet only once the app has taken it over", async ({ page }) => {
  const order = await recordOrder(page);
  await page.goto("/tools");
  await hydrated(page);
  await expect(page.locator('head > link[rel="stylesheet"][href*="/assets/stylesheet-"]')).toHaveCount(1);
  // The root came with its children from the server: no first render in the browser.
  expect(await order()).toEqual(["hydrated", "sheet asked for"]);
});

test("a page the browser renders waits for the whole stylesheet before its first render", async ({ page }) => {
  const order = await recordOrder(page);
  // A sheet slower than the app's code, as on a congested network: the app still waits for it.
  await page.route(/\/assets\/stylesheet-[\w-]+\.css$/, async (route) => {
    const response = await route.fetch();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.fulfill({ response });
  });
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: /login/i })).toBeVisible();
  await hydrated(page);
  expect(await order()).toEqual(["sheet asked for", "first render, whole sheet applied", "hydrated"]);
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

test("a rendered page carries Vite's own entry tags for its load event, the app's and its route's chunks held for the entry, its critical CSS inline, and one inline script", async ({ page }) => {
  const response = await page.goto("/tools");
  const html = (await response?.text()) ?? "";
  // Vite's entry tags, as built, in an inert template at the end of the body: the one inline
  // script (allowed by its hash: the CSP test above) adds them once the page has loaded.
  const entry = /<template id="toolyard-entry">([\s\S]*?)<\/template><script>([\s\S]*?)<\/script>\s*<\/body>/.exec(html);
  expect(entry?.[1]).toMatch(/^<script type="module" crossorigin fetchpriority="low" src="\/assets\/index-[\w-]+\.js"><\/script><link rel="modulepreload" crossorigin fetchpriority="low" href="\/assets\/preload-helper-[\w-]+\.js">$/);
  expect(entry?.[2]).toContain('"toolyard-entry"');
  expect(html.replace(entry?.[0] ?? "", "")).not.toMatch(/\/assets\/(index|preload-helper)-[\w-]+\.js/);
  // Fetched once the first screen is painted, when the entry moves them into the head.
  const held = /<template id="toolyard-preloads">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? "";
  expect(held).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/app-[\w-]+\.js">/);
  expect(held).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/tools-page-[\w-]+\.js">/);
  expect(html.replace(held, "")).not.toMatch(/\/assets\/(app|tools-page)-[\w-]+\.js/);
  // The rules the page uses in its head (beasties); the app asks for the whole sheet once it has
  // taken the page over, or a browser without JavaScript gets it from a <noscript> link at the end
  // of the body.
  const head = html.slice(0, html.indexOf("</head>"));
  expect(/<style>([\s\S]*?)<\/style>/.exec(head)?.[1]).toContain(".navbar");
  expect(head).not.toContain('rel="stylesheet"');
  expect(html).toMatch(/<noscript><link rel="stylesheet" href="\/assets\/stylesheet-[\w-]+\.css"><\/noscript>\s*<template id="toolyard-entry">/);
  expect(html.match(/<script>/g)).toHaveLength(1);
  expect(html).not.toMatch(/<script (?!type="module"|id="toolyard-state"|type="application\/ld\+json")/);
  await hydrated(page);
  // The entry was asked for once the page had loaded and its first screen was on screen, and the
  // app came.
  const timings = await page.evaluate(() => ({
    load: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventStart,
    painted: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Infinity,
    entry: performance.getEntriesByType("resource").filter((e) => /\/assets\/index-[\w-]+\.js$/.test(e.name)).map((e) => e.startTime),
  }));
  expect(timings.entry).toHaveLength(1);
  expect(timings.entry[0]).toBeGreaterThanOrEqual(timings.load);
  expect(timings.entry[0]).toBeGreaterThanOrEqual(timings.painted);
});

test("a page whose load event never comes is taken over once the entry stops waiting for it, not after a second wait", async ({ page }) => {
  // A picture that never arrives: the window's load event does not come.
  let stalled = 0;
  await page.route(/\/images\/.+\.(svg|png|jpe?g|webp|avif)$/, () => {
    stalled += 1;
  });
  await page.goto("/tools", { waitUntil: "domcontentloaded" });
  await hydrated(page);
  const timings = await page.evaluate(() => {
    const startOf = (pattern: RegExp) => performance.getEntriesByType("resource").find((e) => pattern.test(e.name))?.startTime ?? -1;
    return {
      loaded: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventStart,
      entry: startOf(/\/assets\/index-[\w-]+\.js$/),
      app: startOf(/\/assets\/app-[\w-]+\.js$/),
    };
  });
  expect(stalled).toBeGreaterThan(0);
  expect(timings.loaded).toBe(0);
  // The entry came after its wait for the load event (ENTRY_WAIT_MS, 3 s), and asked for the app
  // at once: not after a wait of its own for the same load event.
  expect(timings.entry).toBeGreaterThanOrEqual(ENTRY_WAIT_MS);
  expect(timings.app - timings.entry).toBeGreaterThanOrEqual(0);
  expect(timings.app - timings.entry).toBeLessThan(1000);
});

test.describe("input that comes before the page's code has run does what the HTML says", () => {
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

  test("a click on 'Next' sends the pager's form: the server renders page 2, and the app takes it over", async ({ page }) => {
    const { problems } = watch(page);
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const pager = page.getByRole("navigation", { name: "Pages" });
    await expect(pager.getByText("Page 1 of 2", { exact: true })).toBeVisible();
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(0);
    await pager.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => params(page).get("page")).toBe("2");
    await expect(pager.getByText("Page 2 of 2", { exact: true })).toBeVisible();
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(0);
    release();
    await hydrated(page);
    await expect(pager.getByText("Page 2 of 2", { exact: true })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("a carousel arrow clicked moves the carousel by its anchor, and the app keeps that slide", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/", { waitUntil: "commit" });
    const slides = page.getByTestId("carousel-slide");
    await expect(slides.nth(0)).toBeVisible();
    await slides.nth(0).getByRole("link", { name: "Previous slide" }).click();
    await expect(slides.nth(2)).toBeVisible();
    await expect(slides.nth(0)).toBeHidden();
    expect(new URL(page.url()).hash).toBe("#slide3");
    release();
    await hydrated(page);
    await expect(slides.nth(2)).toBeVisible();
    await expect(slides.nth(0)).toBeHidden();
    // The app moves it from there, in place.
    await slides.nth(2).getByRole("link", { name: "Next slide" }).click();
    await expect(slides.nth(0)).toBeVisible();
    await expect(slides.nth(2)).toBeHidden();
  });

  test("the phone menu opened before the code has run is open once the app takes the page over, and its button says so", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const release = await holdTheCode(page);
    await page.goto("/", { waitUntil: "commit" });
    const toggle = page.getByRole("banner").getByRole("button", { name: "Open menu" });
    const menu = page.getByTestId("mobile-menu");
    await toggle.click();
    await expect(menu).toBeVisible();
    release();
    await hydrated(page);
    await expect(menu).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await toggle.click();
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  test("a search typed and sent is a GET of /tools?q=, rendered by the server", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const box = page.getByRole("searchbox", { name: "Search tools" });
    await box.fill("chainsaw");
    await box.press("Enter");
    await expect.poll(() => params(page).get("q")).toBe("chainsaw");
    await expect(box).toHaveValue("chainsaw");
    await expect(page.getByRole("article").first()).toContainText(/chainsaw/i);
    release();
    await hydrated(page);
  });

  test("two prices typed and 'Apply' clicked are a GET of /tools with the range", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const range = page.getByRole("form", { name: "Price range" });
    await range.getByLabel("Min price ($)").fill("20");
    await range.getByLabel("Max price ($)").fill("300");
    await range.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => params(page).get("minPrice")).toBe("20");
    expect(params(page).get("maxPrice")).toBe("300");
    await expect(range.getByLabel("Min price ($)")).toHaveValue("20");
    release();
    await hydrated(page);
  });

  test("a category and a sort chosen before the code has run are shown once the app takes the page over", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    await page.getByLabel("Category").selectOption("chainsaws");
    await page.getByLabel("Sort").selectOption("price-desc");
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(0);
    release();
    await hydrated(page);
    await expect.poll(() => params(page).get("category")).toBe("chainsaws");
    expect(params(page).get("sort")).toBe("price-desc");
    await expect(page.getByRole("heading", { level: 1, name: "Chainsaws" })).toBeVisible();
    await expect(page.getByLabel("Category")).toHaveValue("chainsaws");
    await expect(page.getByLabel("Sort")).toHaveValue("price-desc");
  });

  test("prices typed before the code has run are the ones 'Apply' sends once the app has taken the page over", async ({ page }) => {
    const release = await holdTheCode(page);
    await page.goto("/tools", { waitUntil: "commit" });
    const range = page.getByRole("form", { name: "Price range" });
    await range.getByLabel("Min price ($)").fill("20");
    await range.getByLabel("Max price ($)").fill("300");
    release();
    await hydrated(page);
    await range.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => params(page).get("minPrice")).toBe("20");
    expect(params(page).get("maxPrice")).toBe("300");
  });

  test("'Add to Cart' is disabled until the app has taken the page over, then adds", async ({ page, request }) => {
    const [tool] = await listTools(request, 1);
    if (!tool) throw new Error("no tool");
    const release = await holdTheCode(page);
    await page.goto(`/tools/${tool._id}`, { waitUntil: "commit" });
    const add = page.getByRole("button", { name: "Add to Cart" });
    await expect(add).toBeDisabled();
    release();
    await hydrated(page);
    await expect(add).toBeEnabled();
    await add.click();
    await expect(page.getByText(`${tool.name} is in your cart.`)).toBeVisible();
  });
});
