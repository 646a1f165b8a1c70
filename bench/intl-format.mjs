#!/usr/bin/env node
// What a page pays for its first Intl number format, in Debian's Chromium: a fresh page makes an
// en-US currency format, formats with it, makes a second one, and formats a whole number with
// toLocaleString. Why src/contract/money.ts formats by hand (decision 0011).
//   RUNS=5 node bench/intl-format.mjs
import { chromium } from "playwright-core";

const RUNS = Number(process.env.RUNS ?? 5);
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  console.log("ms: first currency format made · first format · second made · toLocaleString");
  for (let run = 0; run < RUNS; run += 1) {
    const page = await browser.newPage();
    await page.goto("data:text/html,<p>Toolyard</p>");
    const times = await page.evaluate(() => {
      const t0 = performance.now();
      const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
      const t1 = performance.now();
      usd.format(1234.5);
      const t2 = performance.now();
      new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
      const t3 = performance.now();
      (1234).toLocaleString("en-US");
      const t4 = performance.now();
      return [t1 - t0, t2 - t1, t3 - t2, t4 - t3];
    });
    console.log(times.map((t) => t.toFixed(1).padStart(6)).join("  "));
    await page.close();
  }
} finally {
  await browser.close();
}
