/**
 * The mail worker: takes due messages from the outbox and sends them.
 *
 * - A batch is claimed with `FOR UPDATE SKIP LOCKED` and leased in the same statement (its
 *   next attempt moves LEASE_MS ahead), so two workers (two instances) never take one message,
 *   and no transaction stays open while a mail server answers (PGlite has one connection).
 * - The batch's sent messages are marked in ONE update, the failures in one more: a failure
 *   waits 2^attempts seconds (at most an hour), and after the last attempt it is `failed`.
 * - Every SMTP step has a timeout: a mail server that hangs fails the attempt, not the worker.
 * - Without SMTP_URL a message is written to the log (text and links) and kept as pending with
 *   no next attempt; the first start with SMTP_URL sends those too.
 * - A message's documents (an order's invoice) are rendered when it is sent, not when it is
 *   written: the order's transaction stays short, and the outbox keeps a reference, not a PDF.
 *   A rendering that fails fails the attempt (retried like a refused send); an order that has no
 *   such document any more is sent without it, and the log says so. Invoices and credit notes are
 *   rendered by invoices/; a module whose mail attaches documents of its own hands the worker their
 *   renderer at start (quotes/routes.ts: a quote's revision), so mail/ imports no module that
 *   writes mail. A kind with no renderer fails the attempt, as a failed rendering does.
 * - Mail that falls due by itself (the back-in-stock alerts) is written at the start of each round
 *   by what its module hands the worker at start (stock-alerts/routes.ts).
 */
import { sql } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import type { MailSettings } from "../config";
import type { Db } from "../db/client";
import { mailOutbox } from "../db/schema";
import { creditNoteAttachmentFile, invoiceFile } from "../invoices/pdf";
import type { Attachment } from "./outbox";

const BATCH = 50;
/** Longer than the timeouts of a whole batch: a crashed worker's claim comes back after it. */
const LEASE_MS = 10 * 60 * 1000;
export const NO_SMTP_NOTE = "not sent: no SMTP_URL, the text was written to the log";

interface Claimed {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
  attachments: Attachment[] | null;
}

type Send = (message: Claimed) => Promise<void>;

/** A document attached to a message, rendered when it is sent; undefined when it no longer exists. */
export type AttachmentFile = { filename: string; content: Buffer };
export type AttachmentKind = Attachment["kind"];
export type RenderAttachment<K extends AttachmentKind> = (attachment: Extract<Attachment, { kind: K }>) => Promise<AttachmentFile | undefined>;

export interface MailWorker {
  /** Runs one round now (tests; the timer does this every MAIL_POLL_MS). Returns how many were handled. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
  /** How attachments of `kind` are rendered (the module that owns the document hands it over at start). */
  renderAttachments<K extends AttachmentKind>(kind: K, render: RenderAttachment<K>): void;
  /** Writes mail that fell due at the start of every round (as `produce` does). */
  beforeEachRound(produce: () => Promise<unknown>): void;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface MailWorkerOptions {
  autostart?: boolean;
  /**
   * Writes mail that is due to the outbox at the start of each round (the back-in-stock alerts:
   * stock-alerts/service.ts), so this round sends it. A failure is logged and the round goes on.
   * The app's worker is handed it at start (beforeEachRound); tests pass it here.
   */
  produce?: () => Promise<unknown>;
}

export function startMailWorker(db: Db, settings: MailSettings, log: FastifyBaseLogger, options: MailWorkerOptions = {}): MailWorker {
  // nodemailer is loaded with the first message, not at start-up.
  let transport: Promise<Transporter> | undefined;
  const { smtpUrl } = settings;
  const renderers = new Map<AttachmentKind, (attachment: Attachment) => Promise<AttachmentFile | undefined>>();
  const register = <K extends AttachmentKind>(kind: K, render: RenderAttachment<K>) =>
    renderers.set(kind, (a) => render(a as Extract<Attachment, { kind: K }>)); // the map is keyed by the kind it is called with
  register("invoice", (a) => invoiceFile(db, a.orderId));
  register("credit_note", (a) => creditNoteAttachmentFile(db, a));
  const producers = options.produce ? [options.produce] : [];
  const send: Send | undefined = smtpUrl
    ? async (m) => {
        transport ??= import("nodemailer").then(({ default: nodemailer }) =>
          nodemailer.createTransport({
            url: smtpUrl,
            pool: true,
            maxConnections: 2,
            connectionTimeout: settings.timeoutMs,
            greetingTimeout: settings.timeoutMs,
            socketTimeout: settings.timeoutMs * 2,
          }),
        );
        const attachments = [];
        for (const a of m.attachments ?? []) {
          const render = renderers.get(a.kind);
          if (!render) throw new Error(`no renderer for a ${a.kind} attachment`);
          const file = await render(a);
          const missing = a.kind === "quote" ? `quote ${a.quoteId} has no revision ${a.revision}` : a.kind === "credit_note" ? `credit note ${"creditNoteId" in a ? a.creditNoteId : `of refund ${a.refundId}`} does not exist` : `order ${a.orderId} has no invoice`;
          if (file) attachments.push({ filename: file.filename, content: file.content, contentType: "application/pdf" });
          else log.warn({ mail: { id: m.id }, attachment: a }, `mail ${m.id}: ${missing} to attach; sending without it`);
        }
        await (await transport).sendMail({ from: settings.from, to: m.to, subject: m.subject, text: m.text, html: m.html, attachments });
      }
    : undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  let revived = false;

  async function claim(): Promise<Claimed[]> {
    const result = await db.execute(sql`
      update ${mailOutbox} set attempts = attempts + 1, next_attempt_at = now() + ${`${LEASE_MS} milliseconds`}::interval
       where id in (select id from ${mailOutbox} where status = 'pending' and next_attempt_at <= now()
                     order by id limit ${BATCH} for update skip locked)
      returning id, "to", subject, text, html, attempts, attachments`);
    return rowsOf<Claimed & { id: number | string }>(result).map((r) => ({ ...r, id: Number(r.id) }));
  }

  async function round(): Promise<number> {
    if (send && !revived) {
      // Kept while no SMTP_URL was set: due now.
      await db.execute(sql`update ${mailOutbox} set next_attempt_at = now(), attempts = 0 where status = 'pending' and last_error = ${NO_SMTP_NOTE}`);
      revived = true;
    }
    for (const produce of producers) {
      await produce().catch((error: unknown) => log.warn({ err: error }, "mail worker: writing due mail failed; trying again next round"));
    }
    const batch = await claim();
    if (batch.length === 0) return 0;
    if (!send) {
      for (const m of batch) log.info({ mail: { id: m.id, to: m.to, subject: m.subject } }, `mail not sent (no SMTP_URL) to ${m.to}: ${m.subject}\n${m.text}`);
      await db.execute(sql`update ${mailOutbox} set next_attempt_at = 'infinity', attempts = 0, last_error = ${NO_SMTP_NOTE}
                            where id = any(${`{${batch.map((m) => m.id).join(",")}}`}::bigint[])`);
      return batch.length;
    }
    const results = await Promise.all(
      batch.map((m) =>
        send(m).then(
          () => ({ id: m.id, error: undefined as string | undefined }),
          (error: unknown) => ({ id: m.id, error: error instanceof Error ? error.message : String(error) }),
        ),
      ),
    );
    const sent = results.filter((r) => r.error === undefined).map((r) => r.id);
    const failed = results.filter((r) => r.error !== undefined);
    if (sent.length > 0) {
      await db.execute(sql`update ${mailOutbox} set status = 'sent', sent_at = now(), last_error = null where id = any(${`{${sent.join(",")}}`}::bigint[])`);
    }
    if (failed.length > 0) {
      await db.execute(sql`
        update ${mailOutbox} o
           set last_error = f.error,
               status = case when o.attempts >= ${settings.maxAttempts} then 'failed'::mail_status else 'pending'::mail_status end,
               next_attempt_at = now() + least(3600, power(2, o.attempts)) * interval '1 second'
          from jsonb_to_recordset(${JSON.stringify(failed)}::jsonb) as f(id bigint, error text)
         where o.id = f.id`);
      log.warn({ failed: failed.length }, `mail: ${failed.length} message(s) not sent, will retry: ${failed[0]?.error ?? ""}`);
    }
    return batch.length;
  }

  async function runOnce(): Promise<number> {
    // One round at a time in this process; a second caller waits for it.
    while (running) await running.catch(() => 0);
    running = round();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  const tick = () => {
    timer = undefined;
    if (stopped) return;
    runOnce()
      .catch((error: unknown) => log.warn({ err: error }, "mail worker round failed; trying again"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, settings.pollMs);
      });
  };
  if (options.autostart !== false) timer = setTimeout(tick, settings.pollMs);

  return {
    runOnce,
    renderAttachments: register,
    beforeEachRound(produce) {
      producers.push(produce);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
      (await transport?.catch(() => undefined))?.close();
    },
  };
}
