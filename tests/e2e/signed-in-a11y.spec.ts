import { expect, test } from "@playwright/test";
import { ACCOUNT_PAGE_TEXT } from "../../src/contract/texts/trade";
import { expectNoSeriousViolations, listTools, newAccount, signedInPage } from "../support/e2e-helpers";

/** The signed-in pages (purchase and dashboard) meet the same accessibility bar as the public ones. */

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
  // The new order's toast is analysed with the page (the helper reads it once it has slid in).
  await expect(page.locator(".Toastify__toast").filter({ hasText: /^Order #\d+ placed$/ })).toBeVisible();
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
