/**
 * The catalogue import (issue 51, DESIGN `POST /api/admin/catalogue/imports`): a CSV of the
 * export's columns, run as a job so the request answers at once and any instance can run it (the
 * file is kept on the import's row).
 *
 * 1. Read: UTF-8 (with or without BOM), RFC 4180 by csv-parse (quotes, commas and line breaks in
 *    fields, CRLF). Lines are counted as a spreadsheet shows them: the header is 1, each record
 *    the next, whatever line breaks its quoted fields hold.
 * 2. Check every cell and row (each error `{line, column, message}`, the first 100 kept) before
 *    anything is written. A cell is normalised to the text the export would write for it, so a
 *    row is `unchanged` exactly when its cells equal the export's row of that tool.
 * 3. Write it all in one transaction (all or nothing): brands, categories and products named in
 *    the file are created, tools matched by SKU are updated or created, and a changed stock goes
 *    through the ledger (reason `import`, the file's name as the note).
 */
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { FastifyBaseLogger } from "fastify";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { CATALOGUE_COLUMNS, IMPORT_ERRORS_MAX, SPEC_COLUMN_PREFIX, type CatalogueImport, type ImportError } from "../../contract/catalogue-io";
import { SLUG, validGtin, type SpecValue } from "../../contract/catalogue-schemas";
import { CATEGORIES, LIMITS } from "../../contract/constants";
import { tierProblems, type TierCents } from "../../contract/price-tiers";
import { OWN_IMAGE_PATH } from "../../contract/schemas";
import { CATALOGUE_IO_TEXT as TEXT } from "../../contract/texts/catalogue-io";
import { recordAudit } from "../audit";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { brands, catalogueImports, categories, products, specDefinitions, tools } from "../db/schema";
import { conflict } from "../http/errors";
import { changeStockInBulk, recordMovements } from "../stock/ledger";
import { isUniqueViolation } from "./catalogue";
import { centsText, productsOfTools, slugMaps, specColumn, toolCells, toolColumns, type SheetContext, type SheetTool } from "./spreadsheet";

export const CATALOGUE_IMPORT_QUEUE = "catalogue-import";

const REQUIRED = ["sku", "name", "category", "price", "stock"] as const;
/** A new tool's cells for the columns the file leaves out. */
const NEW_TOOL_DEFAULTS: Record<string, string> = { minimum_quantity: "1", weight_grams: "1000", active: "true", description: "", images: "", price_tiers: "", product: "", gtin: "", brand: "" };
/** Rows between two progress updates of the import's row. */
const PROGRESS_EVERY = 1_000;
/**
 * How often the instance running an import says so, and how long a silence means it is gone: the
 * job runner only learns that from its job's expiry (pg-boss 10: 15 minutes after it started), and
 * until then the dead import held every other one back (409 IMPORT_RUNNING).
 */
export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_SECONDS = 60;
/** Rows read or written per statement. */
const CHUNK = 500;

type Cells = Record<string, string>;
interface Row {
  line: number;
  /** The file's cells, normalised, for the columns the file has. */
  cells: Cells;
  /** A category written as a path (`power-tools/impact-drivers`): the slugs to create under the first. */
  categoryPath?: string[];
}

class Problems {
  readonly list: ImportError[] = [];
  count = 0;
  /** Every row with an error, however many errors there are: the bad rows' download (badRowsCsv). */
  private readonly lines = new Set<number>();
  add(line: number, column: string, message: string) {
    this.count += 1;
    if (line > 1) this.lines.add(line);
    if (this.list.length < IMPORT_ERRORS_MAX) this.list.push({ line, column, message });
  }
  badLines(): number[] {
    return [...this.lines].sort((a, b) => a - b);
  }
}

// ---------------------------------------------------------------- the import's row

const statusColumns = {
  id: catalogueImports.id,
  status: catalogueImports.status,
  dryRun: catalogueImports.dryRun,
  rows: catalogueImports.rows,
  processed: catalogueImports.processed,
  created: catalogueImports.created,
  updated: catalogueImports.updated,
  unchanged: catalogueImports.unchanged,
  errors: catalogueImports.errors,
};

export async function getImport(db: Db, id: string): Promise<CatalogueImport | undefined> {
  const [row] = await db.select(statusColumns).from(catalogueImports).where(eq(catalogueImports.id, id));
  if (!row) return undefined;
  const { id: _id, ...rest } = row;
  return { _id, ...rest };
}

/**
 * Keeps the file and queues its job in one transaction: the job exists only with its import. A
 * real import while another is queued or running is refused (409 IMPORT_RUNNING, the partial
 * unique index settles two at once); dry runs never wait.
 */
export async function startImport(
  db: Db,
  enqueue: (tx: Tx, data: { importId: string }) => Promise<void>,
  input: { fileName: string; file: Buffer; dryRun: boolean; actor: { id: string; email: string } },
): Promise<{ _id: string; status: "queued" }> {
  try {
    return await db.transaction(async (tx) => {
      // A running import whose instance stopped beating died with it (its one transaction rolled back): it
      // ends failed, and this one goes ahead. (Its job, expired later, finds it ended and does nothing.)
      if (!input.dryRun) {
        await tx
          .update(catalogueImports)
          .set({ status: "failed", errors: [{ line: 1, column: "", message: TEXT.interrupted }], finishedAt: sql`now()` })
          .where(
            and(
              eq(catalogueImports.status, "running"),
              eq(catalogueImports.dryRun, false),
              sql`${catalogueImports.heartbeatAt} < now() - make_interval(secs => ${STALE_AFTER_SECONDS})`,
            ),
          );
      }
      const [row] = await tx
        .insert(catalogueImports)
        .values({ dryRun: input.dryRun, fileName: input.fileName, file: input.file, actorId: input.actor.id, actorEmail: input.actor.email })
        .returning({ id: catalogueImports.id });
      if (!row) throw new Error("insert returned no row");
      await enqueue(tx, { importId: row.id });
      return { _id: row.id, status: "queued" as const };
    });
  } catch (error) {
    if (isUniqueViolation(error, "catalogue_imports_one_running_idx")) throw conflict("IMPORT_RUNNING", TEXT.importRunning);
    throw error;
  }
}

/**
 * The bad rows of a failed import as CSV: the file's header, then each row that had an error, in
 * the file's order and with its cells as the file had them, to be put right and imported again
 * (rows are matched by SKU, so a file of these rows alone does the rest). `undefined`: no such
 * import; `null`: no row of it had an error of its own (it did not fail, or failed on the whole
 * file: unreadable, a bad header, a write the database refused).
 */
export async function badRowsCsv(db: Db, id: string): Promise<{ fileName: string; csv: string } | null | undefined> {
  const [row] = await db
    .select({ status: catalogueImports.status, fileName: catalogueImports.fileName, file: catalogueImports.file, badLines: catalogueImports.badLines })
    .from(catalogueImports)
    .where(eq(catalogueImports.id, id));
  if (!row) return undefined;
  if (row.status !== "failed" || row.badLines.length === 0 || !row.file) return null;
  const records = readRecords(row.file);
  if (!Array.isArray(records) || !records[0]) return null;
  // Line n of the file (the header being 1) is its record n - 1.
  const bad = row.badLines.map((line) => records[line - 1]).filter((record): record is string[] => record !== undefined);
  return { fileName: row.fileName, csv: stringify([records[0], ...bad]) };
}

// ---------------------------------------------------------------- reading and checking cells

const titleOf = (slug: string) => slug.replace(/-/g, " ").replace(/\b\p{L}/gu, (c) => c.toUpperCase());
const wholeNumber = (text: string, min: number, max: number) => (/^\d{1,9}$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined);
const PRICE = /^\d{1,9}(\.\d{1,2})?$/;
const priceCents = (text: string) => {
  const [whole = "0", fraction = ""] = text.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
};

/** The file's records, or why it cannot be read as CSV. */
function readRecords(file: Buffer): string[][] | ImportError {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(file);
  } catch {
    return { line: 1, column: "", message: TEXT.notCsv };
  }
  if (text.includes("\u0000")) return { line: 1, column: "", message: TEXT.notCsv };
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
  } catch (error) {
    const { lines, message } = error as { lines?: number; message?: string };
    return { line: lines ?? 1, column: "", message: TEXT.notParsable(message ?? "") };
  }
}

/** The header's columns checked: known (the export's, or `spec:<key>` of a definition), each once, the required ones present. */
function checkHeader(header: string[], specKinds: Map<string, string>, problems: Problems): void {
  const seen = new Set<string>();
  for (const column of header) {
    const known = (CATALOGUE_COLUMNS as readonly string[]).includes(column) || (column.startsWith(SPEC_COLUMN_PREFIX) && specKinds.has(column.slice(SPEC_COLUMN_PREFIX.length)));
    if (!known) problems.add(1, column, TEXT.unknownColumn(column));
    else if (seen.has(column)) problems.add(1, column, TEXT.duplicateColumn(column));
    seen.add(column);
  }
  for (const column of REQUIRED) if (!seen.has(column)) problems.add(1, column, TEXT.missingColumn(column));
}

/**
 * One cell as the export would write it, or the message of what is wrong with it. Empty optional
 * cells are empty (no GTIN, no brand, no value of a specification).
 */
function normalCell(column: string, raw: string, specKinds: Map<string, string>): { value: string; path?: string[] } | { error: string } {
  const text = raw.trim();
  const limit = (max: number) => (text.length > max ? { error: TEXT.tooLong(max) } : { value: text });
  switch (column) {
    case "sku":
      return text === "" ? { error: TEXT.required } : limit(64);
    case "name":
      return text === "" ? { error: TEXT.required } : limit(LIMITS.toolName);
    case "product":
      return limit(120);
    case "option1_name":
    case "option2_name":
    case "option3_name":
      return limit(40);
    case "option1_value":
    case "option2_value":
    case "option3_value":
      return limit(60);
    case "brand":
      return text === "" || SLUG.test(text) ? limit(80) : { error: TEXT.slug };
    case "category": {
      if (text === "") return { error: TEXT.required };
      const path = text.split("/").map((s) => s.trim());
      if (path.some((slug) => !SLUG.test(slug) || slug.length > 80)) return { error: TEXT.slug };
      return path.length > 1 ? { value: path[path.length - 1] as string, path } : { value: text };
    }
    case "price":
      if (!PRICE.test(text) || priceCents(text) <= 0) return { error: TEXT.price };
      if (priceCents(text) > LIMITS.priceDollars * 100) return { error: TEXT.priceTooHigh(LIMITS.priceDollars) };
      return { value: centsText(priceCents(text)) };
    case "stock": {
      const n = wholeNumber(text, 0, LIMITS.quantity);
      return n === undefined ? { error: TEXT.wholeNumber(0, LIMITS.quantity) } : { value: String(n) };
    }
    case "minimum_quantity": {
      const n = text === "" ? 1 : wholeNumber(text, 1, LIMITS.quantity);
      return n === undefined ? { error: TEXT.wholeNumber(1, LIMITS.quantity) } : { value: String(n) };
    }
    case "weight_grams": {
      const n = text === "" ? 1000 : wholeNumber(text, 0, 1_000_000);
      return n === undefined ? { error: TEXT.wholeNumber(0, 1_000_000) } : { value: String(n) };
    }
    case "gtin":
      return text === "" || validGtin(text) ? { value: text } : { error: TEXT.gtin };
    case "active": {
      const lower = text.toLowerCase();
      if (lower === "") return { value: "true" };
      return lower === "true" || lower === "false" ? { value: lower } : { error: TEXT.trueFalse };
    }
    case "description":
      return limit(LIMITS.toolDescription);
    case "images": {
      const images = text.split("|").map((s) => s.trim()).filter((s) => s !== "");
      if (images.length > 20 || images.some((image) => image.length > 500 || !OWN_IMAGE_PATH.test(image))) return { error: TEXT.image };
      return { value: images.join("|") };
    }
    case "price_tiers": {
      if (text === "") return { value: "" };
      const tiers = text.split("|").map((s) => /^\s*(\d{1,9})\s*:\s*(\d{1,9}(?:\.\d{1,2})?)\s*$/.exec(s));
      if (tiers.some((m) => !m)) return { error: TEXT.tiers };
      return { value: tiers.map((m) => `${Number(m?.[1])}:${centsText(priceCents(m?.[2] ?? ""))}`).join("|") };
    }
    default: {
      const kind = specKinds.get(column.slice(SPEC_COLUMN_PREFIX.length));
      if (text === "") return { value: "" };
      if (kind === "number") return /^-?\d{1,12}(\.\d{1,6})?$/.test(text) ? { value: String(Number(text)) } : { error: TEXT.specNumber };
      if (kind === "boolean") return text.toLowerCase() === "true" || text.toLowerCase() === "false" ? { value: text.toLowerCase() } : { error: TEXT.trueFalse };
      return limit(200);
    }
  }
}

const tiersOf = (cell: string): TierCents[] =>
  cell === ""
    ? []
    : cell.split("|").map((pair) => {
        const [quantity = "0", price = "0"] = pair.split(":");
        return { minQuantity: Number(quantity), priceCents: priceCents(price) };
      });

/** A product's option names and a tool's values from a row's cells (the first three options). */
function optionsOf(cells: Cells): { names: string[]; values: Record<string, string>; incomplete: boolean } {
  const names: string[] = [];
  const values: Record<string, string> = {};
  let incomplete = false;
  for (const n of [1, 2, 3]) {
    const name = cells[`option${n}_name`] ?? "";
    const value = cells[`option${n}_value`] ?? "";
    if (name === "" && value === "") continue;
    if (name === "" || value === "") incomplete = true;
    names.push(name);
    values[name] = value;
  }
  return { names, values, incomplete };
}

function specsOfCells(cells: Cells, specKinds: Map<string, string>): Record<string, SpecValue> {
  const specs: Record<string, SpecValue> = {};
  for (const [key, kind] of specKinds) {
    const cell = cells[specColumn(key)] ?? "";
    if (cell === "") continue;
    specs[key] = kind === "number" ? Number(cell) : kind === "boolean" ? cell === "true" : cell;
  }
  return specs;
}

// ---------------------------------------------------------------- the plan: what each row does

interface PlannedRow extends Row {
  /** The tool's cells as they will be: the file's over the tool's (an update) or the defaults (a create). */
  merged: Cells;
  existing?: SheetTool;
  change: "created" | "updated" | "unchanged";
}

interface Plan {
  rows: PlannedRow[];
  specKinds: Map<string, string>;
  context: SheetContext;
  /** Existing products by name (the first made, when names repeat). */
  productByName: Map<string, { id: string; options: { name: string; values: string[] }[] }>;
  categoryBySlug: Map<string, { id: string }>;
}

/** Reads what the rows touch and decides, row by row, whether it creates, updates or leaves a tool; the problems it finds are the rows'. */
async function planRows(db: Db | Tx, rows: Row[], specKinds: Map<string, string>, problems: Problems): Promise<Plan> {
  const existingBySku = new Map<string, SheetTool>();
  const skus = rows.map((r) => r.cells.sku as string);
  for (let i = 0; i < skus.length; i += CHUNK) {
    for (const tool of await db.select(toolColumns).from(tools).where(inArray(tools.sku, skus.slice(i, i + CHUNK)))) existingBySku.set(tool.sku, tool);
  }
  const slugs = await slugMaps(db);
  const context: SheetContext = { ...slugs, products: await productsOfTools(db, [...existingBySku.values()]), specKeys: [...specKinds.keys()] };
  const categoryBySlug = new Map([...slugs.categorySlug].map(([id, slug]) => [slug, { id }]));

  const planned: PlannedRow[] = rows.map((row) => {
    const existing = existingBySku.get(row.cells.sku as string);
    const before = existing ? toolCells(existing, context) : undefined;
    const merged: Cells = { ...(before ?? { ...NEW_TOOL_DEFAULTS, ...Object.fromEntries(context.specKeys.map((k) => [specColumn(k), ""])) }), ...row.cells };
    const change = !before ? "created" : Object.keys(merged).every((column) => merged[column] === before[column]) ? "unchanged" : "updated";
    return { ...row, merged, ...(existing ? { existing } : {}), change };
  });

  // Categories: a slug of the tree, or a path whose first slug is (its other slugs are then known to every row).
  const madeByPaths = new Set(planned.flatMap((row) => (row.categoryPath && categoryBySlug.has(row.categoryPath[0] as string) ? row.categoryPath.slice(1) : [])));
  for (const row of planned) {
    const first = row.categoryPath?.[0];
    const known = first !== undefined ? categoryBySlug.has(first) : categoryBySlug.has(row.merged.category as string) || madeByPaths.has(row.merged.category as string);
    if (!known) problems.add(row.line, "category", TEXT.categoryUnknown);
  }

  // Photos, and price tiers against the price and minimum they will have.
  for (const row of planned) {
    if (row.change === "created" && (row.merged.images ?? "") === "") problems.add(row.line, "images", TEXT.imageMissing);
    const issues = tierProblems(tiersOf(row.merged.price_tiers ?? ""), priceCents(row.merged.price ?? "0"), Number(row.merged.minimum_quantity));
    const [issue] = issues;
    if (issue) problems.add(row.line, "price_tiers", `${TEXT.tiers} (${issue.problem.toLowerCase().replace(/_/g, " ")})`);
  }

  // Products: every row of one names the same options, with a value each, no two the same; an existing product keeps its options' names.
  const productNames = [...new Set(planned.map((r) => r.merged.product ?? "").filter((name) => name !== ""))];
  const productByName = new Map<string, { id: string; options: { name: string; values: string[] }[] }>();
  for (let i = 0; i < productNames.length; i += CHUNK) {
    const found = await db
      .select({ id: products.id, name: products.name, options: products.options })
      .from(products)
      .where(inArray(products.name, productNames.slice(i, i + CHUNK)))
      .orderBy(asc(products.createdAt), asc(products.id));
    for (const p of found) if (!productByName.has(p.name)) productByName.set(p.name, { id: p.id, options: p.options });
  }
  const firstOfProduct = new Map<string, { names: string[]; line: number }>();
  const variantLine = new Map<string, number>();
  for (const row of planned) {
    const product = row.merged.product ?? "";
    const { names, values, incomplete } = optionsOf(row.merged);
    if (product === "") {
      if (names.length > 0) problems.add(row.line, "option1_name", TEXT.optionsOutsideProduct);
      continue;
    }
    if (incomplete) {
      problems.add(row.line, "option1_name", TEXT.optionMissing);
      continue;
    }
    const first = firstOfProduct.get(product);
    if (!first) firstOfProduct.set(product, { names, line: row.line });
    else if (first.names.join("\u0000") !== names.join("\u0000")) {
      problems.add(row.line, "option1_name", TEXT.optionsDisagree(product, first.names.join(", ")));
      continue;
    }
    const existingProduct = productByName.get(product);
    if (existingProduct && existingProduct.options.length > 0 && existingProduct.options.map((o) => o.name).join("\u0000") !== names.join("\u0000")) {
      problems.add(row.line, "option1_name", TEXT.optionsOfProduct(product, existingProduct.options.map((o) => o.name).join(", ")));
      continue;
    }
    const key = `${product}\u0000${JSON.stringify(names.map((n) => values[n]))}`;
    const twin = variantLine.get(key);
    if (twin !== undefined) problems.add(row.line, "option1_value", TEXT.variantTwice(twin));
    else variantLine.set(key, row.line);
  }
  // An existing product's tools that the file leaves as they are keep their values: a row may not take them.
  const existingIds = [...productByName.values()].map((p) => p.id);
  if (existingIds.length > 0) {
    const inFile = new Set(planned.map((r) => r.cells.sku));
    const idToName = new Map([...productByName].map(([name, p]) => [p.id, name]));
    for (let i = 0; i < existingIds.length; i += CHUNK) {
      const members = await db
        .select({ sku: tools.sku, productId: tools.productId, optionValues: tools.optionValues })
        .from(tools)
        .where(inArray(tools.productId, existingIds.slice(i, i + CHUNK)));
      for (const member of members) {
        if (inFile.has(member.sku) || !member.productId) continue;
        const name = idToName.get(member.productId) as string;
        const names = firstOfProduct.get(name)?.names ?? [];
        const key = `${name}\u0000${JSON.stringify(names.map((n) => member.optionValues[n]))}`;
        const line = variantLine.get(key);
        if (line !== undefined) problems.add(line, "option1_value", TEXT.variantExists(member.sku));
      }
    }
  }
  return { rows: planned, specKinds, context, productByName, categoryBySlug };
}

// ---------------------------------------------------------------- writing

/** Creates the brands, categories and products the rows name, then writes the tools; in the caller's transaction. */
async function writePlan(tx: Tx, plan: Plan, note: string, actorId: string | null): Promise<void> {
  const rows = plan.rows.filter((r) => r.change !== "unchanged");
  // Brands named by slug and not yet in the store.
  const brandSlugs = [...new Set(rows.map((r) => r.merged.brand ?? "").filter((slug) => slug !== ""))];
  const known = new Set(plan.context.brandSlug.values());
  const newBrands = brandSlugs.filter((slug) => !known.has(slug));
  if (newBrands.length > 0) await tx.insert(brands).values(newBrands.map((slug) => ({ slug, name: titleOf(slug) }))).onConflictDoNothing();
  const brandId = new Map(
    brandSlugs.length === 0 ? [] : (await tx.select({ id: brands.id, slug: brands.slug }).from(brands).where(inArray(brands.slug, brandSlugs))).map((b) => [b.slug, b.id]),
  );

  // Categories written as paths: each missing slug under the one before it.
  const categoryId = new Map([...plan.categoryBySlug].map(([slug, c]) => [slug, c.id]));
  for (const row of rows) {
    const path = row.categoryPath;
    if (!path) continue;
    let parent = categoryId.get(path[0] as string) as string;
    for (const slug of path.slice(1)) {
      let id = categoryId.get(slug);
      if (!id) {
        const [last] = await tx.select({ max: sql<number | null>`max(${categories.position})` }).from(categories).where(eq(categories.parentId, parent));
        const position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
        const [created] = await tx.insert(categories).values({ slug, name: titleOf(slug), parentId: parent, position }).returning({ id: categories.id });
        if (!created) throw new Error("insert returned no row");
        id = created.id;
        categoryId.set(slug, id);
      }
      parent = id;
    }
  }

  // Products: new ones made, existing ones given the values the file adds to their options.
  const productId = new Map([...plan.productByName].map(([name, p]) => [name, p.id]));
  const optionsByProduct = new Map<string, { name: string; values: string[] }[]>();
  for (const row of plan.rows) {
    const name = row.merged.product ?? "";
    if (name === "") continue;
    const { names, values } = optionsOf(row.merged);
    const options = optionsByProduct.get(name) ?? plan.productByName.get(name)?.options.map((o) => ({ name: o.name, values: [...o.values] })) ?? names.map((n) => ({ name: n, values: [] }));
    for (const option of options) {
      const value = values[option.name];
      if (value !== undefined && !option.values.includes(value)) option.values.push(value);
    }
    optionsByProduct.set(name, options);
  }
  const newProducts: { name: string; options: { name: string; values: string[] }[] }[] = [];
  for (const [name, options] of optionsByProduct) {
    const existing = plan.productByName.get(name);
    if (!existing) newProducts.push({ name, options });
    else if (JSON.stringify(existing.options) !== JSON.stringify(options)) await tx.update(products).set({ options }).where(eq(products.id, existing.id));
  }
  for (let i = 0; i < newProducts.length; i += CHUNK) {
    const created = await tx.insert(products).values(newProducts.slice(i, i + CHUNK)).returning({ id: products.id, name: products.name });
    for (const p of created) productId.set(p.name, p.id);
  }

  const columnsOf = (cells: Cells) => {
    const images = (cells.images ?? "").split("|").filter((s) => s !== "");
    const product = cells.product ?? "";
    return {
      name: cells.name as string,
      productId: product === "" ? null : (productId.get(product) as string),
      optionValues: product === "" ? {} : optionsOf(cells).values,
      brandId: (cells.brand ?? "") === "" ? null : (brandId.get(cells.brand as string) as string),
      categoryId: categoryId.get(cells.category as string) as string,
      priceCents: priceCents(cells.price as string),
      minimumQuantity: Number(cells.minimum_quantity),
      weightGrams: Number(cells.weight_grams),
      gtin: (cells.gtin ?? "") === "" ? null : (cells.gtin as string),
      active: cells.active === "true",
      description: cells.description ?? "",
      images,
      image: images[0] as string,
      priceTiers: tiersOf(cells.price_tiers ?? ""),
      specs: specsOfCells(cells, plan.specKinds),
    };
  };

  // Updates: the tools locked in id order (as checkout locks them), written a chunk a statement; stock through the ledger.
  const updates = rows.filter((r) => r.change === "updated" && r.existing).sort((a, b) => ((a.existing?.id ?? "") < (b.existing?.id ?? "") ? -1 : 1));
  const stockAfter = new Map<string, number>();
  for (let i = 0; i < updates.length; i += CHUNK) {
    const chunk = updates.slice(i, i + CHUNK);
    const ids = chunk.map((r) => r.existing?.id as string);
    const locked = await tx.select({ id: tools.id, stock: tools.availableQuantity }).from(tools).where(inArray(tools.id, ids)).orderBy(asc(tools.id)).for("no key update");
    for (const tool of locked) stockAfter.set(tool.id, tool.stock);
    const records = chunk.map((r) => {
      const c = columnsOf(r.merged);
      return {
        id: r.existing?.id,
        name: c.name,
        product_id: c.productId,
        option_values: c.optionValues,
        brand_id: c.brandId,
        category_id: c.categoryId,
        price_cents: c.priceCents,
        minimum_quantity: c.minimumQuantity,
        weight_grams: c.weightGrams,
        gtin: c.gtin,
        active: c.active,
        description: c.description,
        images: c.images,
        image: c.image,
        price_tiers: c.priceTiers,
        specs: c.specs,
      };
    });
    await tx.execute(sql`
      update ${tools} set name = r.name, product_id = r.product_id, option_values = r.option_values, brand_id = r.brand_id, category_id = r.category_id,
        price_cents = r.price_cents, minimum_quantity = r.minimum_quantity, weight_grams = r.weight_grams, gtin = r.gtin, active = r.active,
        description = r.description, images = r.images, image = r.image, price_tiers = r.price_tiers, specs = r.specs, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(id text, name text, product_id text, option_values jsonb, brand_id text, category_id text,
        price_cents integer, minimum_quantity integer, weight_grams integer, gtin text, active boolean, description text, images jsonb, image text, price_tiers jsonb, specs jsonb)
      where ${tools.id} = r.id`);
  }
  const moves = updates.flatMap((r) => {
    const id = r.existing?.id as string;
    const delta = Number(r.merged.stock) - (stockAfter.get(id) ?? 0);
    return delta === 0 ? [] : [{ toolId: id, delta, reason: "import" as const, note, actorId }];
  });
  await changeStockInBulk(tx, moves);

  // Creates: each new tool's stock is its first movement, reason import.
  const creates = rows.filter((r) => r.change === "created");
  for (let i = 0; i < creates.length; i += CHUNK) {
    const chunk = creates.slice(i, i + CHUNK);
    const inserted = await tx
      .insert(tools)
      .values(
        chunk.map((r) => ({
          ...columnsOf(r.merged),
          sku: r.merged.sku as string,
          // A placeholder root: the trigger on tools (migration 0036) files the tool under its category's root.
          category: CATEGORIES[0],
          availableQuantity: Number(r.merged.stock),
        })),
      )
      .returning({ id: tools.id, stock: tools.availableQuantity });
    await recordMovements(
      tx,
      inserted.map((t) => ({ toolId: t.id, delta: t.stock, reason: "import" as const, note, actorId })),
    );
  }
}

// ---------------------------------------------------------------- the job

/**
 * Runs an import: read and check the file, then (not a dry run, no problem) write it in one
 * transaction with the import's outcome. Run again after a crash, it starts over: nothing of a
 * transaction that did not commit was written.
 */
export async function runImport(db: Db, importId: string, log?: Pick<FastifyBaseLogger, "warn">): Promise<void> {
  const [job] = await db
    .update(catalogueImports)
    .set({ status: "running", processed: 0, heartbeatAt: sql`now()` })
    .where(and(eq(catalogueImports.id, importId), inArray(catalogueImports.status, ["queued", "running"])))
    .returning();
  if (!job) return;
  // Alive while it runs (STALE_AFTER_SECONDS): a beat that fails (the database away) is only late.
  const beat = setInterval(() => {
    db.update(catalogueImports)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(catalogueImports.id, importId), eq(catalogueImports.status, "running")))
      .catch((error: unknown) => log?.warn({ err: error, importId }, "a catalogue import's heartbeat was not written"));
  }, HEARTBEAT_MS);
  beat.unref();
  try {
    await runClaimed(db, job, log);
  } finally {
    clearInterval(beat);
  }
}

/** The import `job` claimed by this instance, from its file to its outcome. */
async function runClaimed(db: Db, job: typeof catalogueImports.$inferSelect, log?: Pick<FastifyBaseLogger, "warn">): Promise<void> {
  const importId = job.id;
  const finish = (values: Partial<typeof catalogueImports.$inferInsert>, tx: Db | Tx = db) =>
    tx
      .update(catalogueImports)
      .set({ ...values, finishedAt: new Date() })
      .where(eq(catalogueImports.id, importId));
  const fail = (errors: ImportError[] | Problems, rows = 0) =>
    errors instanceof Problems
      ? finish({ status: "failed", errors: errors.list, badLines: errors.badLines(), rows, processed: rows })
      : finish({ status: "failed", errors, rows, processed: rows });

  const records = readRecords(job.file ?? Buffer.alloc(0));
  if (!Array.isArray(records)) return void (await fail([records]));
  const [header, ...body] = records;
  if (!header || header.every((cell) => cell.trim() === "")) return void (await fail([{ line: 1, column: "", message: TEXT.empty }]));
  const specKinds = new Map((await db.select({ key: specDefinitions.key, kind: specDefinitions.kind }).from(specDefinitions).orderBy(asc(specDefinitions.position), asc(specDefinitions.key))).map((d) => [d.key, d.kind]));
  const problems = new Problems();
  const columns = header.map((cell) => cell.trim());
  checkHeader(columns, specKinds, problems);
  if (problems.count > 0) return void (await fail(problems));

  // Every cell, a progress update every PROGRESS_EVERY rows.
  const rows: Row[] = [];
  const firstLineOfSku = new Map<string, number>();
  let dataRows = 0;
  for (let i = 0; i < body.length; i += 1) {
    const record = body[i] as string[];
    const line = i + 2;
    if (record.every((cell) => cell.trim() === "")) continue; // an empty row of a spreadsheet
    dataRows += 1;
    if (record.length !== columns.length) {
      problems.add(line, columns[Math.min(record.length, columns.length - 1)] ?? "", TEXT.fieldCount(record.length, columns.length));
      continue;
    }
    const row: Row = { line, cells: {} };
    let ok = true;
    columns.forEach((column, c) => {
      const result = normalCell(column, record[c] ?? "", specKinds);
      if ("error" in result) {
        problems.add(line, column, result.error);
        ok = false;
      } else {
        row.cells[column] = result.value;
        if (result.path) row.categoryPath = result.path;
      }
    });
    const sku = row.cells.sku;
    if (sku !== undefined) {
      const first = firstLineOfSku.get(sku);
      if (first !== undefined) {
        problems.add(line, "sku", TEXT.skuDuplicate(first));
        ok = false;
      } else firstLineOfSku.set(sku, line);
    }
    if (ok) rows.push(row);
    if (dataRows % PROGRESS_EVERY === 0) await db.update(catalogueImports).set({ processed: dataRows, rows: body.length }).where(eq(catalogueImports.id, importId));
  }
  await db.update(catalogueImports).set({ processed: dataRows, rows: dataRows }).where(eq(catalogueImports.id, importId));
  if (problems.count > 0) return void (await fail(problems, dataRows));

  const counts = (plan: Plan) => ({
    created: plan.rows.filter((r) => r.change === "created").length,
    updated: plan.rows.filter((r) => r.change === "updated").length,
    unchanged: plan.rows.filter((r) => r.change === "unchanged").length,
  });
  if (job.dryRun) {
    const plan = await planRows(db, rows, specKinds, problems);
    if (problems.count > 0) return void (await fail(problems, dataRows));
    return void (await finish({ status: "done", rows: dataRows, processed: dataRows, ...counts(plan) }));
  }
  let wrote = false;
  try {
    await db.transaction(async (tx) => {
      // One import writes at a time, whatever instance runs it.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('toolyard:catalogue-import'))`);
      const plan = await planRows(tx, rows, specKinds, problems);
      if (problems.count > 0) return;
      await writePlan(tx, plan, job.fileName, job.actorId);
      const outcome = counts(plan);
      if (job.actorId) {
        await recordAudit(
          tx,
          { id: job.actorId, email: job.actorEmail },
          { action: "catalogue.import", entity: "catalogue-import", entityId: importId, after: { fileName: job.fileName, rows: dataRows, ...outcome } },
        );
      }
      await finish({ status: "done", rows: dataRows, processed: dataRows, ...outcome }, tx);
      wrote = outcome.created + outcome.updated > 0;
    });
  } catch (error) {
    // Whatever stopped the transaction (a SKU taken meanwhile, a check the database makes), nothing of it
    // was written: the import says so. If even that cannot be written (the database is away), the runner
    // tries the job again later.
    log?.warn({ err: error, importId }, "a catalogue import failed while writing; nothing was written");
    await fail([{ line: 1, column: "", message: TEXT.writeFailed }], dataRows);
    return;
  }
  if (problems.count > 0) return void (await fail(problems, dataRows));
  if (wrote) announceChange(db, "tools");
}
