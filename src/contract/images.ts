/**
 * Uploaded photos: the store keeps each in resized WebP variants named `<stem>-<width>.webp`
 * under /uploads/; a tool's `image` names the middle one, and its srcset lists them all.
 */
export const PHOTO_WIDTHS = [320, 640, 1280] as const;
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_DEFAULT_WIDTH = 640;

const UPLOADED = /^(\/uploads\/tools\/[A-Za-z0-9-]+)-640\.webp$/;

/** The srcset of an uploaded photo; undefined for the store's own artwork (one file). */
export function photoSrcSet(image: string): string | undefined {
  const stem = UPLOADED.exec(image)?.[1];
  return stem ? PHOTO_WIDTHS.map((w) => `${stem}-${w}.webp ${w}w`).join(", ") : undefined;
}
