#!/usr/bin/env node
// Start-up of the built store (`npm start` without the build check) and its idle memory:
// time from spawn to the first 200 from /api/health, the phases the server logs (modules
// loaded, app built = database opened and migrations checked, seed check and admin sync), and
// the resident memory after IDLE_SECONDS. Cases: PGlite on an empty folder (first boot: initdb,
// migrations, seed), PGlite on that folder again, and with DATABASE_URL a fresh Postgres
// database, first and again. RUNS each (default 5); prints medians.
//   npm run build && npm run bench:startup
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres RUNS=5 npm run bench:startup
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../scripts/free-port.mjs";

const root = path.resolve(import.meta.dirname, "..");
const main = path.join(root, "dist/server/main.js");
if (!existsSync(main)) {
  console.error("No dist/server/main.js: run `npm run build` first.");
  process.exit(1);
}
const RUNS = Number(process.env.RUNS ?? 5);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 5);

const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round(Number(line[1]) / 1024) : NaN;
};

async function boot(env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [main], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
      ...env,
    },
  });
  let phases;
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
    for (const line of out.split("\n")) {
      if (line.includes('"startup"')) phases = JSON.parse(line).startup;
    }
    out = out.slice(out.lastIndexOf("\n") + 1);
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let readyMs;
  while (readyMs === undefined) {
    if (child.exitCode !== null) throw new Error(`the store exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) readyMs = performance.now() - started;
    else await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const rss = rssMb(child.pid);
  child.kill("SIGTERM");
  await exited;
  return { readyMs, rss, phases };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function report(name, runs) {
  const pick = (f) => median(runs.map(f));
  const phase = (key) => pick((r) => r.phases?.[key] ?? NaN);
  console.log(
    `${name.padEnd(24)} ready ${String(Math.round(pick((r) => r.readyMs))).padStart(5)} ms (min ${Math.round(Math.min(...runs.map((r) => r.readyMs)))})` +
      `  modules ${phase("modulesMs")} ms, build ${phase("buildMs")} ms, prepare ${phase("prepareMs")} ms` +
      `  idle RSS ${pick((r) => r.rss)} MB`,
  );
}

const cases = [];
{
  const first = [];
  const again = [];
  for (let i = 0; i < RUNS; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-startup-"));
    try {
      first.push(await boot({ DATA_DIR: dataDir }));
      again.push(await boot({ DATA_DIR: dataDir }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  cases.push(["PGlite, empty folder", first], ["PGlite, existing folder", again]);
}
if (process.env.DATABASE_URL) {
  const first = [];
  const again = [];
  for (let i = 0; i < RUNS; i++) {
    const name = `toolyard_startup_${process.pid}_${i}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-startup-"));
    try {
      first.push(await boot({ DATA_DIR: dataDir, DATABASE_URL: url.toString() }));
      again.push(await boot({ DATA_DIR: dataDir, DATABASE_URL: url.toString() }));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  cases.push(["Postgres, new database", first], ["Postgres, migrated", again]);
}
console.log(`start-up of dist/server/main.js, median of ${RUNS}, RSS after ${IDLE_SECONDS} s idle; load ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}`);
for (const [name, runs] of cases) report(name, runs);
