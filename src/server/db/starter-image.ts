/**
 * The starter image: an empty PGlite database with every migration applied, dumped as a data
 * directory (an uncompressed tar) and kept in node_modules/.cache/toolyard under a key of the
 * migrations and the PGlite version.
 *
 * - The build makes it (scripts/build-server.mjs runs scripts/make-starter-image.ts), and a
 *   store's first boot on an empty folder unpacks it instead of running initdb and the
 *   migrations: about 0.7 s instead of 3 to 4 s (decision 0013). Without it (a cleared cache, a
 *   migration added since the build) the store makes its database as before.
 * - Tests start every in-memory PGlite from it (test-support.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { findAppRoot } from "../config";
import { migratedPgliteImage } from "./client";

/** Every file of a migrations folder, in a fixed order, and PGlite's version: what an image was made from. */
function imageKey(migrationsDir: string, root: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(`${path.relative(migrationsDir, file)}\0`).update(readFileSync(file)).update("\0");
    }
  };
  walk(migrationsDir);
  const pglite = JSON.parse(readFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8")) as { version: string };
  return hash.update(pglite.version).digest("hex").slice(0, 16);
}

const IMAGE_NAME = /^pglite-[0-9a-f]{16}\.tar$/;

/** Where the image for these migrations is kept (whether or not it has been made). */
export function starterImageFile(migrationsDir: string, root = findAppRoot()): string {
  return path.join(root, "node_modules", ".cache", "toolyard", `pglite-${imageKey(migrationsDir, root)}.tar`);
}

/** The kept image for these migrations, or undefined when none has been made. */
export async function readStarterImage(migrationsDir: string, root = findAppRoot()): Promise<Blob | undefined> {
  const kept = await readFile(starterImageFile(migrationsDir, root)).catch(() => undefined);
  return kept ? new Blob([kept]) : undefined;
}

/**
 * Makes the image for these migrations and keeps it, removing images of other keys. Processes
 * that make it together each write their own file and the last rename wins.
 */
export async function makeStarterImage(migrationsDir: string, root = findAppRoot()): Promise<Blob> {
  const file = starterImageFile(migrationsDir, root);
  const made = await migratedPgliteImage(migrationsDir);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(temporary, Buffer.from(await made.arrayBuffer()));
  await rename(temporary, file);
  for (const old of await readdir(path.dirname(file))) {
    if (IMAGE_NAME.test(old) && old !== path.basename(file)) await rm(path.join(path.dirname(file), old), { force: true });
  }
  return made;
}

/** The kept image, made first if there is none. */
export async function starterImage(migrationsDir: string, root = findAppRoot()): Promise<Blob> {
  return (await readStarterImage(migrationsDir, root)) ?? (await makeStarterImage(migrationsDir, root));
}
