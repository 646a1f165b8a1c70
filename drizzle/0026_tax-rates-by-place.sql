-- Written by hand (as 0011, 0012, 0014 and 0018): pricing_context as in 0018, reading only the tax
-- rates that can apply to the places asked about (issue 40: "every cart read loads every tax rate
-- of the country", megabytes for a ZIP-level table). `p_countries` now holds places
-- ({country, region, postalCode}); a bare country code (callers before this migration) still
-- reads its whole country. The store's address and the customers' profiles are places too.
CREATE OR REPLACE FUNCTION pricing_context(p_countries jsonb, p_tools jsonb, p_users jsonb) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_store jsonb;
  v_profiles jsonb;
  v_rates jsonb;
  v_methods jsonb;
  v_tools jsonb;
  v_members jsonb;
BEGIN
  SELECT jsonb_build_object('legalName', s.legal_name, 'address', s.address, 'city', s.city, 'region', s.region,
           'postalCode', s.postal_code, 'country', s.country, 'taxId', s.tax_id)
    INTO v_store
    FROM store_settings s WHERE s.id = 1;

  SELECT coalesce(jsonb_agg(jsonb_build_object('userId', p.user_id, 'country', p.country, 'region', p.region,
           'postalCode', p.postal_code, 'exempt', nullif(p.tax_exempt_certificate, ''))), '[]'::jsonb)
    INTO v_profiles
    FROM profiles p WHERE p.user_id IN (SELECT jsonb_array_elements_text(p_users));

  -- The rates that can apply to a place: its country's, its region's, and those whose postal prefix
  -- its postal code starts with (src/server/pricing/price.ts rateFor picks the most specific).
  WITH places AS (
    SELECT s.country, s.region, s.postal_code AS postal, false AS whole FROM store_settings s WHERE s.id = 1
    UNION ALL
    SELECT CASE WHEN jsonb_typeof(e) = 'string' THEN e #>> '{}' ELSE e ->> 'country' END,
           coalesce(e ->> 'region', ''), coalesce(e ->> 'postalCode', ''), jsonb_typeof(e) = 'string'
      FROM jsonb_array_elements(p_countries) e
    UNION ALL
    SELECT p.country, p.region, p.postal_code, false FROM profiles p WHERE p.user_id IN (SELECT jsonb_array_elements_text(p_users))
  )
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'country', r.country, 'region', r.region,
           'postalPrefix', r.postal_prefix, 'rateBasisPoints', r.rate_basis_points, 'taxShipping', r.tax_shipping)), '[]'::jsonb)
    INTO v_rates
    FROM tax_rates r
   WHERE EXISTS (SELECT 1 FROM places pl
                  WHERE pl.country = r.country
                    AND (pl.whole
                         OR ((r.region = '' OR r.region = pl.region)
                             AND (r.postal_prefix = ''
                                  OR starts_with(regexp_replace(pl.postal, '\s', '', 'g'), regexp_replace(r.postal_prefix, '\s', '', 'g'))))));

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
