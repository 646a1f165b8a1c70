/**
 * Tool photos: an uploaded file becomes resized WebP variants under the upload folder. The
 * type is read from the file's first bytes (never from its name or the browser's word), and
 * a file that is not a JPEG, PNG or WebP sharp can decode leaves nothing behind.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { PHOTO_DEFAULT_WIDTH, PHOTO_WIDTHS } from "../../contract/images";

export type PhotoType = "jpeg" | "png" | "webp";

/** The image type from the magic bytes, or undefined for anything else. */
export function sniffImageType(bytes: Buffer): PhotoType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "webp";
  return undefined;
}

export class BadPhotoError extends Error {}

/**
 * Writes the variants of `bytes` for tool `toolId`; returns the public path of the default
 * one (the tool's new `image`) and the files written, so a later failure can remove them.
 */
export async function storePhoto(uploadDir: string, toolId: string, bytes: Buffer): Promise<{ image: string; files: string[] }> {
  const folder = path.join(uploadDir, "tools");
  await mkdir(folder, { recursive: true });
  // A new name per upload: the files can be cached for a year, since they never change.
  const stem = `${toolId.replace(/[^A-Za-z0-9-]/g, "")}-${randomBytes(6).toString("hex")}`;
  const files: string[] = [];
  try {
    // Loaded on the first upload, not at start-up: sharp brings its native libvips.
    const { default: sharp } = await import("sharp");
    const source = sharp(bytes, { failOn: "error", limitInputPixels: 50_000_000 }).rotate();
    for (const width of PHOTO_WIDTHS) {
      const file = path.join(folder, `${stem}-${width}.webp`);
      files.push(file);
      await source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toFile(file);
    }
  } catch (error) {
    await removeFiles(files);
    throw new BadPhotoError(error instanceof Error ? error.message : String(error));
  }
  return { image: `/uploads/tools/${stem}-${PHOTO_DEFAULT_WIDTH}.webp`, files };
}

export async function removeFiles(files: string[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f, { force: true })));
}
