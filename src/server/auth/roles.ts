/**
 * Who is an admin, decided here and nowhere else: an account whose e-mail is in ADMIN_EMAILS
 * (on sign-up and at every start), or one another admin made admin (better-auth's admin plugin).
 */
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { user } from "../db/schema";

export const ADMIN_ROLE = "admin";
export const CUSTOMER_ROLE = "user";
export type Role = typeof ADMIN_ROLE | typeof CUSTOMER_ROLE;

/** The role a new account gets. */
export function roleForNewAccount(email: string, adminEmails: readonly string[]): Role {
  return adminEmails.includes(email.toLowerCase()) ? ADMIN_ROLE : CUSTOMER_ROLE;
}

/** The role an account has now, from its stored role. */
export function roleOf(account: { role?: string | null }): Role {
  return account.role === ADMIN_ROLE ? ADMIN_ROLE : CUSTOMER_ROLE;
}

/** ADMIN_EMAILS grants the admin role to accounts that already exist (new ones get it on sign-up). */
export async function syncAdminRoles(db: Db, adminEmails: readonly string[]): Promise<void> {
  if (adminEmails.length === 0) return;
  await db
    .update(user)
    .set({ role: ADMIN_ROLE })
    .where(inArray(sql`lower(${user.email})`, [...adminEmails]));
}
