/**
 * The mail worker: a job of the queue `mail-send` (decision 0021) sends one message of the outbox.
 *
 * - Every row written to the outbox sends its job in the same transaction, whatever wrote it (a
 *   trigger, migration 0041: a checkout's CTE included), so a message and its job exist together.
 *   Rows written before the queue existed (a store's first start) get theirs when the runner starts.
 * - pg-boss runs a job once across instances and retries a failure with exponential backoff; the
 *   row keeps its attempts, its last error and (for the console) when its job tries next; after the
 *   last attempt the row is `failed` and the job is listed with the console's failed jobs, whose
 *   retry sends it again.
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
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Transporter } from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import type { MailSettings } from "../config";
import type { Db } from "../db/client";
import type { JobAttempt, JobRunner } from "../jobs";
import { mailOutbox } from "../db/schema";
import { creditNoteAttachmentFile, invoiceFile } from "../invoices/pdf";
import type { Attachment } from "./outbox";

/** The queue whose jobs send the outbox's rows; the name is also in migration 0041's trigger. */
export const MAIL_QUEUE = "mail-send";
/** Jobs one worker takes at a time; they are sent side by side. */
const BATCH = 50;
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
  /** Runs the mail jobs that are due now, here (tests; the queue's worker does this every MAIL_POLL_MS). Returns how many ran. */
  runOnce(): Promise<number>;
  /** Every message waiting for its retry's backoff is due now (tests skip the wait). */
  dueNow(): Promise<void>;
  stop(): Promise<void>;
  /** How attachments of `kind` are rendered (the module that owns the document hands it over at start). */
  renderAttachments<K extends AttachmentKind>(kind: K, render: RenderAttachment<K>): void;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const mailJobSchema = z.object({ id: z.coerce.number().int() });

/**
 * Defines the mail queue on `jobs` (before it starts): its jobs send the outbox's rows, retried
 * MAIL_MAX_ATTEMPTS times in all; at start it sends the jobs of rows that have none.
 */
export function startMailWorker(jobs: JobRunner, db: Db, settings: MailSettings, log: FastifyBaseLogger): MailWorker {
  // nodemailer is loaded with the first message, not at start-up.
  let transport: Promise<Transporter> | undefined;
  const { smtpUrl } = settings;
  const renderers = new Map<AttachmentKind, (attachment: Attachment) => Promise<AttachmentFile | undefined>>();
  const register = <K extends AttachmentKind>(kind: K, render: RenderAttachment<K>) =>
    renderers.set(kind, (a) => render(a as Extract<Attachment, { kind: K }>)); // the map is keyed by the kind it is called with
  register("invoice", (a) => invoiceFile(db, a.orderId));
  register("credit_note", (a) => creditNoteAttachmentFile(db, a));
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

  /** Takes the row for this attempt: none when it was sent (a job run twice) or deleted with its customer. */
  async function claim(id: number): Promise<Claimed | undefined> {
    const result = await db.execute(sql`
      update ${mailOutbox} set attempts = attempts + 1, next_attempt_at = now()
       where id = ${id} and status <> 'sent'
      returning id, "to", subject, text, html, attempts, attachments`);
    const [row] = rowsOf<Claimed & { id: number | string }>(result);
    return row && { ...row, id: Number(row.id) };
  }

  async function handle(id: number, attempt: JobAttempt): Promise<void> {
    const m = await claim(id);
    if (!m) return;
    if (!send) {
      log.info({ mail: { id: m.id, to: m.to, subject: m.subject } }, `mail not sent (no SMTP_URL) to ${m.to}: ${m.subject}\n${m.text}`);
      await db.execute(sql`update ${mailOutbox} set next_attempt_at = 'infinity', attempts = 0, last_error = ${NO_SMTP_NOTE} where id = ${m.id}`);
      return;
    }
    try {
      await send(m);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // pg-boss waits retryDelay × 2^n (n = attempts so far) to 2^(n+1) before the next attempt: the row shows the earliest.
      await db.execute(sql`
        update ${mailOutbox}
           set last_error = ${message},
               status = ${attempt.last ? "failed" : "pending"}::mail_status,
               next_attempt_at = now() + power(2, ${attempt.number}) / 2 * interval '1 second'
         where id = ${m.id}`);
      log.warn({ mail: { id: m.id }, attempt: attempt.number }, `mail ${m.id} not sent${attempt.last ? ", its last attempt" : ", will retry"}: ${message}`);
      throw error;
    }
    await db.execute(sql`update ${mailOutbox} set status = 'sent', sent_at = now(), last_error = null where id = ${m.id}`);
  }

  jobs.define<{ id: number }>(MAIL_QUEUE, {
    handle: (data, attempt) => handle(mailJobSchema.parse(data).id, attempt),
    retryLimit: settings.maxAttempts - 1,
    retryDelaySeconds: 1,
    batchSize: BATCH,
    parallel: true,
    pollSeconds: Math.max(0.5, settings.pollMs / 1000),
  });
  jobs.atStart(() =>
    db.transaction(async (tx) => {
      // One instance at a time: two starting together would both find the same rows with no job.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${MAIL_QUEUE}))`);
      // Kept while no SMTP_URL was set: due now, and enqueued below with the rest.
      if (send) await tx.execute(sql`update ${mailOutbox} set next_attempt_at = now(), attempts = 0, last_error = null where status = 'pending' and last_error = ${NO_SMTP_NOTE}`);
      await tx.execute(sql`
        select mail_outbox_jobs(array(
          select o.id from ${mailOutbox} o
           where o.status = 'pending' and o.last_error is distinct from ${NO_SMTP_NOTE}
             and not exists (select 1 from pgboss.job j where j.name = ${MAIL_QUEUE} and j.state < 'completed' and j.data->>'id' = o.id::text)))`);
    }),
  );

  return {
    runOnce: () => jobs.runDue(MAIL_QUEUE),
    dueNow: () => jobs.dueNow(MAIL_QUEUE),
    renderAttachments: register,
    async stop() {
      (await transport?.catch(() => undefined))?.close();
    },
  };
}
