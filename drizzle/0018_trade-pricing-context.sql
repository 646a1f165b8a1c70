-- Written by hand (as 0011, 0012 and 0014): pricing_context as in 0014, with the trade accounts of
-- the customers asked about (`members`: each member's account, role, limits, terms, discount and
-- the account's exemption certificates), so the input builder (src/server/pricing/input.ts) prices a
-- member at the account's prices on every path, in the same round trip (a customer without an
-- account costs one index lookup; DESIGN "Trade accounts", decision 0018).
CREATE OR REPLACE FUNCTION pricing_context(p_countries jsonb, p_tools jsonb, p_users jsonb) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_store jsonb;
  v_store_country text;
  v_profiles jsonb;
  v_rates jsonb;
  v_methods jsonb;
  v_tools jsonb;
  v_members jsonb;
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

  SELECT coalesce(jsonb_agg(jsonb_build_object('userId', am.user_id, 'accountId', a.id, 'role', am.role,
           'orderLimitCents', am.order_limit_cents, 'monthlyLimitCents', am.monthly_limit_cents, 'terms', a.terms,
           'poRequired', a.po_required, 'discountBasisPoints', a.discount_basis_points,
           'exemptions', (SELECT coalesce(jsonb_agg(jsonb_build_object('country', e.country, 'region', e.region,
                              'certificate', e.certificate, 'expiresOn', e.expires_on)), '[]'::jsonb)
                            FROM account_exemptions e WHERE e.account_id = a.id))), '[]'::jsonb)
    INTO v_members
    FROM account_members am JOIN trade_accounts a ON a.id = am.account_id
   WHERE am.user_id IN (SELECT jsonb_array_elements_text(p_users));

  RETURN jsonb_build_object('store', v_store, 'rates', v_rates, 'methods', v_methods, 'tools', v_tools, 'profiles', v_profiles,
           'members', v_members);
END $$;
