#!/usr/bin/env node
// The main thread's long tasks while a public page loads and hydrates, from a Chromium
// performance trace (the same `RunTask` events DevTools' Performance panel draws), with the CPU
// slowed by the Chrome DevTools Protocol. For each build and page: every task over 50 ms from
// navigation until the page is quiet, their sum over 50 ms (the trace's own Total Blocking Time),
// and the medians over RUNS. Builds are measured alternately, page by page, so a machine that
// slows down mid-run slows both.
// Usage: npm run build && node bench/long-tasks.mjs
//        BUILDS=/work/old-checkout,/work/main node bench/long-tasks.mjs   (each folder's dist/, built)
//        RUNS=5 CPU_SLOWDOWN=4 PAGES=/,/tools,/tools/:tool node bench/long-tasks.mjs
//        BENCH_TRACE_DIR=/tmp/traces node bench/long-tasks.mjs   (keeps each trace, for DevTools)
// Not a test: these machines are noisy, so compare builds in one run, never against a number.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { freePort } from "../scripts/free-port.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUILDS = (process.env.BUILDS ?? root).split(",").map((dir) => path.resolve(dir));
const RUNS = Number(process.env.RUNS ?? 3);
const CPU_SLOWDOWN = Number(process.env.CPU_SLOWDOWN ?? 4);
const PAGES = (process.env.PAGES ?? "/,/tools,/tools/:tool").split(",");
const TRACE_DIR = process.env.BENCH_TRACE_DIR;
const LONG_MS = 50;
if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One build's store (its dist/server/main.js) on a fresh demo database, as `npm start` serves it. */
async function startStore(dir) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-long-tasks-"));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["dist/server/main.js"], {
    cwd: dir,
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url, DATA_DIR: dataDir, AUTH_SECRET: "long-tasks-secret-long-tasks-secret-01", LOG_LEVEL: "warn", DATABASE_URL: "" },
  });
  let up = false;
  for (let i = 0; i < 240 && !up; i += 1) {
    up = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (!up) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!up) throw new Error(`the store in ${dir} did not start (is it built? npm run build)`);
  const [tool] = await fetch(`${url}/api/tool?limit=1`).then((r) => r.json());
  return {
    dir,
    url,
    toolId: tool._id,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The renderer main thread's top-level tasks (`RunTask`) over LONG_MS, in ms from navigation. */
function longTasks(trace) {
  const events = JSON.parse(trace.toString("utf8")).traceEvents;
  const mains = new Set(events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const navStarts = events.filter((e) => e.name === "navigationStart" && mains.has(`${e.pid}:${e.tid}`) && e.args?.data?.isLoadingMainFrame);
  const nav = navStarts.at(-1);
  if (!nav) return undefined;
  const thread = `${nav.pid}:${nav.tid}`;
  return events
    .filter((e) => e.ph === "X" && e.name === "RunTask" && `${e.pid}:${e.tid}` === thread && e.ts >= nav.ts && e.dur / 1000 > LONG_MS)
    .map((e) => ({ at: Math.round((e.ts - nav.ts) / 1000), ms: Math.round(e.dur / 1000) }));
}

async function measure(browser, store, page, run) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await browser.startTracing(tab, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "blink.user_timing"] });
  await tab.goto(`${store.url}${page.replace(":tool", store.toolId)}`, { waitUntil: "load" });
  // Quiet: the network idle, then a second for what hydration schedules after it.
  await tab.waitForLoadState("networkidle");
  await tab.waitForTimeout(1000);
  const trace = await browser.stopTracing();
  await context.close();
  if (TRACE_DIR) writeFileSync(path.join(TRACE_DIR, `${path.basename(store.dir)}${page.replace(/[^a-z0-9]+/gi, "_")}-${run + 1}.json`), trace);
  return longTasks(trace);
}

const stores = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  for (const dir of BUILDS) stores.push(await startStore(dir));
  console.log(`Main-thread tasks over ${LONG_MS} ms while each page loads (CPU ${CPU_SLOWDOWN}x slower, ${RUNS} run(s), builds alternately):`);
  for (const page of PAGES) {
    const results = new Map(stores.map((s) => [s.dir, []]));
    for (let run = 0; run < RUNS; run += 1) {
      for (const store of run % 2 === 0 ? stores : [...stores].reverse()) {
        const tasks = await measure(browser, store, page, run);
        if (!tasks) {
          console.log(`  ${page} ${store.dir}: no navigation in the trace, run skipped`);
          continue;
        }
        results.get(store.dir).push(tasks);
        const blocking = tasks.reduce((sum, t) => sum + t.ms - LONG_MS, 0);
        console.log(`  ${page.padEnd(14)} ${path.basename(store.dir).padEnd(20)} run ${run + 1}: ${tasks.length} long task(s) [${tasks.map((t) => `${t.ms} ms at ${t.at}`).join(", ")}], blocking ${blocking} ms`);
      }
    }
    for (const [dir, runs] of results) {
      if (runs.length === 0) continue;
      const longest = median(runs.map((tasks) => Math.max(0, ...tasks.map((t) => t.ms))));
      const count = median(runs.map((tasks) => tasks.length));
      const blocking = median(runs.map((tasks) => tasks.reduce((sum, t) => sum + t.ms - LONG_MS, 0)));
      console.log(`${page.padEnd(16)} ${path.basename(dir).padEnd(20)} median: ${count} long task(s), longest ${longest} ms, blocking ${blocking} ms`);
    }
  }
} finally {
  await browser.close();
  for (const store of stores) await store.stop();
}
