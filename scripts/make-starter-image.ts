// Makes the starter image (src/server/db/starter-image.ts) for the store's migrations unless it
// is already kept: run by scripts/build-server.mjs, so that a store's first boot and the tests
// start from it.
//   node --import tsx scripts/make-starter-image.ts
import { existsSync } from "node:fs";
import path from "node:path";
import { findAppRoot } from "../src/server/config";
import { makeStarterImage, starterImageFile } from "../src/server/db/starter-image";

const root = findAppRoot();
const migrationsDir = path.join(root, "drizzle");
const file = starterImageFile(migrationsDir, root);
if (existsSync(file)) {
  console.log(`Starter image kept: ${path.relative(root, file)}`);
} else {
  const started = performance.now();
  await makeStarterImage(migrationsDir, root);
  console.log(`Starter image made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${path.relative(root, file)}`);
}
