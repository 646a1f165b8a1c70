-- The pending subscriptions from before 0028: their last link was mailed at the latest when the row was made
-- (a repeated request mailed a later one, unknown now), so they expire a day after it at the earliest.
UPDATE "stock_alerts" SET "confirm_expires_at" = "created_at" + interval '24 hours' WHERE "status" = 'pending' AND "confirm_expires_at" IS NULL;
