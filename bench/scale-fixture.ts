/**
 * A merchant-size catalogue, written by SQL alone (generate_series), so anyone can rebuild
 * the figures of docs/decisions/0013 on Postgres or PGlite: N tools with their initial stock
 * movement, customers, reviews, and orders with their line and first event.
 * Used by `npm run db:scale` (bench/scale-fill.ts) and `npm run bench:scale` (bench/scale.ts).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client";

export interface ScaleSize {
  tools: number;
  users: number;
  reviews: number;
  orders: number;
}

export const DEFAULT_SIZE: ScaleSize = { tools: 100_000, users: 20_000, reviews: 200_000, orders: 1_000_000 };

/** Sizes from SCALE_TOOLS, SCALE_USERS, SCALE_REVIEWS and SCALE_ORDERS, else the defaults. */
export function sizeFromEnv(env: NodeJS.ProcessEnv = process.env): ScaleSize {
  const read = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1`);
    return value;
  };
  return {
    tools: read("SCALE_TOOLS", DEFAULT_SIZE.tools),
    users: read("SCALE_USERS", DEFAULT_SIZE.users),
    reviews: read("SCALE_REVIEWS", DEFAULT_SIZE.reviews),
    orders: read("SCALE_ORDERS", DEFAULT_SIZE.orders),
  };
}

/** Orders are written in slices, so neither driver holds a million-row statement at once. */
const ORDER_SLICE = 200_000;

/** Fills `db` (already migrated) and returns how long each part took, in ms. */
export async function fillScale(db: Db, size: ScaleSize, log: (line: string) => void = () => undefined): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  const step = async (label: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    took[label] = Math.round(performance.now() - started);
    log(`  ${label}: ${took[label]} ms`);
  };

  await step("customers", () =>
    db.execute(sql`
      insert into "user" (id, name, email, email_verified, created_at, updated_at)
      select 'scale-user-' || i, 'Customer ' || i, 'customer' || i || '@scale.example', true,
             now() - make_interval(mins => ${size.users} - i), now()
      from generate_series(1, ${size.users}::int) as i
      on conflict do nothing`),
  );

  // Ten kinds of tool, each in its category, in five lines and many sizes; prices spread
  // from $5 to $2,005; the newest last (the spec's order is oldest first).
  await step("tools", () =>
    db.execute(sql`
      insert into tools (id, name, category, image, price_cents, available_quantity, minimum_quantity, description, created_at)
      select 'scale-tool-' || i,
             (array['Claw Hammer','Chainsaw','Lawn Mower','Cordless Drill','Hand Saw','Spanner Set','Hedge Trimmer','Angle Grinder','Leaf Blower','Chisel Set'])[1 + i % 10]
               || ' ' || (array['Pro','Classic','Compact','Heavy Duty','Lite'])[1 + (i / 10) % 5] || ' ' || i,
             (array['hand-tools','chainsaws','lawn-mowers','power-tools','hand-tools','hand-tools','power-tools','power-tools','power-tools','hand-tools'])[1 + i % 10]::tool_category,
             '/images/tools/hammer.svg',
             500 + (i * 7919) % 200000,
             1000,
             1 + i % 3,
             'Built for the workshop, the garden and the woodland. Batch ' || (i % 997) || ', sturdy and reliable, with spare parts kept for ten years.',
             now() - make_interval(mins => ${size.tools} - i)
      from generate_series(1, ${size.tools}::int) as i
      on conflict do nothing`),
  );
  await step("stock ledger", () =>
    db.execute(sql`
      insert into stock_movements (tool_id, delta, reason)
      select id, available_quantity, 'initial' from tools where id like 'scale-tool-%'`),
  );

  await step("reviews", () =>
    db.execute(sql`
      insert into reviews (id, user_id, name, rating, description, hidden, created_at)
      select 'scale-review-' || i, 'scale-user-' || (1 + i % ${size.users}), 'Customer ' || (1 + i % ${size.users}),
             1 + i % 5, 'Does what it should. Review ' || i || '.', i % 100 = 0,
             now() - make_interval(secs => ${size.reviews} - i)
      from generate_series(1, ${size.reviews}::int) as i
      on conflict do nothing`),
  );

  // Each slice of orders, its lines and its first events in one statement (a data-modifying
  // CTE, no second lookup of what was just written), with the foreign-key triggers off for the
  // transaction: every id is made to exist above, and a million orders' six FK probes each were
  // most of the fill's time.
  await step("orders", async () => {
    for (let from = 1; from <= size.orders; from += ORDER_SLICE) {
      const to = Math.min(size.orders, from + ORDER_SLICE - 1);
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`
          with placed as (
            insert into orders (id, user_id, tool_id, tool_name, quantity, unit_price_cents, total_cents, status, address, phone, created_at)
            select 'scale-order-' || i, 'scale-user-' || (1 + i % ${size.users}), t.id, t.name, 1, t.price_cents, t.price_cents,
                   (enum_range(null::order_status))[1 + i % 5], '12 Forge Lane', '+1 555 0100',
                   now() - make_interval(secs => ${size.orders} - i)
            from generate_series(${from}::int, ${to}::int) as i
            join tools t on t.id = 'scale-tool-' || (1 + (i * 31) % ${size.tools})
            on conflict do nothing
            returning id, user_id, tool_id, tool_name, quantity, unit_price_cents, total_cents, created_at
          ), lines as (
            insert into order_lines (order_id, position, tool_id, tool_name, quantity, unit_price_cents, line_total_cents)
            select id, 0, tool_id, tool_name, quantity, unit_price_cents, total_cents from placed
          )
          insert into order_events (order_id, status, actor_id, actor_role, created_at)
          select id, 'pending', user_id, 'customer', created_at from placed`);
      });
    }
  });

  await step("analyze", () => db.execute(sql`analyze`));
  return took;
}
