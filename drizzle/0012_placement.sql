-- Written by hand (as 0005 and 0011): one way to place an order (src/server/orders/placement.ts).
--
-- pricing_context as in 0011, with each tool's list price (`priceCents`): the input builder
-- (src/server/pricing/input.ts) reads a line's unit price from the context on every path, the
-- cart's estimate included, instead of each path bringing its own.
CREATE OR REPLACE FUNCTION pricing_context(p_countries jsonb, p_tools jsonb, p_users jsonb) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_store jsonb;
  v_store_country text;
  v_profiles jsonb;
  v_rates jsonb;
  v_methods jsonb;
  v_tools jsonb;
BEGIN
  SELECT jsonb_build_object('legalName', s.legal_name, 'address', s.address, 'city', s.city, 'region', s.region,
           'postalCode', s.postal_code, 'country', s.country, 'taxId', s.tax_id), s.country
    INTO v_store, v_store_country
    FROM store_settings s WHERE s.id = 1;

  SELECT coalesce(jsonb_agg(jsonb_build_object('userId', p.user_id, 'country', p.country, 'region', p.region,
           'postalCode', p.postal_code, 'exempt', nullif(p.tax_exempt_certificate, ''))), '[]'::jsonb)
    INTO v_profiles
    FROM profiles p WHERE p.user_id IN (SELECT jsonb_array_elements_text(p_users));

  SELECT coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'country', r.country, 'region', r.region,
           'postalPrefix', r.postal_prefix, 'rateBasisPoints', r.rate_basis_points, 'taxShipping', r.tax_shipping)), '[]'::jsonb)
    INTO v_rates
    FROM tax_rates r
   WHERE r.country = v_store_country
      OR r.country IN (SELECT jsonb_array_elements_text(p_countries))
      OR r.country IN (SELECT p.country FROM profiles p WHERE p.user_id IN (SELECT jsonb_array_elements_text(p_users)));

  SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'name', m.name, 'freeOverCents', m.free_over_cents, 'zones', m.zones)
           ORDER BY m.created_at, m.id), '[]'::jsonb)
    INTO v_methods
    FROM shipping_methods m WHERE m.active;

  SELECT coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'weightGrams', t.weight_grams, 'category', t.category, 'priceCents', t.price_cents)), '[]'::jsonb)
    INTO v_tools
    FROM tools t WHERE t.id IN (SELECT jsonb_array_elements_text(p_tools));

  RETURN jsonb_build_object('store', v_store, 'rates', v_rates, 'methods', v_methods, 'tools', v_tools, 'profiles', v_profiles);
END $$;
--> statement-breakpoint
-- The first step of a placement that has no cart (the purchase page, a quote's acceptance), in one
-- round trip: the tools' rows locked in id order (FOR NO KEY UPDATE, the lock an UPDATE of the
-- stock takes anyway, as checkout_lock takes it), p_numbers order numbers reserved from the
-- orders' sequence (so the order mail is written with the orders, as a checkout batch's is; a
-- request refused in its batch leaves its number unused, a gap as a rolled-back insert leaves),
-- then pricing_context for those tools, the customers and the countries, read under the locks.
-- Answers {tools: [{id, name, price_cents, available_quantity, minimum_quantity, active}], numbers, pricing}
-- (checkout_lock's `tools` and `numbers`, checkout_lock_priced's `pricing`).
CREATE FUNCTION placement_lock(p_tools jsonb, p_users jsonb, p_countries jsonb, p_numbers integer) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_tools jsonb;
  v_numbers jsonb;
BEGIN
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'price_cents', t.price_cents,
           'available_quantity', t.available_quantity, 'minimum_quantity', t.minimum_quantity, 'active', t.active) ORDER BY t.id), '[]'::jsonb) INTO v_tools
    FROM (SELECT tl.id, tl.name, tl.price_cents, tl.available_quantity, tl.minimum_quantity, tl.active FROM tools tl
           WHERE tl.id IN (SELECT jsonb_array_elements_text(p_tools))
           ORDER BY tl.id
           FOR NO KEY UPDATE) t;

  SELECT coalesce(jsonb_agg(r.n ORDER BY r.n), '[]'::jsonb) INTO v_numbers
    FROM (SELECT nextval(pg_get_serial_sequence('orders', 'number')) AS n FROM generate_series(1, p_numbers)) r;

  RETURN jsonb_build_object('tools', v_tools, 'numbers', v_numbers, 'pricing', pricing_context(p_countries, p_tools, p_users));
END $$;
