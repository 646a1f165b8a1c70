/**
 * The stock ledger: every change of a tool's stock (its initial stock, an order, a cancel, an
 * admin's restock or correction) is written here in the same transaction as the change, so a
 * tool's `available_quantity` always equals the sum of its movements. A change of stock goes through
 * changeStock; the one exception is checkout's placement, which sets its locked tools' stock and
 * writes their movements in one statement, in its fixed lock order (orders/placement.ts, service.ts).
 */
import { desc, eq, sql } from "drizzle-orm";
import type { StockReason } from "../../contract/stock";
import type { StockMovement } from "../../contract/admin-schemas";
import type { Db, Tx } from "../db/client";
import { stockMovements, tools, user } from "../db/schema";

export interface Movement {
  toolId: string;
  delta: number;
  reason: StockReason;
  note?: string;
  orderId?: string | null;
  actorId?: string | null;
}

export async function recordMovements(tx: Db | Tx, movements: Movement[]): Promise<void> {
  const rows = movements.filter((m) => m.delta !== 0);
  if (rows.length === 0) return;
  await tx.insert(stockMovements).values(
    rows.map((m) => ({ toolId: m.toolId, delta: m.delta, reason: m.reason, note: m.note ?? "", orderId: m.orderId ?? null, actorId: m.actorId ?? null })),
  );
}

/**
 * THE way a tool's stock changes after it is created: each movement's delta added to its tool's
 * `available_quantity` (tools in id order, like every transaction that locks tools; one tool's
 * movements in the order given) and written as a movement, in the caller's transaction. Answers
 * each changed tool's stock after its movements. A movement that would take a tool below zero
 * throws (the caller checks first and answers it; the column's check is the last guard).
 */
export async function changeStock(tx: Tx, movements: Movement[]): Promise<Map<string, number>> {
  const rows = movements.filter((m) => m.delta !== 0);
  const perTool = new Map<string, number>();
  for (const m of rows) perTool.set(m.toolId, (perTool.get(m.toolId) ?? 0) + m.delta);
  const after = new Map<string, number>();
  for (const [toolId, delta] of [...perTool].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [row] = await tx
      .update(tools)
      .set({ availableQuantity: sql`${tools.availableQuantity} + ${delta}` })
      .where(eq(tools.id, toolId))
      .returning({ availableQuantity: tools.availableQuantity });
    if (row) after.set(toolId, row.availableQuantity);
  }
  await recordMovements(
    tx,
    [...rows].sort((a, b) => (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0)),
  );
  return after;
}

/**
 * Puts units back on the shelf (a cancel, a refund's restock): each tool's stock rises, tools in id
 * order like every transaction that locks tools, and each rise is a movement in the ledger.
 */
export async function returnToStock(tx: Tx, units: Map<string, number>, movement: Omit<Movement, "toolId" | "delta">): Promise<void> {
  await changeStock(
    tx,
    [...units].filter(([, quantity]) => quantity > 0).map(([toolId, quantity]) => ({ ...movement, toolId, delta: quantity })),
  );
}

/** A tool's movements, newest first, with who made each (their e-mail). */
export async function listMovements(db: Db, toolId: string, page: number, limit: number): Promise<{ items: StockMovement[]; total: number }> {
  const where = eq(stockMovements.toolId, toolId);
  const rows = await db
    .select({ row: stockMovements, by: user.email, total: sql<number>`count(*) over()`.mapWith(Number) })
    .from(stockMovements)
    .leftJoin(user, eq(user.id, stockMovements.actorId))
    .where(where)
    .orderBy(desc(stockMovements.id))
    .limit(limit)
    .offset((page - 1) * limit);
  const total = rows[0]?.total ?? (page > 1 ? await db.$count(stockMovements, where) : 0);
  return {
    items: rows.map(({ row, by }) => ({
      _id: String(row.id),
      toolId: row.toolId,
      delta: row.delta,
      reason: row.reason,
      note: row.note,
      orderId: row.orderId,
      by,
      createdAt: row.createdAt.toISOString(),
    })),
    total,
  };
}

/** The sum of a tool's movements: what its stock must be. */
export async function ledgerStock(db: Db, toolId: string): Promise<number> {
  const [row] = await db
    .select({ sum: sql<number>`coalesce(sum(${stockMovements.delta}), 0)`.mapWith(Number) })
    .from(stockMovements)
    .where(eq(stockMovements.toolId, toolId));
  return row?.sum ?? 0;
}

/** Tools per statement of changeStockInBulk (and movements per insert: Postgres takes at most 65,535 parameters). */
const BULK = 1_000;

/**
 * changeStock for thousands of tools at once (a catalogue import): each tool's stock changed by its
 * delta, a chunk of tools per statement, and each change written as a movement, in the caller's
 * transaction. The caller holds the tools' locks already (taken in id order, as every transaction
 * that locks tools takes them), so the statements' own order cannot deadlock. One movement per tool.
 */
export async function changeStockInBulk(tx: Tx, movements: Movement[]): Promise<void> {
  const rows = movements.filter((m) => m.delta !== 0).sort((a, b) => (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0));
  for (let i = 0; i < rows.length; i += BULK) {
    const chunk = rows.slice(i, i + BULK);
    const deltas = JSON.stringify(chunk.map((m) => ({ id: m.toolId, delta: m.delta })));
    await tx.execute(sql`update ${tools} set available_quantity = ${tools.availableQuantity} + d.delta
      from jsonb_to_recordset(${deltas}::jsonb) as d(id text, delta integer) where ${tools.id} = d.id`);
    await recordMovements(tx, chunk);
  }
}
