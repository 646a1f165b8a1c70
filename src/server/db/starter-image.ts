/**
 * The starter image: an empty PGlite database with every migration applied, dumped as a data
 * directory (an uncompressed tar) and kept in node_modules/.cache/toolyard under a key of the
 * migrations and the PGlite version.
 *
 * - The build makes it (scripts/build-server.mjs runs scripts/make-starter-image.ts), and a
 *   store's first boot on a new folder unpacks it instead of running initdb and the migrations
 *   (decision 0013). It is unpacked beside the folder and renamed into place, so a boot stopped
 *   halfway leaves no half-made database. Without it (a cleared cache, a migration added since
 *   the build) PGlite makes the database as before.
 * - Tests start every in-memory PGlite from it (test-support.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
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

/**
 * Unpacks an image (`starterImageFile`) into `dir`, a PGlite data folder that does not exist yet
 * or is empty. Returns false, having written nothing there, when there is no such image or `dir`
 * holds anything.
 * Node's own file calls, not PGlite's (which writes each file through its WebAssembly file
 * system and took about 0.3 s longer here).
 */
export function unpackStarterImage(imageFile: string, dir: string): boolean {
  let tar: Buffer;
  try {
    tar = readFileSync(imageFile);
  } catch {
    return false;
  }
  const partial = `${dir}.unpacking-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(partial, { recursive: true, mode: 0o700 });
    for (const entry of tarEntries(tar)) {
      const target = path.join(partial, entry.name);
      if (!target.startsWith(partial + path.sep)) throw new Error(`the starter image names ${entry.name}`);
      if (entry.directory) mkdirSync(target, { recursive: true, mode: entry.mode });
      else writeFileSync(target, entry.data, { mode: entry.mode });
    }
    // Replaces `dir` only when it is missing or empty (rename fails on a folder with contents).
    renameSync(partial, dir);
    return true;
  } catch {
    rmSync(partial, { recursive: true, force: true });
    return false;
  }
}

interface TarEntry {
  name: string;
  mode: number;
  directory: boolean;
  data: Buffer;
}

/** The entries of a ustar archive as PGlite's `dumpDataDir` writes it: folders and plain files. */
function* tarEntries(tar: Buffer): Generator<TarEntry> {
  const field = (header: Buffer, offset: number, length: number) => {
    const bytes = header.subarray(offset, offset + length);
    const end = bytes.indexOf(0);
    return bytes.subarray(0, end < 0 ? length : end).toString("utf8");
  };
  const octal = (header: Buffer, offset: number, length: number) => parseInt(field(header, offset, length).trim() || "0", 8);
  let at = 0;
  while (at + 512 <= tar.length && tar[at] !== 0) {
    const header = tar.subarray(at, at + 512);
    const name = path.posix.join(field(header, 345, 155), field(header, 0, 100)).replace(/^\/+/, "");
    const size = octal(header, 124, 12);
    const type = field(header, 156, 1) || "0";
    if (type !== "0" && type !== "5") throw new Error(`the starter image holds an entry of type ${type}: ${name}`);
    yield { name, mode: octal(header, 100, 8), directory: type === "5", data: tar.subarray(at + 512, at + 512 + size) };
    at += 512 + Math.ceil(size / 512) * 512;
  }
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
  const kept = await readFile(starterImageFile(migrationsDir, root)).catch(() => undefined);
  return kept ? new Blob([kept]) : await makeStarterImage(migrationsDir, root);
}
