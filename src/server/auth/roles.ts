import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { user } from "../db/schema";

/** ADMIN_EMAILS grants the admin role to accounts that already exist (new ones get it on sign-up). */
export async function syncAdminRoles(db: Db, adminEmails: string[]): Promise<void> {
  if (adminEmails.length === 0) return;
  await db
    .update(user)
    .set({ role: "admin" })
    .where(inArray(sql`lower(${user.email})`, adminEmails));
}
