-- Back-in-stock alerts (issue 42, decision 0019): when a tool can be ordered again (active, and at
-- least max(1, its minimum) in stock) after it could not, its waiting subscriptions become due, in
-- the transaction that changed the tool, whatever changed it: the console's stock edit, a restock
-- or correction in the ledger, a cancelled order's or a released quote hold's stock coming back, a
-- restored tool. The mail worker turns due subscriptions into outbox mail (stock-alerts/service.ts).
CREATE FUNCTION stock_alerts_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stock_alerts SET status = 'due' WHERE tool_id = NEW.id AND status = 'waiting';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tools_back_in_stock AFTER UPDATE OF available_quantity, minimum_quantity, active ON "tools"
  FOR EACH ROW
  WHEN (NEW.active AND NEW.available_quantity >= greatest(1, NEW.minimum_quantity)
        AND NOT (OLD.active AND OLD.available_quantity >= greatest(1, OLD.minimum_quantity)))
  EXECUTE FUNCTION stock_alerts_due();
