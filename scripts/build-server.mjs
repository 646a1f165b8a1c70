#!/usr/bin/env node
// Bundles the API server into dist/server/main.js, with the web app's server-rendering entry
// (src/web/entry-server.tsx) and the pages it imports, and the npm packages it uses: resolving
// and compiling some 1,500 package files one by one cost the start about 0.7 s (decision 0013).
// Packages that find files of their own at run time (PGlite's WebAssembly, sharp's native
// library, pino's transport workers) stay external; CommonJS code in the bundle gets a
// `require` for the Node built-ins it loads.
// Whitespace and syntax are minified, names are not: Node reads, decodes and compiles 2.3 MB at
// start instead of 3.4 MB (it loads 15-140 ms sooner, decision 0013), and stack traces keep their names.
// Code splitting: what a page or feature loads with `import()` (the signed-in pages and the
// console with their form and chart libraries, the QR code, the server-rendering entry, loaded
// once the store listens) becomes its own chunk, so start-up does not compile it.
// It also makes the starter image, the migrated empty PGlite database a store's first boot starts
// from (src/server/db/starter-image.ts), when it is not kept already.
//   node scripts/build-server.mjs                          → dist/server/main.js
//   node scripts/build-server.mjs <entry.ts> <out folder>  → the same bundle of another entry
//                                                            (bench/support.ts: the bench server)
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const external = ["@electric-sql/pglite", "sharp", "pino", "pino-pretty", "pg-native"];

const [entry = "src/server/main.ts", outdir = "dist/server"] = process.argv.slice(2);
const name = entry === "src/server/main.ts" ? "main" : path.basename(entry).replace(/\.[cm]?tsx?$/, "");

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { [name]: entry },
  outdir,
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  external: external.flatMap((name) => [name, `${name}/*`]),
  banner: { js: 'import { createRequire as __toolyardRequire } from "node:module"; const require = __toolyardRequire(import.meta.url);' },
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: "warning",
});

const root = path.resolve(import.meta.dirname, "..");
execFileSync(process.execPath, ["--import", "tsx", "scripts/make-starter-image.ts"], { stdio: "inherit", cwd: root });
