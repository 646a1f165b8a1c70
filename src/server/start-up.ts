/**
 * What the store does to its data once at start-up, before it listens: the demo catalogue in
 * an empty database (unless SEED=false) and the admin role for the accounts of ADMIN_EMAILS.
 */
import type { FastifyInstance } from "fastify";
import { syncAdminRoles } from "./auth/roles";
import { seedIfEmpty, type SeedOptions } from "./db/seed";

export async function prepareStore(app: FastifyInstance, seed: SeedOptions = {}): Promise<void> {
  const { db } = app.store;
  if (app.config.seed) await seedIfEmpty(db, seed);
  await syncAdminRoles(db, app.config.adminEmails);
}
