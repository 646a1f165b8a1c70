// Module hooks of record-imports.mjs (they run on Node's loader thread).
import { appendFileSync } from "node:fs";

/** @type {string | undefined} */
let file;

/** @param {{ file: string }} data */
export function initialize(data) {
  file = data.file;
}

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (file) appendFileSync(file, `${specifier}\t${result.url}\n`);
  return result;
}
