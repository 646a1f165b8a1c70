import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findAppRoot } from "./config";

// README promises these commands; each must point at a file that exists (`npm run dev` once did not).
describe("package.json scripts", () => {
  const root = findAppRoot();
  const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

  it.each(Object.entries(scripts))("%s runs files that exist", (_name, command) => {
    const files = [...command.matchAll(/(?:node|tsx)\s+((?:scripts|bench|src)\/\S+)/g)].map((m) => m[1] ?? "");
    for (const file of files) expect(existsSync(path.join(root, file)), file).toBe(true);
  });

  it("covers the commands the README names", () => {
    for (const name of ["start", "test", "dev", "lint", "typecheck", "test:unit", "test:e2e", "db:generate", "bench:page", "bench:api", "bench:orders"]) {
      expect(scripts[name], name).toBeDefined();
    }
  });
});
