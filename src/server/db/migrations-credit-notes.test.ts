/**
 * Migration 0040 (issue 49) carries every credit note issued before the credit notes' table
 * forward: an order's cancel's (orders.credit_note_number) and a refund's (refunds.credit_note_number),
 * with the same numbers and the same documents. The hashes below are of the PDFs the code before
 * the table rendered from this very database (invoices/pdf.ts at 6276974: invoiceFile(db, order,
 * "credit-note") and refundCreditNoteFile(db, refund)); the migrated notes, drawn by the one renderer
 * from their own rows, must give the same bytes, on both drivers.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { creditNoteAttachmentFile, creditNoteFile } from "../invoices/pdf";
import { createPostgresDatabase, drivers, firstMigrations, realMigrations } from "../test-support";
import { openDatabase } from "./client";
import { creditNoteLines, creditNotes, orders, refunds } from "./schema";

/** The database before migration 0040: two cancels (one from before credited_at), two refunds with notes, one failed without. */
const OLD_DATABASE = `
insert into "user" (id, name, email, email_verified, created_at, updated_at) values ('u1', 'Ada Dvořák', 'ada@example.com', true, '2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z');
insert into tools (id, name, category, image, price_cents, available_quantity, minimum_quantity, description) values ('t1', 'Claw hammer', 'hand-tools', '/h.svg', 1999, 10, 1, 'A hammer'), ('t2', 'Panel saw', 'hand-tools', '/s.svg', 3333, 10, 1, 'A saw');
insert into orders (id, number, user_id, tool_id, tool_name, quantity, unit_price_cents, total_cents, subtotal_cents, discount_cents, shipping_cents, tax_cents, status, address, city, region, postal_code, country, shipping_method, shipping_method_name, promo_code, tax_rate_name, tax_rate_basis_points, invoice_number, credit_note_number, credited_at, payment_method, created_at, cancelled_at)
  values ('o1', 101, 'u1', 't1', 'Claw hammer', 3, 1999, 13412, 12663, 1266, 695, 1320, 'cancelled', '1 Main St', 'Brooklyn', 'NY', '11201', 'US', 'standard', 'Standard delivery', 'SAVE10', 'NY sales tax', 888, 'INV-2026-000001', 'CN-2026-000001', '2026-03-02T15:30:00Z', 'cash_on_delivery', '2026-03-01T12:00:00Z', '2026-03-02T15:30:00Z'),
         ('o2', 102, 'u1', 't1', 'Claw hammer', 3, 1999, 13412, 12663, 1266, 695, 1320, 'delivered', '1 Main St', 'Brooklyn', 'NY', '11201', 'US', 'standard', 'Standard delivery', NULL, 'NY sales tax', 888, 'INV-2026-000002', NULL, NULL, 'bank_transfer', '2026-03-03T12:00:00Z', NULL),
         ('o3', 103, 'u1', 't2', 'Panel saw', 1, 3333, 3333, 3333, 0, 0, 0, 'cancelled', 'Old street 5', '', '', '', '', 'pickup', '', NULL, NULL, NULL, 'INV-2026-000003', 'CN-2026-000002', NULL, 'cash_on_delivery', '2026-03-04T12:00:00Z', '2026-03-05T09:00:00Z');
insert into order_lines (order_id, position, tool_id, tool_name, quantity, unit_price_cents, line_total_cents, discount_cents, shipping_cents, tax_cents, total_cents)
  values ('o1', 0, 't1', 'Claw hammer', 3, 1999, 5997, 600, 329, 510, 6236),
         ('o1', 1, 't2', 'Panel saw', 2, 3333, 6666, 666, 366, 810, 7176),
         ('o2', 0, 't1', 'Claw hammer', 3, 1999, 5997, 600, 329, 510, 6236),
         ('o2', 1, 't2', 'Panel saw', 2, 3333, 6666, 666, 366, 810, 7176),
         ('o3', 0, 't2', 'Panel saw', 1, 3333, 3333, 0, 0, 0, 3333);
insert into refunds (id, order_id, kind, provider, amount_cents, status, reason, created_at, settled_at, shipping, shipping_cents, restock, idempotency_key, credit_note_number)
  values ('r1', 'o2', 'refund', 'bank_transfer', 3350, 'succeeded', 'Arrived bent', '2026-03-06T10:00:00Z', '2026-03-06T10:00:01Z', true, 757, true, 'k1', 'CN-2026-000003'),
         ('r2', 'o2', 'refund', 'bank_transfer', 2593, 'succeeded', '', '2026-03-07T10:00:00Z', NULL, false, 0, false, 'k2', 'CN-2026-000004'),
         ('r3', 'o2', 'refund', 'card', 100, 'failed', 'refused', '2026-03-07T11:00:00Z', '2026-03-07T11:00:01Z', false, 0, false, 'k3', NULL);
insert into refund_lines (refund_id, position, tool_id, tool_name, quantity, unit_price_cents, subtotal_cents, discount_cents, tax_cents, amount_cents, restocked)
  values ('r1', 0, 't1', 'Claw hammer', 1, 1999, 1999, 200, 794, 2593, 1),
         ('r2', 0, 't1', 'Claw hammer', 1, 1999, 1999, 200, 794, 2593, 0),
         ('r3', 1, 't2', 'Panel saw', 1, 3333, 3333, 333, 400, 100, 0);
insert into mail_outbox ("to", subject, text, html, kind, attachments) values ('ada@example.com', 'A refund for your order #102', 'x', '<p>x</p>', 'refund-made', '[{"kind":"credit_note","refundId":"r1"}]');`;

const OLD_PDFS = {
  o1: "d5052847169fcd6863969adeb7bee6aa5b31535537be53d10206a39d27b5a81a",
  o3: "c3c8ab344c6961947d83e69e368bbcc684295da1f6b15782d2216f45b7502f26",
  r1: "0d584818d1be16fee4d934f006fb716ae2cbb6167ed11b7d85170fece96c6951",
  r2: "89abb9c92a1b06395fcc94bb6e4054090de74722d7d7549f81301abe70a22261",
};

const sha256 = (b: Buffer | undefined) => (b ? createHash("sha256").update(b).digest("hex") : undefined);

describe.each(drivers())("carrying credit notes into their own table on %s", (driver) => {
  it("keeps every old credit note's number, amounts and document; the API's numbers stay where they were", async () => {
    const pg = driver === "postgres" ? await createPostgresDatabase() : undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-migrate-credit-notes-"));
    const oldMigrations = firstMigrations(40);
    try {
      const options = { databaseUrl: pg?.url, dataDir };
      const old = await openDatabase({ ...options, migrationsDir: oldMigrations });
      for (const statement of OLD_DATABASE.split(/;\n/).filter((s) => s.trim() !== "")) await old.db.execute(sql.raw(statement));
      await old.close();

      const migrated = await openDatabase({ ...options, migrationsDir: realMigrations });
      try {
        const { db } = migrated;
        const notes = await db.select().from(creditNotes).orderBy(asc(creditNotes.number));
        expect(notes.map((n) => [n.number, n.orderId, n.refundId, n.issuedAt.toISOString(), n.subtotalCents, n.discountCents, n.shippingCents, n.taxCents, n.totalCents])).toEqual([
          ["CN-2026-000001", "o1", null, "2026-03-02T15:30:00.000Z", 12663, 1266, 695, 1320, 13412],
          // Cancelled before credited_at was kept: dated by its cancel.
          ["CN-2026-000002", "o3", null, "2026-03-05T09:00:00.000Z", 3333, 0, 0, 0, 3333],
          // The shipping as charged, the rest of what the refund gave for it (its tax) beside the lines' tax.
          ["CN-2026-000003", "o2", "r1", "2026-03-06T10:00:01.000Z", 1999, 200, 695, 794 + 62, 3350],
          // Never settled_at (recorded at once before it was kept): dated by its making.
          ["CN-2026-000004", "o2", "r2", "2026-03-07T10:00:00.000Z", 1999, 200, 0, 794, 2593],
        ]);
        for (const n of notes) {
          const lines = await db.select().from(creditNoteLines).where(eq(creditNoteLines.creditNoteId, n.id));
          expect(lines.reduce((s, l) => s + l.lineTotalCents - l.discountCents, 0) + n.shippingCents + n.taxCents).toBe(n.totalCents);
        }
        expect((await db.select().from(creditNoteLines).innerJoin(creditNotes, eq(creditNotes.id, creditNoteLines.creditNoteId)).where(eq(creditNotes.orderId, "o1"))).length).toBe(2);
        // The numbers the API shows are where they were.
        expect(await db.select({ id: orders.id, n: orders.creditNoteNumber }).from(orders).orderBy(asc(orders.id))).toEqual([
          { id: "o1", n: "CN-2026-000001" },
          { id: "o2", n: null },
          { id: "o3", n: "CN-2026-000002" },
        ]);
        expect(await db.select({ id: refunds.id, n: refunds.creditNoteNumber }).from(refunds).orderBy(asc(refunds.id))).toEqual([
          { id: "r1", n: "CN-2026-000003" },
          { id: "r2", n: "CN-2026-000004" },
          { id: "r3", n: null },
        ]);

        // The same documents, byte for byte, from the one renderer; mail queued before the table still attaches its refund's.
        const o1 = await creditNoteFile(db, { cancelOf: "o1" });
        expect(o1?.filename).toBe("CN-2026-000001.pdf");
        expect({
          o1: sha256(o1?.content),
          o3: sha256((await creditNoteFile(db, { cancelOf: "o3" }))?.content),
          r1: sha256((await creditNoteFile(db, { refundId: "r1" }))?.content),
          r2: sha256((await creditNoteFile(db, { refundId: "r2" }))?.content),
        }).toEqual(OLD_PDFS);
        expect(sha256((await creditNoteAttachmentFile(db, { refundId: "r1" }))?.content)).toBe(OLD_PDFS.r1);
        expect(await creditNoteFile(db, { refundId: "r3" })).toBeUndefined();
        expect(await creditNoteFile(db, { cancelOf: "o2" })).toBeUndefined();
      } finally {
        await migrated.close();
      }
    } finally {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(oldMigrations, { recursive: true, force: true });
    }
  }, 180_000); // two file-backed PGlite starts, each with initdb: slow on a loaded machine
});
