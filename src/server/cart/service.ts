/**
 * A signed-in customer's cart, kept on the server (cart_lines) so it is the same on every
 * device. A line may go wrong after it was added (stock sold, tool archived, minimum raised):
 * the cart says so line by line (`problem`) and checkout refuses until it is fixed.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { lineProblem } from "../../contract/cart";
import { centsToDollars } from "../../contract/money";
import type { Cart, CartLine, CartMergeInput } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { Batches, isForeignKeyViolation, type Settled } from "../db/batches";
import type { Db, Tx } from "../db/client";
import { cartLines, tools } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import { allWithMoney, withMoney } from "./estimate";

type ToolRow = typeof tools.$inferSelect;
/** What a cart line needs of its tool. */
type LineTool = Pick<ToolRow, "id" | "name" | "image" | "priceCents" | "minimumQuantity" | "availableQuantity" | "active">;

/** Changes whenever a line or a quantity changes, so a checkout can name the cart it saw. */
export function cartVersion(lines: { toolId: string; quantity: number }[]): string {
  const canonical = [...lines]
    .sort((a, b) => (a.toolId < b.toolId ? -1 : 1))
    .map((l) => `${l.toolId}:${l.quantity}`)
    .join(",");
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 16);
}

export function toCartLine(tool: LineTool, quantity: number): CartLine {
  return {
    toolId: tool.id,
    name: tool.name,
    image: tool.image,
    unitPrice: centsToDollars(tool.priceCents),
    quantity,
    minimumQuantity: tool.minimumQuantity,
    availableQuantity: tool.active ? tool.availableQuantity : 0,
    lineTotal: centsToDollars(tool.priceCents * quantity),
    problem: lineProblem({ quantity, minimumQuantity: tool.minimumQuantity, availableQuantity: tool.availableQuantity, active: tool.active }),
  };
}

/** A cart before it is priced (cart/estimate.ts adds the money). */
export type CartBase = Omit<Cart, "subtotal" | "discount" | "shipping" | "tax" | "tradeDiscountPercent">;

export async function getCart(db: Db | Tx, userId: string): Promise<CartBase> {
  const rows = await db
    .select({ quantity: cartLines.quantity, tool: tools })
    .from(cartLines)
    .innerJoin(tools, eq(tools.id, cartLines.toolId))
    .where(eq(cartLines.userId, userId))
    .orderBy(asc(cartLines.addedAt), asc(cartLines.toolId));
  return cartOf(rows);
}

/** A cart from its lines (oldest first) and their tools. */
function cartOf(rows: { quantity: number; tool: LineTool }[]): CartBase {
  const lines = rows.map((r) => toCartLine(r.tool, r.quantity));
  const totalCents = rows.reduce((sum, r) => sum + r.tool.priceCents * r.quantity, 0);
  return {
    lines,
    total: centsToDollars(totalCents),
    count: lines.reduce((sum, l) => sum + l.quantity, 0),
    version: cartVersion(lines),
  };
}

async function activeTool(db: Db, toolId: string): Promise<ToolRow> {
  const [tool] = await db
    .select()
    .from(tools)
    .where(and(eq(tools.id, toolId), eq(tools.active, true)));
  if (!tool) throw notFound(API_TEXT.toolNotFound);
  return tool;
}

/**
 * Sets a line's quantity (0 removes it). The quantity must be one the tool can be ordered
 * in: at least its minimum and at most its stock.
 */
export async function setCartLine(db: Db, userId: string, toolId: string, quantity: number): Promise<CartBase> {
  if (quantity === 0) return removeCartLine(db, userId, toolId);
  const tool = await activeTool(db, toolId);
  if (quantity > tool.availableQuantity) {
    throw conflict("NOT_ENOUGH_STOCK", API_TEXT.notEnoughStock(tool.availableQuantity), { available: tool.availableQuantity });
  }
  if (quantity < tool.minimumQuantity) {
    const message = API_TEXT.belowMinimum(tool.minimumQuantity);
    throw new ApiError(400, "BELOW_MINIMUM", message, { details: [{ path: "body.quantity", message }] });
  }
  await db
    .insert(cartLines)
    .values({ userId, toolId, quantity })
    .onConflictDoUpdate({ target: [cartLines.userId, cartLines.toolId], set: { quantity } });
  return getCart(db, userId);
}

export async function removeCartLine(db: Db, userId: string, toolId: string): Promise<CartBase> {
  await db.delete(cartLines).where(and(eq(cartLines.userId, userId), eq(cartLines.toolId, toolId)));
  return getCart(db, userId);
}

export async function clearCart(db: Db | Tx, userId: string): Promise<void> {
  await db.delete(cartLines).where(eq(cartLines.userId, userId));
}

/** A row of cart_merge_many (migration 0008): a line of a customer's cart with its tool. */
type MergedRow = { user_id: string; quantity: number; id: string; name: string; image: string; price_cents: number; minimum_quantity: number; available_quantity: number; active: boolean };
interface Merge {
  userId: string;
  /** Tool id to quantity, each tool once. */
  wanted: Map<string, number>;
}

/** Enough to amortise a round trip and a commit; one statement's worth of rows. */
const MAX_MERGES = 100;

/**
 * Joins a signed-out visitor's cart to the account's: quantities of the same tool add up,
 * capped at the stock; tools that are gone are left out. The answer is the whole cart.
 *
 * Merges are 'Add to Cart' too, so they are served in batches (db/batches.ts), as checkouts
 * are: one statement, cart_merge_many (migration 0008), merges the lines of every customer in
 * the batch and reads their carts back, so a round trip, a plan and a commit are paid once for
 * many customers. Its upsert is atomic per line, so two tabs merging at once cannot lose a
 * line; a customer has at most one merge in a batch (a second one waits for the next). A merge
 * for an account deleted meanwhile fails its batch on a foreign key; each merge is then served
 * on its own, so it fails alone.
 */
export class CartMerges {
  private readonly batches: Batches<Merge, Cart>;

  constructor(private readonly db: Db) {
    this.batches = new Batches((merges) => this.serve(merges), { maxBatch: MAX_MERGES, distinctBy: (m) => m.userId, aloneWhen: isForeignKeyViolation });
  }

  /** The whole cart after the merge, priced (cart/estimate.ts) for the customer's address. */
  async merge(userId: string, input: CartMergeInput): Promise<Cart> {
    const wanted = new Map<string, number>();
    for (const line of input.lines) wanted.set(line.toolId, (wanted.get(line.toolId) ?? 0) + line.quantity);
    if (wanted.size === 0) return withMoney(this.db, userId, await getCart(this.db, userId));
    return this.batches.submit({ userId, wanted });
  }

  private async serve(merges: Merge[]): Promise<Settled<Cart>[]> {
    const lines = JSON.stringify(merges.flatMap(({ userId, wanted }) => [...wanted].map(([tool_id, quantity]) => ({ user_id: userId, tool_id, quantity }))));
    const result = await this.db.execute(sql`select * from cart_merge_many(${lines}::jsonb)`);
    const rowsOf = new Map<string, { quantity: number; tool: LineTool }[]>();
    for (const r of (result as unknown as { rows: MergedRow[] }).rows) {
      const row = {
        quantity: Number(r.quantity),
        tool: {
          id: r.id,
          name: r.name,
          image: r.image,
          priceCents: Number(r.price_cents),
          minimumQuantity: Number(r.minimum_quantity),
          availableQuantity: Number(r.available_quantity),
          active: r.active,
        },
      };
      const rows = rowsOf.get(r.user_id);
      if (rows) rows.push(row);
      else rowsOf.set(r.user_id, [row]);
    }
    // The batch's carts are priced with one more call, not one per customer (bench/checkout.ts).
    const carts = await allWithMoney(
      this.db,
      merges.map((m) => ({ userId: m.userId, cart: cartOf(rowsOf.get(m.userId) ?? []) })),
    );
    return carts.map((cart) => ({ ok: cart }));
  }
}
