-- Written by hand (docs/decisions/0009, "Speed"): the cart merge as a function, so Postgres
-- plans its statement once per connection instead of on every call (planning was half its cost).
-- mergedQuantity() in SQL: least(mine + theirs, stock); a tool out of stock or archived adds nothing.
-- The answer is the whole cart, oldest line first: its lines as the upsert left them, the others as they were.
CREATE FUNCTION cart_merge(p_user_id text, p_lines jsonb)
RETURNS TABLE (quantity integer, id text, name text, image text, price_cents integer, minimum_quantity integer, available_quantity integer, active boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH merged AS (
    INSERT INTO cart_lines (user_id, tool_id, quantity)
    SELECT p_user_id, t.id, least(w.quantity, t.available_quantity)
      FROM jsonb_to_recordset(p_lines) AS w(tool_id text, quantity integer)
      JOIN tools t ON t.id = w.tool_id AND t.active
     WHERE least(w.quantity, t.available_quantity) >= 1
    ON CONFLICT (user_id, tool_id) DO UPDATE
      SET quantity = least(cart_lines.quantity + excluded.quantity, (SELECT s.available_quantity FROM tools s WHERE s.id = excluded.tool_id))
    RETURNING cart_lines.tool_id, cart_lines.quantity, cart_lines.created_at
  ), cart AS (
    SELECT m.tool_id, m.quantity, m.created_at FROM merged m
    UNION ALL
    SELECT c.tool_id, c.quantity, c.created_at FROM cart_lines c
     WHERE c.user_id = p_user_id AND c.tool_id NOT IN (SELECT m.tool_id FROM merged m)
  )
  SELECT cart.quantity, t.id, t.name, t.image, t.price_cents, t.minimum_quantity, t.available_quantity, t.active
    FROM cart JOIN tools t ON t.id = cart.tool_id
   ORDER BY cart.created_at, cart.tool_id;
END $$;
