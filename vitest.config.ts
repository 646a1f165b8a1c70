import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  test: {
    // Two files at a time. Vitest's default in a run is one worker per core minus one: a
    // single worker on our 2-core machines, which left a core idle while server tests wait on
    // Postgres, Redis, scrypt and child processes (the suite took 924 s so on a loaded machine,
    // 396 s with two).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "server",
          environment: "node",
          // One migrated Postgres database per run, copied by every test store (startTestApp).
          globalSetup: ["tests/support/pg-template.ts"],
          include: ["src/server/**/*.test.ts", "src/contract/**/*.test.ts", "eslint/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "web",
          environment: "jsdom",
          include: ["src/web/**/*.test.{ts,tsx}"],
          setupFiles: ["src/web/test-setup.ts"],
          // A render-and-type test takes ~1 s alone and several times that on a busy machine; the
          // default 5 s cut some of them off mid-way (seen at load 15: checkout-page, money-pages).
          testTimeout: 20_000,
        },
      },
    ],
  },
});
