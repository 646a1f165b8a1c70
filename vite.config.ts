import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

const apiPort = process.env.PORT ?? "3000";
const outDir = path.resolve(import.meta.dirname, "dist/web");

/**
 * Writes .br and .gz beside every text asset once the build is done, so the server sends
 * them compressed (@fastify/static `preCompressed`) without compressing on each request.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
  async function* files(dir: string): AsyncGenerator<string> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* files(full);
      else yield full;
    }
  }
  return {
    name: "toolyard-precompress",
    apply: "build",
    async closeBundle() {
      const jobs: Promise<void>[] = [];
      for await (const file of files(outDir)) {
        if (!COMPRESSIBLE.test(file) || (await stat(file)).size < 1024) continue;
        jobs.push(
          readFile(file).then(async (content) => {
            await writeFile(`${file}.br`, await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
            await writeFile(`${file}.gz`, await gz(content, { level: 9 }));
          }),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * The entry only waits for the first screen to be painted before it asks for the app
 * (src/web/main.tsx): Vite's tags for it and its import get `fetchpriority="low"`, so they do not
 * share a slow phone's network with the first screen's pictures (decision 0011: Lighthouse counts
 * a high-priority script as holding up the first paint).
 */
function entryAtLowPriority(): Plugin {
  return {
    name: "toolyard-entry-priority",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: (html) => html.replace(/<(script type="module"|link rel="modulepreload") crossorigin /g, '<$1 crossorigin fetchpriority="low" '),
    },
  };
}

export default defineConfig({
  root: "src/web",
  publicDir: "../../public",
  plugins: [react(), tailwindcss(), entryAtLowPriority(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    // No source maps: everything in dist/web is served publicly, and a map (even a "hidden" one,
    // named after its hashed chunk) would hand out the original source.
    sourcemap: false,
    manifest: true,
    // Every browser we support preloads modules itself (Chrome 66, Firefox 115, Safari 17):
    // no polyfill in the home page's budget.
    // A lazy page's import preloads the chunks that page imports, in parallel with the page's own
    // chunk, but neither that chunk (import() asks for it at once) nor the ones the app has loaded
    // already (its own, the runtime, the entry's preload helper): shorter dependency lists in the
    // app's chunk. The entry's import of the app itself (main.tsx) keeps them all: it is what loads them.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (file, deps, { hostType }) =>
        hostType === "html" || /\/(app|home-start)-[\w-]+\.js$/.test(file) ? deps : deps.filter((dep) => dep !== file && !/\/(app|react|home-start|rolldown-runtime|preload-helper)-/.test(dep)),
    },
    // The app's own chunk (app/start.tsx, which the entry asks for) holds everything it imports,
    // React and the router included: one download, one compression context, and nothing split
    // out into shared chunks that the app has loaded anyway. The lazy pages import from it.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Vite's helper for import() with preloads: the entry's, which must not wait for the app.
            { name: "preload-helper", test: /vite[\\/]preload-helper/, priority: 4 },
            // React, which both the home page's first load and the app run on: one copy, so that the
            // app can take over the root the first load hydrated (decision 0025).
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            // The home page's first load (app/home-start.tsx): what it needs and nothing of the router
            // or the data layer; the app imports the parts it shares with it (the navigation bar's view,
            // the site's frame, the carousel) from this chunk.
            { name: "home-start", test: /src[\\/]web[\\/]app[\\/]home-start\.tsx$/, includeDependenciesRecursively: true, priority: 2 },
            { name: "app", test: /src[\\/]web[\\/]app[\\/]start\.tsx$/, includeDependenciesRecursively: true, priority: 1 },
            // zod with our settings of it (contract/zod.ts), and the contract's smallest shared modules
            // together: each chunk a lazy page may need is a file name in the app's preload lists
            // (bench:page), and zod's coerce (88 bytes) and our settings (75) were chunks of their own
            // that thirteen pages listed.
            { name: "zod", test: /node_modules[\\/]zod[\\/]|src[\\/]contract[\\/]zod\.ts$/ },
            { name: "contract", test: /src[\\/]contract[\\/](constants|money|order-lifecycle|texts[\\/](validation|reviews))\.ts$/ },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev`: Vite on 5173 proxies the API to the Fastify server.
    port: 5173,
    proxy: { "/api": `http://127.0.0.1:${apiPort}` },
  },
});
