/**
 * A signed-out visitor's cart, kept in this browser (localStorage) until they sign in or up,
 * when it joins the account's cart on the server (POST /api/cart/merge). Only tool ids and
 * quantities are kept: names, prices and stock are always read fresh from the catalogue.
 *
 * Tabs share it: a change in one tab reaches the others through the `storage` event.
 * This module only reads (the navigation bar's badge needs it on every page, the home page
 * included: its JavaScript budget) and saves whole carts; guest-cart-edit.ts has the cart's rules.
 */
import { useSyncExternalStore } from "react";
import { LIMITS } from "../../../contract/constants";

export interface GuestLine {
  toolId: string;
  quantity: number;
}

const KEY = "toolyard-cart";
const NONE: readonly GuestLine[] = Object.freeze([]);
const listeners = new Set<() => void>();
let cached: readonly GuestLine[] | null = null;

/** A line as the browser should hold it; the server checks everything again when the cart joins the account's. */
const isLine = (value: unknown): value is GuestLine => {
  const line = value as Partial<GuestLine> | null;
  return typeof line?.toolId === "string" && Number.isInteger(line.quantity) && (line.quantity ?? 0) >= 1;
};

/** What the browser holds; anything that is not a list of lines (edited by hand, an old format) counts as empty. */
function load(): readonly GuestLine[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isLine).slice(0, LIMITS.cartLines) : NONE;
  } catch {
    return NONE;
  }
}

export function guestLines(): readonly GuestLine[] {
  cached ??= load();
  return cached;
}

/** Keeps `next` as the browser's cart and tells this tab's readers (other tabs hear the `storage` event). */
export function saveGuestLines(next: readonly GuestLine[]): void {
  cached = next.length === 0 ? NONE : next;
  try {
    if (next.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled (private mode): the cart still works for this page's life.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== KEY && event.key !== null) return;
    cached = null;
    listener();
  };
  listeners.add(listener);
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The visitor's cart lines, kept current across this tab and the others. */
export function useGuestCart(): readonly GuestLine[] {
  return useSyncExternalStore(subscribe, guestLines, () => NONE);
}

export const countOf = (held: readonly GuestLine[]): number => held.reduce((sum, l) => sum + l.quantity, 0);
