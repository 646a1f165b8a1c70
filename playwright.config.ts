import { defineConfig, devices } from "@playwright/test";
import { APP_URL, CHROME_PATH } from "./tests/support/env";

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/support/global-setup.ts",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  // No retries, under CI too: a flaky test fails CI rather than passing on its second go, as it
  // fails a newcomer's first `npm test` (issue 54).
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  use: {
    baseURL: APP_URL,
    // No trace (add `--trace on` to record one): recording one for every test, to keep it only
    // on failure, cost a quarter of the suite's time on our 2 cores (CI's browser tests: 9.1 min
    // with it, 6.7 min without).
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium; never a downloaded browser. Background networking is off
      // because this machine has no network beyond loopback.
      executablePath: CHROME_PATH,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
});
