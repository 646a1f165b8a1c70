/**
 * The console's money (DESIGN "Money"): tax rates (and their CSV file), promotion codes,
 * delivery methods, the store's own details and tax-exempt customers. Money is integer cents
 * here and dollars in the API. Every change is one transaction with its audit entry; a change
 * that fails its checks leaves nothing behind.
 */
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { asc, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { AdminUser } from "../../contract/admin-schemas";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import {
  promotionInputSchema,
  shippingMethodInputSchema,
  TAX_RATE_CSV_COLUMNS,
  TAX_RATE_CSV_MAX_ROWS,
  taxRateInputSchema,
  type Promotion,
  type PromotionInput,
  type PromotionPatch,
  type ShippingMethod,
  type ShippingMethodInput,
  type ShippingMethodPatch,
  type StoreSettings,
  type TaxRate,
  type TaxRatePatch,
} from "../../contract/money-schemas";
import { DEFAULT_STORE_TIME_ZONE } from "../../contract/money-schemas";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { API_TEXT } from "../../contract/texts/api";
import { MONEY_TEXT } from "../../contract/texts/money";
import { MONEY_ADMIN_TEXT } from "../../contract/texts/money-admin";
import { recordAudit, type AuditActor, type AuditRecord } from "../audit";
import { adminUserById } from "../admin/service";
import type { Db, Tx } from "../db/client";
import { profiles, promotions, shippingMethods, storeSettings, taxRates, user } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";

type Detail = { path: string; message: string };

/** The route validator's 400, for what only the whole record shows (a PATCH checked with what it keeps). */
const invalid = (details: Detail[]) =>
  new ApiError(400, "VALIDATION", details[0]?.message ?? API_TEXT.invalidInput, { details });

/** Parses `value` with `schema`, or throws the 400 the route's own validation would have given. */
function parseWhole<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(result.error.issues.map((issue) => ({ path: ["body", ...issue.path.map(String)].join("."), message: issue.message })));
}

/** Postgres's unique_violation, as either driver reports it (Drizzle wraps the driver's error in `cause`). */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** An edit that changed nothing (the form saved as it was) is not worth an entry in the trail. */
async function auditChange(tx: Tx, actor: AuditActor, record: AuditRecord & { before: unknown; after: unknown }): Promise<void> {
  if (JSON.stringify(record.before) !== JSON.stringify(record.after)) await recordAudit(tx, actor, record);
}

/** What a PATCH needs to know about one kind of record. */
interface Editable<Row, View, Values> {
  /** The row, locked for the rest of the transaction. */
  lock: (tx: Tx) => Promise<Row | undefined>;
  save: (tx: Tx, values: Values) => Promise<Row | undefined>;
  view: (row: Row) => View;
  /** The row as the create route would take it, for the patch to be merged into. */
  asInput: (row: Row) => object;
  schema: z.ZodType<Values>;
  missing: () => ApiError;
  /** The 409 for a unique index the new values collide with. */
  taken?: () => ApiError;
  audit: Pick<AuditRecord, "action" | "entity" | "entityId">;
}

/** A PATCH: the row as stored with the fields sent, checked whole as a create would be, saved and audited in one transaction. */
async function patchRecord<Row, View, Values>(db: Db, patch: object, actor: AuditActor, e: Editable<Row, View, Values>): Promise<View> {
  try {
    return await db.transaction(async (tx) => {
      const before = await e.lock(tx);
      if (!before) throw e.missing();
      const values = parseWhole(e.schema, { ...e.asInput(before), ...sent(patch) });
      const after = await e.save(tx, values);
      if (!after) throw e.missing();
      await auditChange(tx, actor, { ...e.audit, before: e.view(before), after: e.view(after) });
      return e.view(after);
    });
  } catch (error) {
    if (e.taken && isUniqueViolation(error)) throw e.taken();
    throw error;
  }
}

/** Keeps the keys a PATCH sent: an absent key keeps the stored value. */
const sent = <T extends object>(patch: T): Partial<T> => Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;

// ------------------------------------------------------------------ tax rates

type TaxRateRow = typeof taxRates.$inferSelect;
type TaxRateValues = z.output<typeof taxRateInputSchema>;
const toTaxRate = (row: TaxRateRow): TaxRate => ({
  _id: row.id,
  country: row.country,
  region: row.region,
  postalPrefix: row.postalPrefix,
  name: row.name,
  rateBasisPoints: row.rateBasisPoints,
  taxShipping: row.taxShipping,
});
const taxRateValues = (row: TaxRateRow): TaxRateValues => ({
  country: row.country,
  region: row.region,
  postalPrefix: row.postalPrefix,
  name: row.name,
  rateBasisPoints: row.rateBasisPoints,
  taxShipping: row.taxShipping,
});
const placeTaken = () => conflict("TAX_RATE_PLACE_TAKEN", MONEY_ADMIN_TEXT.taxRatePlaceTaken);

export async function listTaxRates(db: Db | Tx): Promise<TaxRate[]> {
  const rows = await db.select().from(taxRates).orderBy(asc(taxRates.country), asc(taxRates.region), asc(taxRates.postalPrefix));
  return rows.map(toTaxRate);
}

export async function createTaxRate(db: Db, input: TaxRateValues, actor: AuditActor): Promise<TaxRate> {
  return db.transaction(async (tx) => {
    // The place's unique index decides between two racing creates: the loser gets a 409, not a 500.
    const [row] = await tx.insert(taxRates).values(input).onConflictDoNothing().returning();
    if (!row) throw placeTaken();
    const rate = toTaxRate(row);
    await recordAudit(tx, actor, { action: "tax-rate.create", entity: "tax-rate", entityId: row.id, after: rate });
    return rate;
  });
}

export async function updateTaxRate(db: Db, id: string, patch: TaxRatePatch, actor: AuditActor): Promise<TaxRate> {
  return patchRecord(db, patch, actor, {
    lock: async (tx) => (await tx.select().from(taxRates).where(eq(taxRates.id, id)).for("update"))[0],
    save: async (tx, values) => (await tx.update(taxRates).set(values).where(eq(taxRates.id, id)).returning())[0],
    view: toTaxRate,
    asInput: taxRateValues,
    schema: taxRateInputSchema,
    missing: () => notFound(MONEY_ADMIN_TEXT.taxRateNotFound),
    taken: placeTaken,
    audit: { action: "tax-rate.update", entity: "tax-rate", entityId: id },
  });
}

export async function deleteTaxRate(db: Db, id: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(taxRates).where(eq(taxRates.id, id)).returning();
    if (!row) throw notFound(MONEY_ADMIN_TEXT.taxRateNotFound);
    await recordAudit(tx, actor, { action: "tax-rate.delete", entity: "tax-rate", entityId: id, before: toTaxRate(row) });
  });
}

/** The table as a CSV file, in the columns an import takes back (export → edit → import). */
export async function exportTaxRatesCsv(db: Db): Promise<string> {
  const rates = await listTaxRates(db);
  return stringify(
    rates.map((r) => ({ ...r, taxShipping: r.taxShipping ? "true" : "false" })),
    { header: true, columns: [...TAX_RATE_CSV_COLUMNS] },
  );
}

const TRUE_WORDS = new Set(["true", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "no", "0", ""]);
/** Past this many bad rows the owner has enough to fix; the answer stays small. */
const MAX_REPORTED_ROWS = 20;

/** Reads and checks the whole file; every bad row is reported (up to MAX_REPORTED_ROWS), by its line in the file. */
export function readTaxRatesCsv(text: string): TaxRateValues[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // csv-parse's types do not follow `info: true`, which wraps each record with where it was read.
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof records;
  } catch (error) {
    // csv-parse names the line it stopped on; its own sentence is English that the texts do not hold.
    const line = (error as { lines?: unknown }).lines;
    const message = typeof line === "number" ? MONEY_ADMIN_TEXT.csvRowProblem(line, MONEY_ADMIN_TEXT.csvUnreadable) : MONEY_ADMIN_TEXT.csvUnreadable;
    throw invalid([{ path: typeof line === "number" ? `row.${line}` : "body", message: MONEY_ADMIN_TEXT.csvRejected(message) }]);
  }
  const [header, ...rows] = records;
  if (!header) throw invalid([{ path: "body", message: MONEY_ADMIN_TEXT.csvRejected(MONEY_ADMIN_TEXT.csvEmpty) }]);
  const columns = header.record.map((c) => c.trim());
  const headerProblems: Detail[] = [];
  for (const c of columns) if (!(TAX_RATE_CSV_COLUMNS as readonly string[]).includes(c)) headerProblems.push({ path: "row.1", message: MONEY_ADMIN_TEXT.csvUnknownColumn(c) });
  for (const c of TAX_RATE_CSV_COLUMNS) if (!columns.includes(c)) headerProblems.push({ path: "row.1", message: MONEY_ADMIN_TEXT.csvMissingColumn(c) });
  if (headerProblems.length > 0 || new Set(columns).size !== columns.length) {
    const first = MONEY_ADMIN_TEXT.csvRowProblem(1, MONEY_ADMIN_TEXT.csvHeader(TAX_RATE_CSV_COLUMNS.join(",")));
    throw invalid([{ path: "row.1", message: MONEY_ADMIN_TEXT.csvRejected(first) }, ...headerProblems]);
  }
  if (rows.length > TAX_RATE_CSV_MAX_ROWS) throw invalid([{ path: "body", message: MONEY_ADMIN_TEXT.csvRejected(MONEY_ADMIN_TEXT.csvTooManyRows(TAX_RATE_CSV_MAX_ROWS)) }]);

  const problems: Detail[] = [];
  const values: TaxRateValues[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { record, info } of rows) {
    if (problems.length >= MAX_REPORTED_ROWS) break;
    const row = info.lines;
    const cell = (name: string) => record[columns.indexOf(name)] ?? "";
    const rate = cell("rateBasisPoints");
    const shipping = cell("taxShipping").toLowerCase();
    const rowProblems: Detail[] = [];
    if (!TRUE_WORDS.has(shipping) && !FALSE_WORDS.has(shipping)) rowProblems.push({ path: `row.${row}.taxShipping`, message: MONEY_ADMIN_TEXT.csvRow(row, "taxShipping", MONEY_ADMIN_TEXT.csvBoolean) });
    const parsed = taxRateInputSchema.safeParse({
      country: cell("country"),
      region: cell("region"),
      postalPrefix: cell("postalPrefix"),
      name: cell("name"),
      // A number only when it is a whole one: "12.5" or "7%" reach the schema as text and get its message.
      rateBasisPoints: /^-?\d{1,9}$/.test(rate) ? Number(rate) : rate,
      taxShipping: TRUE_WORDS.has(shipping),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path.map(String).join(".") || "row";
        rowProblems.push({ path: `row.${row}.${field}`, message: MONEY_ADMIN_TEXT.csvRow(row, field, issue.message) });
      }
    } else {
      const place = `${parsed.data.country}|${parsed.data.region}|${parsed.data.postalPrefix}`;
      const first = firstRowOf.get(place);
      if (first !== undefined) rowProblems.push({ path: `row.${row}`, message: MONEY_ADMIN_TEXT.csvRowProblem(row, MONEY_ADMIN_TEXT.csvPlaceTwice(first)) });
      else firstRowOf.set(place, row);
      values.push(parsed.data);
    }
    problems.push(...rowProblems);
  }
  if (problems.length > 0) {
    const [first, ...rest] = problems as [Detail, ...Detail[]];
    throw invalid([{ ...first, message: MONEY_ADMIN_TEXT.csvRejected(first.message) }, ...rest]);
  }
  return values;
}

/** Postgres takes at most 65,535 parameters a statement: 6 a row, well under. */
const INSERT_CHUNK = 1000;

/** The file replaces the whole table in one transaction: all of it or, on any bad row, none. */
export async function importTaxRatesCsv(db: Db, text: string, actor: AuditActor): Promise<TaxRate[]> {
  const values = readTaxRatesCsv(text);
  return db.transaction(async (tx) => {
    // A create racing the import would land between the delete and the inserts; the lock keeps it out.
    await tx.execute(sql`lock table ${taxRates} in exclusive mode`);
    const before = await tx.delete(taxRates).returning({ id: taxRates.id });
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(taxRates).values(values.slice(i, i + INSERT_CHUNK));
    await recordAudit(tx, actor, { action: "tax-rate.import", entity: "tax-rate", entityId: "*", before: { count: before.length }, after: { count: values.length } });
    return listTaxRates(tx);
  });
}

// ------------------------------------------------------------------ promotions

type PromotionRow = typeof promotions.$inferSelect;
type PromotionValues = z.output<typeof promotionInputSchema>;
const toPromotion = (row: PromotionRow): Promotion => ({
  _id: row.id,
  code: row.code,
  kind: row.kind,
  value: row.kind === "amount" ? centsToDollars(row.value) : row.value,
  minSubtotal: centsToDollars(row.minSubtotalCents),
  startsAt: row.startsAt?.toISOString() ?? null,
  endsAt: row.endsAt?.toISOString() ?? null,
  usageLimit: row.usageLimit,
  perCustomerLimit: row.perCustomerLimit,
  categories: row.categories,
  active: row.active,
  redemptions: row.redemptions,
});
/** A stored promotion as the API would send it to create it again (what a PATCH is merged with). */
const promotionInput = (row: PromotionRow): PromotionInput => {
  const p = toPromotion(row);
  return { code: p.code, kind: p.kind, value: p.value, minSubtotal: p.minSubtotal, startsAt: p.startsAt, endsAt: p.endsAt, usageLimit: p.usageLimit, perCustomerLimit: p.perCustomerLimit, categories: p.categories, active: p.active };
};
const promotionColumns = (v: PromotionValues) => ({
  code: v.code,
  kind: v.kind,
  value: v.kind === "amount" ? dollarsToCents(v.value) : v.value,
  minSubtotalCents: dollarsToCents(v.minSubtotal ?? 0),
  startsAt: v.startsAt ? new Date(v.startsAt) : null,
  endsAt: v.endsAt ? new Date(v.endsAt) : null,
  usageLimit: v.usageLimit ?? null,
  perCustomerLimit: v.perCustomerLimit ?? null,
  categories: [...new Set(v.categories ?? [])],
  active: v.active ?? true,
});
const codeTaken = () => conflict("PROMOTION_CODE_TAKEN", MONEY_TEXT.codeTaken);

export async function listPromotions(db: Db): Promise<Promotion[]> {
  const rows = await db.select().from(promotions).orderBy(desc(promotions.createdAt), asc(promotions.code));
  return rows.map(toPromotion);
}

export async function createPromotion(db: Db, input: PromotionValues, actor: AuditActor): Promise<Promotion> {
  return db.transaction(async (tx) => {
    // Codes are stored upper-case, so the unique index is case-insensitive for what customers type.
    const [row] = await tx.insert(promotions).values(promotionColumns(input)).onConflictDoNothing({ target: promotions.code }).returning();
    if (!row) throw codeTaken();
    const promotion = toPromotion(row);
    await recordAudit(tx, actor, { action: "promotion.create", entity: "promotion", entityId: row.id, after: promotion });
    return promotion;
  });
}

export async function updatePromotion(db: Db, id: string, patch: PromotionPatch, actor: AuditActor): Promise<Promotion> {
  return patchRecord(db, patch, actor, {
    lock: async (tx) => (await tx.select().from(promotions).where(eq(promotions.id, id)).for("update"))[0],
    // The redemptions count is the checkout's, kept under this same row lock: never written here.
    save: async (tx, values) => (await tx.update(promotions).set(promotionColumns(values)).where(eq(promotions.id, id)).returning())[0],
    view: toPromotion,
    asInput: promotionInput,
    schema: promotionInputSchema,
    missing: () => notFound(MONEY_ADMIN_TEXT.promotionNotFound),
    taken: codeTaken,
    audit: { action: "promotion.update", entity: "promotion", entityId: id },
  });
}

// ------------------------------------------------------------------ delivery methods

type MethodRow = typeof shippingMethods.$inferSelect;
type MethodValues = z.output<typeof shippingMethodInputSchema>;
const toShippingMethod = (row: MethodRow): ShippingMethod => ({
  _id: row.id,
  name: row.name,
  freeOver: row.freeOverCents === null ? null : centsToDollars(row.freeOverCents),
  active: row.active,
  zones: row.zones.map((zone) => ({
    name: zone.name,
    destinations: zone.destinations.map((d) => ({ country: d.country, region: d.region })),
    bands: zone.bands.map((b) => ({ maxGrams: b.maxGrams, price: centsToDollars(b.priceCents) })),
  })),
});
const methodInput = (row: MethodRow): ShippingMethodInput => {
  const m = toShippingMethod(row);
  return { name: m.name, freeOver: m.freeOver, active: m.active, zones: m.zones };
};
const methodColumns = (v: MethodValues) => ({
  name: v.name,
  freeOverCents: v.freeOver === null ? null : dollarsToCents(v.freeOver),
  active: v.active,
  zones: v.zones.map((zone) => ({
    name: zone.name,
    destinations: zone.destinations.map((d) => ({ country: d.country, region: d.region })),
    bands: zone.bands.map((b) => ({ maxGrams: b.maxGrams, priceCents: dollarsToCents(b.price) })),
  })),
});

export async function listShippingMethods(db: Db): Promise<ShippingMethod[]> {
  const rows = await db.select().from(shippingMethods).orderBy(asc(shippingMethods.createdAt), asc(shippingMethods.id));
  return rows.map(toShippingMethod);
}

export async function createShippingMethod(db: Db, input: MethodValues, actor: AuditActor): Promise<ShippingMethod> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(shippingMethods).values(methodColumns(input)).returning();
    if (!row) throw new Error("insert returned no row");
    const method = toShippingMethod(row);
    await recordAudit(tx, actor, { action: "shipping-method.create", entity: "shipping-method", entityId: row.id, after: method });
    return method;
  });
}

export async function updateShippingMethod(db: Db, id: string, patch: ShippingMethodPatch, actor: AuditActor): Promise<ShippingMethod> {
  return patchRecord(db, patch, actor, {
    lock: async (tx) => (await tx.select().from(shippingMethods).where(eq(shippingMethods.id, id)).for("update"))[0],
    save: async (tx, values) => (await tx.update(shippingMethods).set(methodColumns(values)).where(eq(shippingMethods.id, id)).returning())[0],
    view: toShippingMethod,
    asInput: methodInput,
    schema: shippingMethodInputSchema,
    missing: () => notFound(MONEY_ADMIN_TEXT.shippingMethodNotFound),
    audit: { action: "shipping-method.update", entity: "shipping-method", entityId: id },
  });
}

/** Orders keep the method's id and name as they were, so a method can go without touching them. */
export async function deleteShippingMethod(db: Db, id: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(shippingMethods).where(eq(shippingMethods.id, id)).returning();
    if (!row) throw notFound(MONEY_ADMIN_TEXT.shippingMethodNotFound);
    await recordAudit(tx, actor, { action: "shipping-method.delete", entity: "shipping-method", entityId: id, before: toShippingMethod(row) });
  });
}

// ------------------------------------------------------------------ the store's details

type SettingsRow = typeof storeSettings.$inferSelect;
const toSettings = (row: SettingsRow): StoreSettings => ({
  legalName: row.legalName,
  address: row.address,
  city: row.city,
  region: row.region,
  postalCode: row.postalCode,
  country: row.country,
  taxId: row.taxId,
  timeZone: row.timeZone,
});
const SETTINGS_ID = 1;

export async function getStoreSettings(db: Db): Promise<StoreSettings> {
  const [row] = await db.select().from(storeSettings).where(eq(storeSettings.id, SETTINGS_ID));
  // Migration 0009 inserts the row; a store without it shows the form empty rather than failing.
  return row ? toSettings(row) : { legalName: "", address: "", city: "", region: "", postalCode: "", country: "", taxId: "", timeZone: DEFAULT_STORE_TIME_ZONE };
}

export async function putStoreSettings(db: Db, given: Omit<StoreSettings, "timeZone"> & { timeZone?: string | undefined }, actor: AuditActor): Promise<StoreSettings> {
  // A client that does not send the time zone leaves it as it is.
  const { timeZone, ...rest } = given;
  const input = timeZone === undefined ? rest : { ...rest, timeZone };
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(storeSettings).where(eq(storeSettings.id, SETTINGS_ID)).for("update");
    const [after] = await tx
      .insert(storeSettings)
      .values({ id: SETTINGS_ID, ...input })
      .onConflictDoUpdate({ target: storeSettings.id, set: { ...input, updatedAt: new Date() } })
      .returning();
    if (!after) throw new Error("settings upsert returned no row");
    await recordAudit(tx, actor, { action: "settings.update", entity: "settings", entityId: String(SETTINGS_ID), before: before ? toSettings(before) : null, after: toSettings(after) });
    return toSettings(after);
  });
}

// ------------------------------------------------------------------ tax-exempt customers

/** Marks a customer tax-exempt with their certificate number, or clears it (""). */
export async function setTaxExempt(db: Db, userId: string, certificate: string, actor: AuditActor): Promise<AdminUser> {
  const value = certificate === "" ? null : certificate;
  await db.transaction(async (tx) => {
    const [account] = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for("update");
    if (!account) throw notFound(ADMIN_API_TEXT.userNotFound);
    const [before] = await tx.select({ certificate: profiles.taxExemptCertificate }).from(profiles).where(eq(profiles.userId, userId));
    const previous = before?.certificate ?? null;
    if (previous === value) return;
    await tx
      .insert(profiles)
      .values({ userId, taxExemptCertificate: value })
      .onConflictDoUpdate({ target: profiles.userId, set: { taxExemptCertificate: value, updatedAt: new Date() } });
    await recordAudit(tx, actor, {
      action: value === null ? "user.tax-exempt-clear" : "user.tax-exempt",
      entity: "user",
      entityId: userId,
      before: { taxExemptCertificate: previous },
      after: { taxExemptCertificate: value },
    });
  });
  const account = await adminUserById(db, userId);
  if (!account) throw notFound(ADMIN_API_TEXT.userNotFound);
  return account;
}
