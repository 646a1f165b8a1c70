import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "../support/e2e-helpers";

test.describe("home page", () => {
  test("shows every section with the spec's texts", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Our Tools" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Reviews Here" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Special Looks" })).toBeVisible();
    for (const category of ["Hand Tools", "Lawn Mowers", "Power Tools", "Chainsaws"]) {
      await expect(page.getByTestId("category-grid").getByText(category, { exact: true })).toBeVisible();
    }
    await expect(page.getByTestId("statistic")).toHaveText(["72 countries", "535+ projects", "273+ clients", "433+ feedbacks"]);
    await expect(page.getByTestId("statistics").getByText("535+", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Request For Quote" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Contact US" })).toBeVisible();
    await expect(page.getByTestId("info-card")).toHaveCount(3);
    await expect(page.getByTestId("tool-card").first()).toBeVisible();
    const firstCard = page.getByTestId("tool-card").first();
    await expect(firstCard.getByTestId("tool-price")).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(page.getByTestId("review-card").first()).toBeVisible();
    await expect(page.getByTestId("copyright")).toContainText(String(new Date().getFullYear()));
  });

  test("has no critical or serious accessibility violations", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("tool-card").first()).toBeVisible();
    await expectNoSeriousViolations(page);
  });
});
