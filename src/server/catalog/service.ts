import { and, asc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import type { Tool, ToolInput, ToolPatch, toolListQuerySchema } from "../../contract/schemas";
import { announceChange } from "../db/changes";
import type { Db } from "../db/client";
import { pageWithTotal, totalOver } from "../db/paging";
import { tools } from "../db/schema";

type ToolRow = typeof tools.$inferSelect;

export const toToolDto = (row: ToolRow): Tool => ({
  _id: row.id,
  name: row.name,
  image: row.image,
  price: centsToDollars(row.priceCents),
  availableQuantity: row.availableQuantity,
  minimumQuantity: row.minimumQuantity,
  description: row.description,
  category: row.category,
});

/** The list query as the route has parsed it (defaults applied): the contract's schema decides its shape. */
export type ToolQuery = z.infer<typeof toolListQuerySchema>;

/** `%` and `_` typed by a customer are literal characters, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listTools(db: Db, query: ToolQuery): Promise<{ items: Tool[]; total: number }> {
  const filters: SQL[] = [eq(tools.active, true)];
  if (query.category) filters.push(eq(tools.category, query.category));
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    const match = or(ilike(tools.name, pattern), ilike(tools.description, pattern));
    if (match) filters.push(match);
  }
  const where = and(...filters);
  const page = await pageWithTotal(
    db
      .select({ row: tools, total: totalOver() })
      .from(tools)
      .where(where)
      .orderBy(asc(tools.createdAt), asc(tools.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    query.page,
    () => db.$count(tools, where),
  );
  return { items: page.items.map(toToolDto), total: page.total };
}

export async function getTool(db: Db, id: string): Promise<Tool | undefined> {
  const [row] = await db
    .select()
    .from(tools)
    .where(and(eq(tools.id, id), eq(tools.active, true)))
    .limit(1);
  return row ? toToolDto(row) : undefined;
}

export async function createTool(db: Db, input: ToolInput): Promise<Tool> {
  const { price, ...rest } = input;
  const [row] = await db
    .insert(tools)
    .values({ ...rest, priceCents: dollarsToCents(price) })
    .returning();
  if (!row) throw new Error("insert returned no row");
  announceChange(db, "tools");
  return toToolDto(row);
}

export async function updateTool(db: Db, id: string, patch: ToolPatch): Promise<Tool | undefined> {
  const { price, ...rest } = patch;
  const values = { ...rest, ...(price === undefined ? {} : { priceCents: dollarsToCents(price) }) };
  if (Object.keys(values).length === 0) return getTool(db, id);
  const [row] = await db
    .update(tools)
    .set(values)
    .where(and(eq(tools.id, id), eq(tools.active, true)))
    .returning();
  if (row) announceChange(db, "tools");
  return row ? toToolDto(row) : undefined;
}

/** Retires a tool: it leaves the catalogue, past orders keep it. */
export async function retireTool(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(tools)
    .set({ active: false })
    .where(and(eq(tools.id, id), eq(tools.active, true)))
    .returning({ id: tools.id });
  if (rows.length > 0) announceChange(db, "tools");
  return rows.length > 0;
}
