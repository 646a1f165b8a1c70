#!/usr/bin/env node
// Builds the SPA and prints what the home page downloads until the app has taken it over:
// the entry chunk, the app's chunk it asks for once the first screen is painted (src/web/main.tsx),
// every chunk those import statically, and the CSS (gzip sizes).
// Usage: npm run bench:page   (budget: home initial JS ≤ 100 KB gzip)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist", "web");
const BUDGET_KB = 100;

if (!process.argv.includes("--no-build")) {
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}
const manifest = JSON.parse(readFileSync(path.join(out, ".vite", "manifest.json"), "utf8"));
const gz = (file) => gzipSync(readFileSync(path.join(out, file))).length;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
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
// The app itself: the entry's import() of it, once the first screen is painted.
const appKeys = manifest[entryKey].dynamicImports ?? [];
if (appKeys.length === 0) throw new Error("the entry imports no app: src/web/main.tsx has changed");
for (const key of appKeys) visit(key);

// What the store really sends: the build's own .br files (vite.config.ts), where a file has one.
const br = (file) => {
  const compressed = path.join(out, `${file}.br`);
  return existsSync(compressed) ? statSync(compressed).size : readFileSync(path.join(out, file)).length;
};
const kb = (bytes) => (bytes / 1024).toFixed(1);
const jsTotal = [...js].reduce((sum, file) => sum + gz(file), 0);
const cssTotal = [...css].reduce((sum, file) => sum + gz(file), 0);
const sentTotal = [...js, ...css].reduce((sum, file) => sum + br(file), 0);
const lazy = Object.values(manifest).filter((c) => c.file.endsWith(".js") && !js.has(c.file)).length;

console.log("Home page download until the app has taken it over (gzip, default level 6):");
for (const file of js) console.log(`  js   ${kb(gz(file)).padStart(7)} KB  ${file}`);
for (const file of css) console.log(`  css  ${kb(gz(file)).padStart(7)} KB  ${file}`);
console.log(`initial JS: ${kb(jsTotal)} KB gzip (budget ${BUDGET_KB} KB) · CSS: ${kb(cssTotal)} KB gzip · lazy chunks not loaded: ${lazy}`);
console.log(`sent by the store (pre-compressed brotli), JS + CSS: ${kb(sentTotal)} KB`);
if (jsTotal > BUDGET_KB * 1024) {
  console.error(`over budget by ${kb(jsTotal - BUDGET_KB * 1024)} KB`);
  process.exitCode = 1;
}
