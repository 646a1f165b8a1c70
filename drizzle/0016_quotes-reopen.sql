-- Written by hand (as 0005, 0011, 0012 and 0014): DESIGN "Quotes" — an accepted quote whose card
-- order is never paid (the payment hold runs out, the provider's page expires, the owner cancels it
-- while it awaits payment) re-opens its revision until the revision's own validity ends. A trigger,
-- so that every path that cancels an order awaiting payment (orders/service.ts moveInTransaction,
-- whoever calls it) re-opens the quote in the same transaction, exactly once: it acts only while the
-- quote is still accepted with this order. The revision re-opens without a stock hold: its held
-- units were used by the order, whose cancel has just returned them to the stock.
CREATE FUNCTION quote_reopen_unpaid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM quotes q WHERE q.id = NEW.quote_id AND q.order_id = NEW.id AND q.status = 'accepted') THEN
    RETURN NEW;
  END IF;
  UPDATE quote_revisions r
     SET status = CASE WHEN r.valid_until > now() THEN 'sent'::quote_revision_status ELSE 'expired'::quote_revision_status END
   WHERE r.quote_id = NEW.quote_id AND r.status = 'accepted';
  UPDATE quotes q
     SET status = CASE WHEN EXISTS (SELECT 1 FROM quote_revisions r WHERE r.quote_id = q.id AND r.status = 'sent')
                       THEN 'sent'::quote_status ELSE 'expired'::quote_status END,
         order_id = NULL,
         updated_at = now()
   WHERE q.id = NEW.quote_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_quote_reopen AFTER UPDATE OF status ON orders FOR EACH ROW
  -- Compared as text: a fresh database runs every migration in one transaction, and an enum value
  -- added in it (awaiting_payment, migration 0010) cannot be used as a constant until it commits.
  WHEN (OLD.status::text = 'awaiting_payment' AND NEW.status::text = 'cancelled' AND NEW.quote_id IS NOT NULL)
  EXECUTE FUNCTION quote_reopen_unpaid();
