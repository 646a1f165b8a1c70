-- Written by hand (issue 49): a quote's order rejected by its trade account's approver
-- (awaiting_approval → cancelled) re-opens the quote, as an unpaid card order's cancel does. The one
-- re-opening rule stays migration 0016's quote_reopen_unpaid(), unchanged: only the moves that fire
-- it widen, so every path that cancels an order nobody took (an abandoned payment, a rejection)
-- re-opens its quote in the same transaction, exactly once (it acts only while the quote is still
-- accepted with this order).
DROP TRIGGER orders_quote_reopen ON orders;
--> statement-breakpoint
CREATE TRIGGER orders_quote_reopen AFTER UPDATE OF status ON orders FOR EACH ROW
  -- Compared as text: a fresh database runs every migration in one transaction (see 0016).
  WHEN (OLD.status::text IN ('awaiting_payment', 'awaiting_approval') AND NEW.status::text = 'cancelled' AND NEW.quote_id IS NOT NULL)
  EXECUTE FUNCTION quote_reopen_unpaid();
