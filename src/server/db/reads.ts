import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./client";

/** One read, started when it is called (a Drizzle query runs when it is awaited). */
type Read<T> = () => PromiseLike<T>;

/**
 * Independent reads of one answer (an order's lines, events, refunds, …), each as a function
 * that starts it. On the database they run in parallel: node-postgres gives each its own pooled
 * connection. On a transaction they run one after another: a transaction is one connection, and
 * node-postgres queues a second query sent to a busy client (deprecated since pg 8.12, an error
 * in pg 9). PGlite runs one statement at a time either way.
 */
export async function readAll<T extends readonly unknown[]>(db: Db | Tx, reads: { readonly [K in keyof T]: Read<T[K]> }): Promise<T> {
  const list = reads as readonly Read<unknown>[];
  if (!(db instanceof PgTransaction)) return (await Promise.all(list.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of list) results.push(await read());
  return results as unknown as T;
}
