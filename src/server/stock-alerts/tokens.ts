/**
 * The links of the alert mails carry signed tokens (HMAC-SHA256 with AUTH_SECRET, decision 0019):
 * nothing to store, every instance checks them alike, and nobody can make one for a subscription
 * they did not get mail for. A confirmation token carries its expiry; an unsubscribe token does
 * not expire (the mail that holds it may be read weeks later).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

type Purpose = "confirm" | "unsubscribe";

const sign = (secret: string, purpose: Purpose, payload: string) =>
  createHmac("sha256", secret).update(`stock-alert:${purpose}:${payload}`).digest("base64url");

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const ID = /^[A-Za-z0-9-]{1,64}$/;

export function confirmToken(secret: string, id: string, expiresAt: Date): string {
  const exp = String(Math.floor(expiresAt.getTime() / 1000));
  return `${id}.${exp}.${sign(secret, "confirm", `${id}.${exp}`)}`;
}

/** The subscription's id and the link's expiry, or undefined for a token this store did not sign. */
export function readConfirmToken(secret: string, token: string): { id: string; expiresAt: Date } | undefined {
  const [id = "", exp = "", signature = "", ...rest] = token.split(".");
  if (rest.length > 0 || !ID.test(id) || !/^\d{1,12}$/.test(exp) || !same(signature, sign(secret, "confirm", `${id}.${exp}`))) return undefined;
  return { id, expiresAt: new Date(Number(exp) * 1000) };
}

export const unsubscribeToken = (secret: string, id: string) => `${id}.${sign(secret, "unsubscribe", id)}`;

export function readUnsubscribeToken(secret: string, token: string): string | undefined {
  const [id = "", signature = "", ...rest] = token.split(".");
  if (rest.length > 0 || !ID.test(id) || !same(signature, sign(secret, "unsubscribe", id))) return undefined;
  return id;
}
