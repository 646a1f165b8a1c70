#!/usr/bin/env node
// Runs the Playwright suite in Debian's Chromium (CHROME_PATH or /usr/bin/chromium).
// Without a browser: skipped with a message locally, a failure under CI=true.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "./free-port.mjs";

const chrome = process.env.CHROME_PATH ?? "/usr/bin/chromium";
if (!existsSync(chrome)) {
  const message = `No Chromium at ${chrome}: install Debian's chromium (apt-get install chromium) or set CHROME_PATH.`;
  if (process.env.CI === "true") {
    console.error(`${message} Browser tests are required under CI=true.`);
    process.exit(1);
  }
  console.warn(`${message} Skipping the browser tests.`);
  process.exit(0);
}

// Ports picked at run time, so another checkout's browser tests on this machine do not collide;
// tests/support/env.ts reads them in the config, the global setup and every worker.
const env = { ...process.env };
if (!env.E2E_PORT) env.E2E_PORT = String(await freePort());
if (!env.E2E_OIDC_PORT) {
  let port;
  do port = await freePort();
  while (String(port) === env.E2E_PORT);
  env.E2E_OIDC_PORT = String(port);
}
const result = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], { stdio: "inherit", env });
process.exit(result.status ?? 1);
