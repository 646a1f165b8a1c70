import { expect, test, type Locator, type Page, type Response } from "@playwright/test";
import { HOME_TOOLS_COUNT } from "../../src/contract/constants";

/** The home page's carousel, grids, 'Book Now', list states and code splitting (spec §2, §9). */

interface ApiTool {
  _id: string;
  name: string;
}

/** The home page shows the API's default page: 12 of the 16 demo tools. */
const HOME_TOOLS = HOME_TOOLS_COUNT;

const SLIDE_TITLES = ["Tools that last a lifetime", "A lawn to be proud of", "Cut through the season"] as const;

/** Columns of a CSS grid, as the browser resolved them. */
const gridColumns = (grid: Locator) =>
  grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").filter(Boolean).length);

/** Columns as a person sees them: how many cards sit side by side in the first row. */
async function cardsInFirstRow(cards: Locator): Promise<number> {
  const boxes = [];
  for (const card of await cards.all()) {
    const box = await card.boundingBox();
    // A card a phone does not show (the home page shows its first few there) has no box.
    if (box) boxes.push(box);
  }
  const top = Math.min(...boxes.map((b) => b.y));
  const firstRow = boxes.filter((b) => Math.abs(b.y - top) < 2);
  // Side by side: distinct left edges, none overlapping the next.
  const xs = [...new Set(firstRow.map((b) => Math.round(b.x)))];
  expect(xs.length, "cards in the first row must not overlap").toBe(firstRow.length);
  return firstRow.length;
}

async function gotoHomeWithTools(page: Page) {
  await page.goto("/");
  await expect(page.getByTestId("tool-grid").getByTestId("tool-card")).toHaveCount(HOME_TOOLS);
}

test.describe("'Our Tools' and category grids", () => {
  for (const { width, columns } of [
    { width: 375, columns: 1 },
    { width: 768, columns: 2 },
    { width: 1280, columns: 3 },
  ]) {
    test(`'Our Tools' has ${columns} column(s) at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await gotoHomeWithTools(page);
      const grid = page.getByTestId("tool-grid");
      expect(await gridColumns(grid)).toBe(columns);
      expect(await cardsInFirstRow(grid.getByTestId("tool-card"))).toBe(columns);
    });
  }

  test("a phone shows four tools with 'See all tools', so the home page stays a short scroll", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await gotoHomeWithTools(page);
    const cards = page.getByTestId("tool-grid").getByTestId("tool-card");
    const shown = await cards.evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().height > 0).length);
    expect(shown).toBe(4);
    await expect(page.getByRole("link", { name: "See all tools" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(7000);
    // Wider screens show them all.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await cards.evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().height > 0).length)).toBe(HOME_TOOLS);
  });

  for (const width of [375, 1280]) {
    test(`the category grid has 4 columns at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      const grid = page.getByTestId("category-grid");
      const cards = grid.getByTestId("category-card");
      await expect(cards).toHaveCount(4);
      await expect(cards).toHaveText(["Hand Tools", "Lawn Mowers", "Power Tools", "Chainsaws"]);
      expect(await gridColumns(grid)).toBe(4);
      expect(await cardsInFirstRow(cards)).toBe(4);
    });
  }
});

test.describe("'Book Now'", () => {
  test("on a home tool card leads to /purchase/<that tool's _id>, which sends a visitor to log in", async ({ page, request }) => {
    const response = await request.get("/api/tool");
    expect(response.status()).toBe(200);
    const tools = (await response.json()) as ApiTool[];
    expect(tools).toHaveLength(HOME_TOOLS);

    await gotoHomeWithTools(page);
    const cards = page.getByTestId("tool-grid").getByTestId("tool-card");
    // The home list shows the API's first page of tools, in its order.
    await expect(cards.getByRole("heading")).toHaveText(tools.map((t) => t.name));

    // Not the first card, so a link that ignored the tool would be caught.
    const tool = tools[2];
    if (!tool) throw new Error("no third tool");
    const card = cards.filter({ has: page.getByRole("heading", { name: tool.name, exact: true }) });
    const bookNow = card.getByRole("button", { name: "Book Now" });
    await expect(bookNow).toHaveAttribute("href", `/purchase/${tool._id}`);

    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    const throughPurchase = page.waitForURL(`**/purchase/${tool._id}`);
    await bookNow.click();
    await throughPurchase;
    // /purchase is for signed-in customers: a visitor lands on the login form...
    await expect.poll(() => new URL(page.url()).pathname).toBe("/login");
    await expect(page.getByRole("heading", { name: "Login", exact: true })).toBeVisible();
    // (The redirect may report /login more than once; it is the same page. The cards are in the
    // server's HTML, so the app may still be taking the home page over when the listener starts:
    // its router then reports "/" itself, a same-document update before the click.)
    const led = visited.filter((path, i) => path !== visited[i - 1]);
    while (led[0] === "/") led.shift();
    expect(led).toEqual([`/purchase/${tool._id}`, "/login"]);
    // ...which replaced the purchase entry, remembering it as the place to return to.
    const from = await page.evaluate(() => (window.history.state as { usr?: { from?: string } } | null)?.usr?.from);
    expect(from).toBe(`/purchase/${tool._id}`);
  });
});

test.describe("carousel", () => {
  const visibleSlides = (page: Page) => page.locator('[data-testid="carousel-slide"]:visible');

  async function expectSlide(page: Page, index: number) {
    await expect(visibleSlides(page)).toHaveCount(1);
    await expect(visibleSlides(page).getByRole("heading")).toHaveText(SLIDE_TITLES[index] ?? "");
    await expect(page.locator(`#slide${index + 1}`)).toBeVisible();
  }

  test("has three slides and shows one at a time", async ({ page }) => {
    await page.goto("/");
    const slides = page.getByTestId("carousel-slide");
    await expect(slides).toHaveCount(3);
    await expect(slides.getByRole("heading", { includeHidden: true })).toHaveText([...SLIDE_TITLES]);
    await expectSlide(page, 0);
    for (const title of SLIDE_TITLES.slice(1)) {
      await expect(page.getByRole("heading", { name: title })).toBeHidden();
    }
  });

  test("'Next slide' moves forward and wraps from the third slide to the first", async ({ page }) => {
    await page.goto("/");
    await expectSlide(page, 0);
    for (const expected of [1, 2, 0]) {
      const next = page.getByRole("link", { name: "Next slide" });
      await expect(next).toHaveAttribute("href", `#slide${expected + 1}`);
      await next.click();
      await expectSlide(page, expected);
    }
  });

  test("'Previous slide' on the first slide shows the third, then goes back", async ({ page }) => {
    await page.goto("/");
    await expectSlide(page, 0);
    for (const expected of [2, 1, 0]) {
      const previous = page.getByRole("link", { name: "Previous slide" });
      await expect(previous).toHaveAttribute("href", `#slide${expected + 1}`);
      await previous.click();
      await expectSlide(page, expected);
    }
  });

  test("is moved by anchors #slide1..#slide3 that target the slides", async ({ page }) => {
    await page.goto("/");
    const anchors = page.getByTestId("carousel-slide").locator("a");
    await expect(anchors).toHaveCount(6);
    const hrefs = await anchors.evaluateAll((els) => els.map((a) => a.getAttribute("href")));
    expect([...new Set(hrefs)].sort()).toEqual(["#slide1", "#slide2", "#slide3"]);
    const ids = await page.getByTestId("carousel-slide").evaluateAll((els) => els.map((el) => el.id));
    expect(ids).toEqual(["slide1", "slide2", "slide3"]);
  });
});

test.describe("'Our Tools' loading, empty and error states", () => {
  const ourTools = (page: Page) => page.getByRole("region", { name: "Our Tools" });
  /**
   * The home page as the browser renders it when a visitor comes to it from another page (the
   * server's HTML of / already holds the tools, so these states show on a move within the app).
   */
  const openHome = async (page: Page) => {
    await page.goto("/about");
    await expect(page.locator("#root[data-hydrated]")).toHaveCount(1);
    await page.getByTestId("desktop-menu").getByRole("link", { name: "Home" }).click();
  };

  test("a failing API shows an error with 'Try again', which loads the tools once the API is back", async ({ page }) => {
    let failures = 0;
    await page.route("**/api/tool*", async (route) => {
      failures += 1;
      await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "INTERNAL" }) });
    });
    await openHome(page);
    const section = ourTools(page);
    const alert = section.getByRole("alert");
    // Server errors are retried twice before the error shows (about 3 s).
    await expect(alert).toBeVisible({ timeout: 15_000 });
    await expect(alert).toContainText("Something went wrong");
    await expect(section.getByTestId("tool-card")).toHaveCount(0);
    expect(failures).toBeGreaterThanOrEqual(1);

    await page.unroute("**/api/tool*");
    await alert.getByRole("button", { name: "Try again" }).click();
    await expect(section.getByTestId("tool-card")).toHaveCount(HOME_TOOLS);
    await expect(section.getByRole("alert")).toHaveCount(0);
  });

  test("an empty catalogue says so", async ({ page }) => {
    await page.route("**/api/tool*", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", headers: { "x-total-count": "0" }, body: "[]" }),
    );
    await openHome(page);
    const section = ourTools(page);
    await expect(section.getByText("No tools in the catalogue yet.")).toBeVisible();
    await expect(section.getByTestId("tool-card")).toHaveCount(0);
    await expect(section.getByRole("alert")).toHaveCount(0);
    // The rest of the page is unaffected.
    await expect(page.getByTestId("category-card")).toHaveCount(4);
  });

  test("a slow API shows 'Loading…' until the tools arrive", async ({ page }) => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/tool*", async (route) => {
      await gate;
      await route.continue();
    });
    await openHome(page);
    const section = ourTools(page);
    const status = section.getByRole("status");
    await expect(status).toBeVisible();
    await expect(status).toHaveText("Loading…");
    await expect(section.getByTestId("tool-card")).toHaveCount(0);

    release();
    await expect(section.getByTestId("tool-card")).toHaveCount(HOME_TOOLS);
    await expect(section.getByRole("status")).toHaveCount(0);
  });
});

test.describe("route-level code splitting", () => {
  const OTHER_PAGES = [
    "tools-page-",
    "blogs-page-",
    "about-page-",
    "legal-page-",
    "login-page-",
    "signup-page-",
    "purchase-page-",
    "dashboard-layout-",
    "my-orders-",
    "not-found-page-",
  ];

  test("the home page loads no other page's code; /blogs loads its own chunk", async ({ page }) => {
    const scripts: string[] = [];
    const encodings = new Set<string>();
    const sent: Promise<number>[] = [];
    page.on("request", (req) => {
      const file = new URL(req.url()).pathname;
      if (file.endsWith(".js")) scripts.push(file.split("/").pop() ?? file);
    });
    const onResponse = (res: Response) => {
      if (!new URL(res.url()).pathname.endsWith(".js")) return;
      encodings.add(res.headers()["content-encoding"] ?? "none");
      sent.push(res.finished().then(async () => (await res.request().sizes()).responseBodySize));
    };
    page.on("response", onResponse);
    await page.goto("/");
    await expect(page.getByTestId("tool-card")).toHaveCount(HOME_TOOLS);
    await expect(page.getByTestId("review-card").first()).toBeVisible();
    // Nothing more is on its way (no late prefetch of other pages).
    await page.waitForLoadState("networkidle");

    expect(scripts.length, "the home page loads some JavaScript").toBeGreaterThan(0);
    // Sent compressed: the build's brotli files (small chunks under 1 KB go as they are).
    expect(encodings).toContain("br");
    expect([...encodings].every((e) => e === "br" || e === "none")).toBe(true);
    // The home page's budget: at most 85 KB of JavaScript on the wire (npm run bench:page has the
    // detail; decision 0025: its first load runs without the router and the data layer).
    const bytes = (await Promise.all(sent)).reduce((sum, n) => sum + n, 0);
    // Measured: the next page (a new document since decision 0025) is not the home page's to count, and
    // a size asked of its responses once the test has closed the page would be an error of no test.
    page.off("response", onResponse);
    expect(bytes, `${(bytes / 1024).toFixed(1)} KB of JavaScript`).toBeLessThanOrEqual(85 * 1024);
    const otherPages = scripts.filter((name) => OTHER_PAGES.some((prefix) => name.startsWith(prefix)));
    expect(otherPages).toEqual([]);

    const blogsChunk = page.waitForRequest((req) => /\/blogs-page-[\w-]+\.js$/.test(new URL(req.url()).pathname));
    await page.getByTestId("desktop-menu").getByRole("link", { name: "Blogs" }).click();
    await blogsChunk;
    await expect(page.getByTestId("blog-card")).toHaveCount(5);
    expect(scripts.some((name) => name.startsWith("blogs-page-"))).toBe(true);
  });
});
