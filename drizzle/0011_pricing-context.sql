-- Written by hand (as 0005): what pricing/price.ts needs, read in one call whose plan Postgres
-- keeps per connection instead of planning the statement on every call (the cart's answers and
-- every checkout batch ask for it; planning it was most of its cost, bench/checkout.ts).
-- p_countries: destinations asked about; p_tools: tool ids; p_users: the customers, whose profile
-- address (and its country's rates) and tax exemption come back too.
-- Answers {store, rates, methods, tools: [{id, weightGrams, category}], profiles: [{userId, country, region, postalCode, exempt}]}.
CREATE FUNCTION pricing_context(p_countries jsonb, p_tools jsonb, p_users jsonb) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
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

  SELECT coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'weightGrams', t.weight_grams, 'category', t.category)), '[]'::jsonb)
    INTO v_tools
    FROM tools t WHERE t.id IN (SELECT jsonb_array_elements_text(p_tools));

  RETURN jsonb_build_object('store', v_store, 'rates', v_rates, 'methods', v_methods, 'tools', v_tools, 'profiles', v_profiles);
END $$;
--> statement-breakpoint
-- The promotions named by p_codes (upper-case) with each of p_users' live uses (where the code limits
-- them, counted up to the limit), for price(); with
-- p_lock their rows are locked first, in id order, until the transaction ends (a checkout counts a
-- code's uses one batch at a time: a code limited to K uses gives exactly K orders).
CREATE FUNCTION promotions_for(p_codes jsonb, p_users jsonb, p_lock boolean) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_promotions jsonb;
BEGIN
  IF p_lock THEN
    PERFORM 1 FROM promotions p WHERE p.code IN (SELECT jsonb_array_elements_text(p_codes)) ORDER BY p.id FOR UPDATE;
  END IF;
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'code', p.code, 'kind', p.kind, 'value', p.value, 'minSubtotalCents', p.min_subtotal_cents,
           'startsAt', p.starts_at, 'endsAt', p.ends_at, 'usageLimit', p.usage_limit, 'perCustomerLimit', p.per_customer_limit,
           'categories', to_jsonb(p.categories), 'active', p.active, 'redemptions', p.redemptions,
           -- Counted only for a code with a per-customer limit, and only up to it: a customer's
           -- past uses are not read again and again at every checkout.
           'byCustomer', CASE WHEN p.per_customer_limit IS NULL THEN '[]'::jsonb ELSE
                           (SELECT coalesce(jsonb_agg(jsonb_build_array(u.uid, (SELECT count(*)::int FROM
                                     (SELECT 1 FROM promotion_redemptions r
                                       WHERE r.promotion_id = p.id AND r.user_id = u.uid AND r.released_at IS NULL
                                       LIMIT p.per_customer_limit) c))), '[]'::jsonb)
                              FROM jsonb_array_elements_text(p_users) AS u(uid)) END)), '[]'::jsonb)
    INTO v_promotions
    FROM promotions p WHERE p.code IN (SELECT jsonb_array_elements_text(p_codes));
  RETURN v_promotions;
END $$;
--> statement-breakpoint
-- A checkout batch's first step with its prices in the same round trip: checkout_lock (keys,
-- carts, tools, in that order), then pricing_context for the locked tools, the batch's
-- customers and the countries its checkouts deliver to, read once the tools are locked.
-- Answers checkout_lock's object with `pricing`, pricing_context's.
CREATE FUNCTION checkout_lock_priced(p_keys jsonb, p_users text[], p_countries jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_locked jsonb;
BEGIN
  v_locked := checkout_lock(p_keys, p_users);
  RETURN v_locked || jsonb_build_object('pricing', pricing_context(
    p_countries,
    (SELECT coalesce(jsonb_agg(t->>'id'), '[]'::jsonb) FROM jsonb_array_elements(v_locked->'tools') t),
    to_jsonb(p_users)));
END $$;
