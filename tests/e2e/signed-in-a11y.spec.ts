import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ACCOUNT_PAGE_TEXT } from "../../src/contract/texts/trade";
import { listTools, newAccount, signedInPage } from "../support/e2e-helpers";

/** The signed-in pages (purchase and dashboard) meet the same accessibility bar as the public ones. */

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("the purchase page and every dashboard page have no critical or serious axe violations", async ({ page, request }) => {
  test.slow(); // five pages, each analysed in full
  await signedInPage(page, newAccount("a11y"));
  const [tool] = await listTools(request, 1);
  if (!tool) throw new Error("the catalogue is empty");

  await page.goto(`/purchase/${tool._id}`);
  await expect(page.getByRole("button", { name: "Ordered" })).toBeVisible();
  await expectNoSeriousViolations(page);

  // With an order listed, so the table is analysed too.
  await page.getByRole("button", { name: "Ordered" }).click();
  await expect(page.getByTestId("order-row")).toHaveCount(1);
  // The new order's toast, as a shopper reads it: once it has finished sliding in (react-toastify
  // drops its enter class then; analysed mid-animation its colours were half faded in), with the
  // pointer on it, which holds it open (else it slides out after 5 s, under the analysis).
  const placed = page.locator(".Toastify__toast").filter({ hasText: /^Order #\d+ placed$/ });
  await expect(placed).toBeVisible();
  await expect(placed).not.toHaveClass(/bounce-enter/);
  await placed.hover();
  await expect(placed).not.toHaveClass(/bounce-exit/);
  await expectNoSeriousViolations(page);

  await page.goto("/dashboard/review");
  await expect(page.getByLabel("Rating out of 5")).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.goto("/dashboard/profile");
  await expect(page.getByLabel("Address")).toBeVisible();
  await expectNoSeriousViolations(page);

  // A customer in no trade account: the application form (issue 43).
  await page.goto("/dashboard/account");
  await expect(page.getByRole("form", { name: ACCOUNT_PAGE_TEXT.applyTitle })).toBeVisible();
  await expectNoSeriousViolations(page);
});
