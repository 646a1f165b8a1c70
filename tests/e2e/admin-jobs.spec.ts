/**
 * The console's failed jobs (decision 0021), in the real store: the page reads the real
 * GET /api/admin/jobs/failed; its rows, its empty and its error states are then shown with that
 * answer stood in by the browser (a job fails for good here only after minutes of backoff), and a
 * row's Retry sends POST …/retry for that job and reads the list again. axe on the page.
 */
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations, signInAsAdmin } from "../support/e2e-helpers";

const FAILED = "**/api/admin/jobs/failed";
const jobs = [
  { _id: "0b6b8f0e-5a59-4a1f-9c55-1d0a7c7e0a01", queue: "mail", error: "550 Mailbox unavailable", attempts: 8, failedAt: "2026-12-01T10:15:00.000Z" },
  { _id: "0b6b8f0e-5a59-4a1f-9c55-1d0a7c7e0a02", queue: "stock-alerts", error: "connection refused", attempts: 6, failedAt: "2026-12-01T09:00:00.000Z" },
];

const openJobs = async (page: Page) => {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Failed jobs" }).click();
  await expect(page.getByRole("heading", { name: "Failed jobs" })).toBeVisible();
};

test("the failed jobs page lists the store's own answer, whatever it holds", async ({ page }) => {
  await signInAsAdmin(page.request);
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/admin/jobs/failed") && r.request().method() === "GET");
  await openJobs(page);
  const real = (await (await answer).json()) as unknown[];
  if (real.length === 0) await expect(page.getByText("No failed job: all background work ran.")).toBeVisible();
  else await expect(page.getByTestId("failed-job-row")).toHaveCount(real.length);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("lists failed jobs with queue, error, when and attempts; Retry sends that job again and it leaves the list", async ({ page }) => {
  // Two axe runs and a retry: on a loaded 2-core machine this came within 2 s of the 30 s default.
  test.slow();
  await signInAsAdmin(page.request);
  let listed = jobs;
  const retried: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // The first answer waits until the page has shown that it is loading.
  await page.route(FAILED, async (route) => {
    await held;
    await route.fulfill({ json: listed });
  });
  await page.route(`${FAILED}/*/retry`, async (route) => {
    const id = new URL(route.request().url()).pathname.split("/").at(-2) ?? "";
    retried.push(id);
    listed = listed.filter((j) => j._id !== id);
    await route.fulfill({ status: 202, json: { queued: true } });
  });
  await page.goto("/admin");
  const asked = page.waitForRequest((r) => r.url().endsWith("/api/admin/jobs/failed"));
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Failed jobs" }).click();
  await asked;
  await expect(page.getByRole("heading", { name: "Failed jobs" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading…" })).toBeVisible();
  release();
  const table = page.getByRole("table", { name: "Failed jobs" });
  await expect(table.getByRole("columnheader")).toHaveText(["Failed", "Queue", "Error", "Attempts", "Actions"]);
  const rows = page.getByTestId("failed-job-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("mail");
  await expect(rows.nth(0)).toContainText("550 Mailbox unavailable");
  await expect(rows.nth(0)).toContainText("8");
  await expect(rows.nth(0)).toContainText("2026");
  await expect(rows.nth(1)).toContainText("stock-alerts");
  await expectNoSeriousViolations(page);

  await rows.nth(0).getByRole("button", { name: /^Retry the mail job/ }).click();
  await expect(page.getByText("Sent again: it runs shortly.")).toBeVisible();
  expect(retried).toEqual([jobs[0]?._id]);
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText("stock-alerts");
});

test("says when nothing failed, and when the list cannot be read (with a way to try again)", async ({ page }) => {
  // The client tries a 500 twice more before it shows the error, and axe runs twice.
  test.slow();
  await signInAsAdmin(page.request);
  let fail = true;
  await page.route(FAILED, (route) => (fail ? route.fulfill({ status: 500, json: { error: "INTERNAL", message: "The job list could not be read." } }) : route.fulfill({ json: [] })));
  await openJobs(page);
  const alert = page.getByRole("alert").filter({ hasText: "The job list could not be read." });
  await expect(alert).toBeVisible({ timeout: 15_000 });
  await expectNoSeriousViolations(page);
  fail = false;
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByText("No failed job: all background work ran.")).toBeVisible();
  await expect(page.getByTestId("failed-job-row")).toHaveCount(0);
  await expectNoSeriousViolations(page);
});
