/**
 * Data-change announcements: whoever writes a table the public pages show announces it once
 * the write is committed, and the caches that depend on the table forget what they hold.
 * A route never has to remember a cache; the write itself says what changed.
 */
import { EventEmitter } from "node:events";
import type { Db } from "./client";

/** Tables whose changes something in the process keeps a copy of. */
export type ChangedTable = "tools" | "reviews";

const emitters = new WeakMap<Db, EventEmitter>();

function emitterOf(db: Db): EventEmitter {
  let emitter = emitters.get(db);
  if (!emitter) {
    emitter = new EventEmitter();
    emitters.set(db, emitter);
  }
  return emitter;
}

/** Calls `listener` after every committed write to `table` through `db`. */
export function onChange(db: Db, table: ChangedTable, listener: () => void): void {
  emitterOf(db).on(table, listener);
}

/** Says that `tables` changed; call it after the write is committed. */
export function announceChange(db: Db, ...tables: ChangedTable[]): void {
  const emitter = emitters.get(db);
  for (const table of tables) emitter?.emit(table);
}
