#!/usr/bin/env node
// Bundles the API server into dist/server/main.js, with the web app's server-rendering entry
// (src/web/entry-server.tsx) and the pages it imports, and the npm packages it uses: resolving
// and compiling some 1,500 package files one by one cost the start about 0.7 s (decision 0013).
// Packages that find files of their own at run time (PGlite's WebAssembly, sharp's native
// library, pino's transport workers, pdfkit's font metrics, which its ES module build loads with
// a require() of its own package's "#standard-fonts/*" imports) stay external; CommonJS code in the bundle gets a
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
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const external = ["@electric-sql/pglite", "sharp", "pino", "pino-pretty", "pg-native", "pdfkit"];

/**
 * The module format Node gives a file: .mjs/.cjs by name, .js by its package's "type".
 * @param {string} file
 */
function nodeFormat(file) {
  if (file.endsWith(".mjs")) return "esm";
  if (file.endsWith(".cjs")) return "cjs";
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).type === "module" ? "esm" : "cjs";
    } catch {
      // no package.json here: look further up
    }
  }
  return "cjs";
}

const root = path.resolve(import.meta.dirname, "..");
const isPackage = (specifier) => !specifier.startsWith(".") && !path.isAbsolute(specifier) && !specifier.startsWith("node:");

/**
 * `import()` of a CommonJS package is left to Node. With code splitting, esbuild makes such a
 * package a chunk that exports only `default` (module.exports), so `const { Redis } = await
 * import("ioredis")` found no `Redis` in the bundle while the sources, run by Node, got it
 * from Node's own CommonJS interop (issue 29). Left external, the bundle gets the same
 * interop as the sources. These packages are the optional ones loaded after start-up (Redis,
 * SMTP), so start-up does not pay for resolving them. `dist/server/dynamic-imports.json` lists
 * every package the server loads with `import()` and how the bundle carries it; the built-store
 * test (src/server/built-store.test.ts) loads each of them at least once.
 * @type {import("esbuild").Plugin}
 */
const dynamicImports = {
  name: "dynamic-imports",
  setup(pluginBuild) {
    /** @type {Map<string, {package: string, importer: string, carried: "bundled" | "node", resolved: string}>} */
    const seen = new Map();
    pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== "dynamic-import" || !isPackage(args.path) || args.pluginData === "dynamic-imports") return undefined;
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const resolved = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "dynamic-imports" });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      const carried = resolved.external || nodeFormat(resolved.path) === "cjs" ? "node" : "bundled";
      const importer = path.relative(root, args.importer);
      seen.set(`${args.path} ${importer}`, { package: args.path, importer, carried, resolved: resolved.external ? "" : path.relative(root, resolved.path) });
      return carried === "node" ? { path: args.path, external: true } : resolved;
    });
    pluginBuild.onEnd((result) => {
      const outputs = Object.entries(result.metafile?.outputs ?? {});
      const list = [...seen.values()]
        .map(({ resolved, ...rest }) => {
          const chunk = resolved ? outputs.find(([, output]) => output.entryPoint === resolved)?.[0] : undefined;
          return { ...rest, ...(chunk ? { chunk: path.relative(outdir, chunk) } : {}) };
        })
        .sort((a, b) => a.package.localeCompare(b.package) || a.importer.localeCompare(b.importer));
      writeFileSync(path.join(outdir, "dynamic-imports.json"), `${JSON.stringify(list, null, 2)}\n`);
    });
  },
};

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
  // The packages' production builds, whatever NODE_ENV the server is started with (README's
  // `npm start` sets none; the e2e run says test), as the web app's bundle has them (scripts/start.mjs):
  // React's development build rendered each page at about twice the CPU, checking every prop. Our
  // own code reads NODE_ENV through loadConfig(process.env), which this does not touch.
  define: { "process.env.NODE_ENV": '"production"' },
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: "warning",
  metafile: true,
  plugins: [dynamicImports],
});

execFileSync(process.execPath, ["--import", "tsx", "scripts/make-starter-image.ts"], { stdio: "inherit", cwd: root });
