#!/usr/bin/env node
// Builds the SPA and prints what each public page downloads until it is taken over: the entry
// chunk, what the entry asks for once the first screen is painted (src/web/main.tsx: the home
// page's first load, app/home-start.tsx, or the app, app/start.tsx, with the page's own chunk),
// and every chunk those import statically (gzip sizes; the store sends the build's brotli files).
// Usage: npm run bench:page   (budget: the home page's initial JS ≤ 85 KB gzip, decision 0025)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist", "web");
const BUDGET_KB = 85;

if (!process.argv.includes("--no-build")) {
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}
const manifest = JSON.parse(readFileSync(path.join(out, ".vite", "manifest.json"), "utf8"));
const gz = (file) => gzipSync(readFileSync(path.join(out, file))).length;
// What the store really sends: the build's own .br files (vite.config.ts), where a file has one.
const br = (file) => {
  const compressed = path.join(out, `${file}.br`);
  return existsSync(compressed) ? statSync(compressed).size : readFileSync(path.join(out, file)).length;
};
const kb = (bytes) => (bytes / 1024).toFixed(1);

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const firstLoads = manifest[entryKey].dynamicImports ?? [];
/** The entry's import() of a first load by its chunk's name (vite.config.ts's groups). */
const firstLoad = (name) => {
  const key = firstLoads.find((k) => manifest[k]?.name === name);
  if (!key) throw new Error(`the entry imports no "${name}" chunk: src/web/main.tsx or vite.config.ts has changed`);
  return key;
};

// The route table's pages (src/contract/routes.ts) and the chunk each one's first load asks for.
const PAGES = [
  { page: "/", load: "home-start", module: null, budget: BUDGET_KB },
  { page: "/tools", load: "app", module: "features/catalog/routes/tools-page.tsx" },
  { page: "/tools/:id", load: "app", module: "features/catalog/routes/tool-page.tsx" },
];

for (const { page, load, module, budget } of PAGES) {
  const js = new Set();
  const css = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  visit(firstLoad(load));
  if (module) visit(module);
  const jsTotal = [...js].reduce((sum, file) => sum + gz(file), 0);
  const sentTotal = [...js].reduce((sum, file) => sum + br(file), 0);
  console.log(`${page}: download until it is taken over (gzip, default level 6):`);
  for (const file of js) console.log(`  js   ${kb(gz(file)).padStart(7)} KB  ${file}`);
  for (const file of css) console.log(`  css  ${kb(gz(file)).padStart(7)} KB  ${file}`);
  console.log(`${page} initial JS: ${kb(jsTotal)} KB gzip${budget ? ` (budget ${budget} KB)` : ""} · sent by the store (brotli): ${kb(sentTotal)} KB`);
  if (budget && jsTotal > budget * 1024) {
    console.error(`${page} is over its budget by ${kb(jsTotal - budget * 1024)} KB`);
    process.exitCode = 1;
  }
}
const lazy = Object.values(manifest).filter((c) => c.file.endsWith(".js")).length;
console.log(`JS chunks in the build: ${lazy}`);
