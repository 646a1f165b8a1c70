#!/usr/bin/env node
// Bundles the API server into dist/server/main.js (npm packages stay external), with the web
// app's server-rendering entry (src/web/entry-server.tsx) and the pages it imports.
import { build } from "esbuild";

await build({
  entryPoints: ["src/server/main.ts"],
  outfile: "dist/server/main.js",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
