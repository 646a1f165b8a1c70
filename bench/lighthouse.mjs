#!/usr/bin/env node
// Lighthouse (npm `lighthouse` 12: the last major that runs on Node 20; 13 needs Node 22) in
// Debian's Chromium, with Lighthouse's default mobile emulation and simulated throttling, on
// the home page, the catalogue and a tool page. Prints the four category scores, LCP and CLS.
// Usage: npm run build && npm run bench:lighthouse
//        BASE_URL=http://127.0.0.1:3000 npm run bench:lighthouse   (a store already running)
// Targets (issue 12): performance ≥ 98, the other three 100, LCP ≤ 1.5 s, CLS ≤ 0.02.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const RUNS = Number(process.env.RUNS ?? 1);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The built store (dist/), on a fresh demo database, unless BASE_URL names one already running. */
async function startStore() {
  if (process.env.BASE_URL) return { url: process.env.BASE_URL.replace(/\/$/, ""), stop: async () => undefined };
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-lighthouse-"));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["dist/server/main.js"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url, DATA_DIR: dataDir, AUTH_SECRET: "lighthouse-secret-lighthouse-secret-0001", LOG_LEVEL: "warn" },
  });
  for (let i = 0; i < 120; i += 1) {
    const up = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const store = await startStore();
const chrome = await chromeLauncher.launch({
  chromePath: CHROME,
  chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  const [tool] = await fetch(`${store.url}/api/tool?limit=1`).then((r) => r.json());
  const pages = ["/", "/tools", `/tools/${tool._id}`, ...(process.env.EXTRA_PAGES ? process.env.EXTRA_PAGES.split(",") : [])];
  const score = (category) => Math.round((category?.score ?? 0) * 100);
  for (const page of pages) {
    for (let run = 0; run < RUNS; run += 1) {
      const result = await lighthouse(`${store.url}${page}`, { port: chrome.port, output: "json", logLevel: "error" });
      const { categories, audits } = result.lhr;
      const perf = score(categories.performance);
      const lcp = audits["largest-contentful-paint"].numericValue / 1000;
      const cls = audits["cumulative-layout-shift"].numericValue;
      const row = {
        performance: perf,
        accessibility: score(categories.accessibility),
        "best-practices": score(categories["best-practices"]),
        seo: score(categories.seo),
      };
      console.log(
        `${page.padEnd(48)} perf ${row.performance}  a11y ${row.accessibility}  bp ${row["best-practices"]}  seo ${row.seo}  LCP ${lcp.toFixed(2)} s  CLS ${cls.toFixed(3)}  FCP ${(audits["first-contentful-paint"].numericValue / 1000).toFixed(2)} s  TBT ${audits["total-blocking-time"].numericValue.toFixed(0)} ms`,
      );
      const below = Object.entries(categories)
        .filter(([, c]) => c.score !== null && c.score < 1)
        .flatMap(([, c]) => c.auditRefs.filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 0.9).map((ref) => `${ref.id} (${audits[ref.id].displayValue ?? audits[ref.id].score})`));
      if (below.length > 0) console.log(`    below par: ${[...new Set(below)].join(", ")}`);
      if (perf < 98 || row.accessibility < 100 || row["best-practices"] < 100 || row.seo < 100 || lcp > 1.5 || cls > 0.02) failed = true;
    }
  }
} finally {
  await chrome.kill();
  await store.stop();
}
if (failed) {
  console.error("below the targets: performance ≥ 98, the others 100, LCP ≤ 1.5 s, CLS ≤ 0.02");
  process.exitCode = 1;
}
