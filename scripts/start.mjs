#!/usr/bin/env node
// `npm start`: builds whatever is missing or older than its sources, then runs the
// server in this process, so SIGTERM/SIGINT reach its shutdown directly. npm passes a
// process manager's SIGTERM only to its script's shell, which dies of it; package.json's
// `exec node scripts/start.mjs` makes this process that shell, so nothing is orphaned
// (src/server/start-signal.test.ts). Migrations and the demo seed run inside the server
// at start-up.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

function newest(entries) {
  let latest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
    else if (!/\.test\.tsx?$/.test(p)) latest = Math.max(latest, st.mtimeMs);
  };
  entries.forEach(walk);
  return latest;
}

function stale(output, inputs) {
  return !existsSync(output) || statSync(output).mtimeMs < newest(inputs);
}

// The server's bundle carries its npm packages (scripts/build-server.mjs): a changed lockfile rebuilds it.
const shared = ["src/contract", "package.json", "package-lock.json"];
if (stale("dist/web/index.html", ["src/web", "public", "vite.config.ts", ...shared])) {
  console.log("Building the web app…");
  // Always a production bundle: with the server's NODE_ENV=test (the e2e run) or development,
  // Vite would bundle React's development build, three times the size and slower.
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit", cwd: root, env: { ...process.env, NODE_ENV: "production" } });
}
// The server renders the public pages from the web app's code (src/web/entry-server.tsx): it is bundled in.
if (stale("dist/server/main.js", ["src/server", "src/web", "drizzle", ...shared])) {
  console.log("Building the server…");
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit", cwd: root });
}

await import(pathToFileURL(path.join(root, "dist/server/main.js")).href);
