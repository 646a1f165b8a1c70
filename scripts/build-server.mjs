#!/usr/bin/env node
// Bundles the API server into dist/server/main.js (npm packages stay external), with the web
// app's server-rendering entry (src/web/entry-server.tsx) and the pages it imports.
// Code splitting: what a page or feature loads with `import()` (the signed-in pages and the
// console with their form and chart libraries, the QR code) becomes its own chunk, so start-up
// does not load the npm packages only they use; the public pages the server renders are static.
import { rmSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist/server", { recursive: true, force: true });
await build({
  entryPoints: { main: "src/server/main.ts" },
  outdir: "dist/server",
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
