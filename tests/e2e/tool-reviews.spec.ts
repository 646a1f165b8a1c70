/**
 * Issue 42 in the real store: a customer reviews a delivered tool from the order page and finds it
 * on the tool's page as a verified purchase; the tool page's reviews (average, count, stars,
 * paging, sorting) work with JavaScript off; the catalogue's controls are one form without it.
 */
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, listTools, signedInPage, signInAsAdmin } from "../support/e2e-helpers";

interface ApiTool {
  _id: string;
  name: string;
  minimumQuantity: number;
  rating: { average: number; count: number };
}

test("a customer reviews a delivered tool from the order page; the tool page shows it as a verified purchase", async ({ page }) => {
  const account = await signedInPage(page);
  const [tool] = (await listTools(page.request, 100)).filter((t) => t.minimumQuantity === 1) as unknown as ApiTool[];
  if (!tool) throw new Error("no tool with a minimum of 1");
  const placed = await page.request.post("/api/order", { headers: { origin: APP_URL }, data: { toolId: tool._id, quantity: 1 } });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = (await placed.json()) as { _id: string };
  // The owner delivers it.
  const admin = await playwrightRequest.newContext({ baseURL: APP_URL });
  await signInAsAdmin(admin);
  for (const status of ["paid", "shipped", "delivered"]) {
    const moved = await admin.post(`/api/admin/orders/${order._id}/status`, { headers: { origin: APP_URL }, data: { status } });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  await admin.dispose();

  await page.goto(`/dashboard/orders/${order._id}`);
  const reviews = page.getByTestId("order-reviews");
  await reviews.getByText(`Review this tool: ${tool.name}`).click();
  const form = reviews;
  // The form's rules are the API's: no rating, no text → told at the fields, nothing sent.
  await form.getByRole("button", { name: "Post review" }).click();
  await expect(form.getByText("Rating must be a whole number from 1 to 5")).toBeVisible();
  await expect(form.getByText("Please write your review")).toBeVisible();
  const body = `Sharp out of the box, <b>no</b> complaints ${Date.now()}`;
  await form.getByLabel("4 stars").check();
  await form.getByLabel("Title (optional)").fill("Does the job");
  await form.getByLabel("Your review").fill(body);
  await form.getByRole("button", { name: "Post review" }).click();
  await expect(reviews.getByText("Thank you! Your review is posted.")).toBeVisible();

  // On the tool's page, newest first: as text, by the account's name, a verified purchase.
  await page.goto(`/tools/${tool._id}`);
  const section = page.getByTestId("tool-reviews");
  const mine = section.getByTestId("tool-review").filter({ hasText: body });
  await expect(mine).toBeVisible();
  await expect(mine).toContainText("Verified purchase");
  await expect(mine).toContainText(account.name);
  await expect(mine).toContainText("Rated 4 out of 5");
  await expect(section.getByTestId("tool-review").first()).toContainText(body);
  // A second review of the same tool is not offered.
  await expect(section.getByTestId("review-not-allowed")).toHaveText("You have reviewed this tool already.");
  const after = (await (await page.request.get(`/api/tool/${tool._id}`)).json()) as ApiTool;
  expect(after.rating.count).toBe(tool.rating.count + 1);
  await expectNoSeriousViolations(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  const params = (page: Page) => new URL(page.url()).searchParams;

  test("a tool page's reviews: average, count, stars, newest first, sorted and paged by GET", async ({ page }) => {
    // The demo gives every tool three reviews; the first tool with the most reviews has two pages once it has six.
    const tools = (await listTools(page.request, 100)) as unknown as ApiTool[];
    const tool = [...tools].sort((a, b) => b.rating.count - a.rating.count)[0] as ApiTool;
    await page.goto(`/tools/${tool._id}`);
    const section = page.getByTestId("tool-reviews");
    await expect(section.getByRole("heading", { name: "Customer reviews", level: 2 })).toBeVisible();
    const summary = (await (await page.request.get(`/api/tool/${tool._id}/reviews/summary`)).json()) as { average: number; count: number; stars: { stars: number; count: number }[] };
    await expect(section.getByTestId("rating-summary")).toContainText(`${summary.average.toFixed(1)} out of 5 from ${summary.count} reviews`);
    for (const row of summary.stars) await expect(section.getByLabel(`${row.stars} ${row.stars === 1 ? "star" : "stars"}: ${row.count} ${row.count === 1 ? "review" : "reviews"}`)).toBeVisible();
    const shown = await section.getByTestId("tool-review").count();
    expect(shown).toBe(Math.min(5, summary.count));

    // Lowest rated first, through the sort form's button.
    await section.getByLabel("Sort reviews").selectOption({ label: "Lowest rated" });
    await section.getByRole("button", { name: "Show" }).click();
    await expect.poll(() => params(page).get("reviewSort")).toBe("rating-asc");
    const ratings = (await section.getByTestId("tool-review-rating").allTextContents()).map((t) => Number(/Rated (\d)/.exec(t)?.[1]));
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    expect(ratings[0]).toBe(Math.min(...summary.stars.filter((s) => s.count > 0).map((s) => s.stars)));
    // The 'Write a review' part asks a visitor to log in.
    await expect(section.getByRole("link", { name: "Log in to review this tool" })).toHaveAttribute("href", "/login");
    if (summary.count > 5) {
      await section.getByRole("link", { name: "More reviews" }).click();
      await expect.poll(() => params(page).get("reviewPage")).toBe("2");
      expect(params(page).get("reviewSort")).toBe("rating-asc");
    }
  });

  test("the catalogue's category, sort, price range and search go together from any button", async ({ page }) => {
    await page.goto("/tools");
    await page.getByLabel("Category").selectOption({ label: "Power Tools" });
    await page.getByLabel("Sort by").selectOption({ label: "Best rated" });
    const range = page.getByRole("form", { name: "Price range" });
    await range.getByLabel("Min price ($)").fill("50");
    await range.getByLabel("Max price ($)").fill("200");
    // 'Apply' of the price range: the category and sort chosen above are kept.
    await range.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => params(page).get("minPrice")).toBe("50");
    expect(Object.fromEntries([...params(page)].filter(([, v]) => v !== ""))).toEqual({ category: "power-tools", sort: "rating", minPrice: "50", maxPrice: "200" });
    await expect(page.getByRole("heading", { name: "Power Tools", level: 1 })).toBeVisible();
    const averages = (await page.getByRole("article").getByTestId("tool-rating").allTextContents()).map((t) => Number(/([\d.]+) \(/.exec(t)?.[1] ?? 0));
    expect(averages.length).toBeGreaterThan(0);
    expect(averages).toEqual([...averages].sort((a, b) => b - a));

    // 'Show' with a new sort and a typed search: the price range stays.
    await page.getByLabel("Sort by").selectOption({ label: "Price: high to low" });
    await page.getByRole("searchbox", { name: "Search tools" }).fill("saw");
    await page.getByRole("button", { name: "Show" }).click();
    await expect.poll(() => params(page).get("sort")).toBe("price-desc");
    expect(params(page).get("q")).toBe("saw");
    expect(params(page).get("minPrice")).toBe("50");
    expect(params(page).get("category")).toBe("power-tools");
    // 'Search' too.
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => params(page).get("q")).toBe("saw");
    expect(params(page).get("maxPrice")).toBe("200");
  });
});
