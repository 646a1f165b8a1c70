#!/usr/bin/env node
// Clicks that come while the browser is still taking a server-rendered page over: opens
// /tools, waits 0–400 ms after the load event, clicks 'Next' and checks that page 2 came.
// Two browser contexts at once, as the browser tests run, since the lost clicks seen so far
// needed a busy machine. Prints how many of the clicks were lost (no page 2 within 10 s) and
// each that took over 1.5 s; exits 1 if any was lost.
// Usage: BASE_URL=http://127.0.0.1:3000 RUNS=40 node bench/early-clicks.mjs   (a store already running)
// Decision 0011 ("Hydration in slices, tried again and withdrawn") has what it measured.
import { chromium } from "@playwright/test";

const BASE_URL = (process.env.BASE_URL ?? "").replace(/\/$/, "");
if (!BASE_URL) {
  console.error("bench/early-clicks.mjs needs BASE_URL, a store already running (npm start).");
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 40);
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium" });

async function clicks(worker) {
  let lost = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${BASE_URL}/tools`);
    await page.waitForTimeout((i * 37 + worker * 111) % 400);
    const hydrated = (await page.locator("#root[data-hydrated]").count()) > 0;
    await page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Next" }).click();
    const clicked = performance.now();
    // Lost: no page 2 within 10 s (a busy machine can take seconds to run the page's code).
    while (!page.url().includes("page=2") && performance.now() - clicked < 10_000) await page.waitForTimeout(50);
    const after = performance.now() - clicked;
    if (!page.url().includes("page=2")) {
      lost += 1;
      console.log(`  worker ${worker}, click ${i + 1}: lost (the page ${hydrated ? "had" : "had not"} hydrated before the click)`);
    } else if (after > 1500) console.log(`  worker ${worker}, click ${i + 1}: page 2 came ${(after / 1000).toFixed(1)} s after the click`);
    await context.close();
  }
  return lost;
}

try {
  const lost = (await Promise.all([clicks(1), clicks(2)])).reduce((a, b) => a + b, 0);
  console.log(`'Next' right after load on ${BASE_URL}/tools: ${lost} of ${2 * RUNS} clicks lost`);
  if (lost > 0) process.exitCode = 1;
} finally {
  await browser.close();
}
