/**
 * A real SMTP server (nodemailer's `smtp-server`) standing in for the store's mail server in
 * tests, like the OpenID stand-in for Google: it listens on a free port of 127.0.0.1, keeps
 * every message it accepts (parsed by `mailparser`), and can be stopped and started again on
 * the same port, refuse messages, or hang, to test what the store does then.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The message's attached files, as mailparser reads them. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface SmtpStandIn {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** Messages to `to` (lowercase), oldest first. */
  to(address: string): ReceivedMail[];
  /** Resolves with the first message to `to` matching `subject` (a substring), waiting up to `timeoutMs`. */
  waitFor(address: string, subject?: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** "accept" (default), "refuse" (550 for every message) or "hang" (never greets a new connection, never answers a message). */
  mode: "accept" | "refuse" | "hang";
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpStandIn(port = 0): Promise<SmtpStandIn> {
  const messages: ReceivedMail[] = [];
  const state: { mode: SmtpStandIn["mode"] } = { mode: "accept" };
  let server: SMTPServer | undefined;
  let boundPort = port;

  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onConnect(_session, callback) {
        if (state.mode === "hang") return; // never answers: the client's timeouts must end it
        callback();
      },
      onData(stream, session, callback) {
        if (state.mode === "hang") {
          stream.resume(); // takes the message, never answers
          return;
        }
        if (state.mode === "refuse") {
          stream.resume();
          stream.on("end", () => {
            const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
            callback(error);
          });
          return;
        }
        simpleParser(stream).then(
          (parsed) => {
            for (const rcpt of session.envelope.rcptTo) {
              messages.push({
                to: rcpt.address.toLowerCase(),
                from: parsed.from?.text ?? "",
                subject: parsed.subject ?? "",
                text: parsed.text ?? "",
                html: typeof parsed.html === "string" ? parsed.html : "",
                attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? "", contentType: a.contentType, content: a.content })),
              });
            }
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });

  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = make();
      server.on("error", () => undefined);
      server.server.once("error", reject);
      server.listen(boundPort, "127.0.0.1", () => {
        boundPort = (server?.server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
      // Drop open connections too: a server that went down.
      for (const c of (s as unknown as { connections?: Set<{ close?: () => void }> }).connections ?? []) c.close?.();
    });

  await start();
  const standIn: SmtpStandIn = {
    get port() {
      return boundPort;
    },
    get url() {
      return `smtp://127.0.0.1:${boundPort}`;
    },
    messages,
    to: (address) => messages.filter((m) => m.to === address.toLowerCase()),
    async waitFor(address, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => m.to === address.toLowerCase() && (subject === undefined || m.subject.includes(subject)));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${address}${subject ? ` about "${subject}"` : ""} within ${timeoutMs} ms (got: ${messages.map((m) => `${m.to}: ${m.subject}`).join("; ") || "none"})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    get mode() {
      return state.mode;
    },
    set mode(value) {
      state.mode = value;
    },
    stop,
    start,
    close: stop,
  };
  return standIn;
}

/** The first link in a message's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const match = mail.text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\S*`));
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}

/**
 * The stand-in's inbox over HTTP on loopback, for Playwright workers (other processes than the
 * global setup that runs the server): GET /messages?to=<address> answers the messages as JSON.
 */
export async function serveInbox(smtp: SmtpStandIn): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const to = url.searchParams.get("to");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(to ? smtp.to(to) : smtp.messages));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** From a Playwright worker: waits for a message to `to` whose subject contains `subject`. */
export async function fetchMail(inboxUrl: string, to: string, subject: string, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = (await (await fetch(`${inboxUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as ReceivedMail[];
    const found = messages.find((m) => m.subject.includes(subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} about "${subject}" within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
