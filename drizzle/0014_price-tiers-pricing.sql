-- Written by hand (as 0005, 0011 and 0012): pricing_context as in 0012, with each tool's price
-- tiers (`priceTiers`, [{minQuantity, priceCents}]): the input builder (src/server/pricing/input.ts)
-- prices a line at the last tier its quantity reaches, on every path (DESIGN "Price tiers").
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

  SELECT coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'weightGrams', t.weight_grams, 'category', t.category, 'priceCents', t.price_cents,
           'priceTiers', t.price_tiers)), '[]'::jsonb)
    INTO v_tools
    FROM tools t WHERE t.id IN (SELECT jsonb_array_elements_text(p_tools));

  RETURN jsonb_build_object('store', v_store, 'rates', v_rates, 'methods', v_methods, 'tools', v_tools, 'profiles', v_profiles);
END $$;
