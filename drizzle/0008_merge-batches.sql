-- Written by hand (docs/decisions/0009, "Speed"): cart merges are served in batches, as checkouts
-- are (src/server/cart/service.ts, CartMerges): one call merges the lines of many customers, at
-- most one merge per customer, and answers each customer's whole cart.
-- mergedQuantity() in SQL: least(mine + theirs, stock); a tool out of stock or archived adds nothing.
-- Existing lines are locked in (user_id, tool_id) order, the order checkout_lock below locks the
-- carts in too, so a merge and a checkout of the same cart wait for each other, never deadlock.
-- The answer: each customer's cart, oldest line first; its lines as the upsert left them, the
-- others as they were (the statement's snapshot does not see its own writes).
DROP FUNCTION cart_merge(text, jsonb);
--> statement-breakpoint
CREATE FUNCTION cart_merge_many(p_lines jsonb)
RETURNS TABLE (user_id text, quantity integer, id text, name text, image text, price_cents integer, minimum_quantity integer, available_quantity integer, active boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH wanted AS (
    SELECT w.user_id, w.tool_id, w.quantity FROM jsonb_to_recordset(p_lines) AS w(user_id text, tool_id text, quantity integer)
  ), merged AS (
    INSERT INTO cart_lines (user_id, tool_id, quantity)
    SELECT w.user_id, t.id, least(w.quantity, t.available_quantity)
      FROM wanted w JOIN tools t ON t.id = w.tool_id AND t.active
     WHERE least(w.quantity, t.available_quantity) >= 1
     ORDER BY w.user_id, t.id
    ON CONFLICT (user_id, tool_id) DO UPDATE
      SET quantity = least(cart_lines.quantity + excluded.quantity, (SELECT s.available_quantity FROM tools s WHERE s.id = excluded.tool_id))
    RETURNING cart_lines.user_id, cart_lines.tool_id, cart_lines.quantity, cart_lines.created_at
  ), cart AS (
    SELECT m.user_id, m.tool_id, m.quantity, m.created_at FROM merged m
    UNION ALL
    SELECT c.user_id, c.tool_id, c.quantity, c.created_at FROM cart_lines c
     WHERE c.user_id IN (SELECT w.user_id FROM wanted w)
       AND NOT EXISTS (SELECT 1 FROM merged m WHERE m.user_id = c.user_id AND m.tool_id = c.tool_id)
  )
  SELECT cart.user_id, cart.quantity, t.id, t.name, t.image, t.price_cents, t.minimum_quantity, t.available_quantity, t.active
    FROM cart JOIN tools t ON t.id = cart.tool_id
   ORDER BY cart.user_id, cart.created_at, cart.tool_id;
END $$;
--> statement-breakpoint
-- As in migration 0005, with two changes:
-- - the carts' rows are locked in (user_id, tool_id) order, the merge's order (they are still
--   answered oldest line first);
-- - it reserves an order number for each claimed key (numbers: ascending), so the batch knows
--   its orders' numbers before it writes them and writes their mail in the same statement
--   (src/server/cart/checkout.ts). A checkout refused in the batch leaves its number unused: a
--   gap, as a rolled-back insert always left one.
CREATE OR REPLACE FUNCTION checkout_lock(p_keys jsonb, p_users text[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_claimed jsonb;
  v_carts jsonb;
  v_tools jsonb;
  v_numbers jsonb;
BEGIN
  WITH c AS (
    INSERT INTO idempotency_keys (user_id, key, request_hash)
    SELECT k.user_id, k.key, k.request_hash FROM jsonb_to_recordset(p_keys) AS k(user_id text, key text, request_hash text)
    ON CONFLICT DO NOTHING
    RETURNING idempotency_keys.user_id, idempotency_keys.key
  )
  SELECT coalesce(jsonb_agg(jsonb_build_array(c.user_id, c.key)), '[]'::jsonb) INTO v_claimed FROM c;

  SELECT coalesce(jsonb_agg(r.n ORDER BY r.n), '[]'::jsonb) INTO v_numbers
    FROM (SELECT nextval(pg_get_serial_sequence('orders', 'number')) AS n FROM generate_series(1, jsonb_array_length(v_claimed))) r;

  SELECT coalesce(jsonb_agg(jsonb_build_array(l.user_id, l.tool_id, l.quantity) ORDER BY l.user_id, l.created_at, l.tool_id), '[]'::jsonb) INTO v_carts
    FROM (SELECT cl.user_id, cl.tool_id, cl.quantity, cl.created_at FROM cart_lines cl
           WHERE cl.user_id = ANY (p_users)
           ORDER BY cl.user_id, cl.tool_id
           FOR UPDATE) l;

  SELECT coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'price_cents', t.price_cents,
           'available_quantity', t.available_quantity, 'minimum_quantity', t.minimum_quantity, 'active', t.active) ORDER BY t.id), '[]'::jsonb) INTO v_tools
    FROM (SELECT tl.id, tl.name, tl.price_cents, tl.available_quantity, tl.minimum_quantity, tl.active FROM tools tl
           WHERE tl.id IN (SELECT cl.tool_id FROM cart_lines cl WHERE cl.user_id = ANY (p_users))
           ORDER BY tl.id
           FOR NO KEY UPDATE) t;

  RETURN jsonb_build_object('claimed', v_claimed, 'carts', v_carts, 'tools', v_tools, 'numbers', v_numbers);
END $$;
