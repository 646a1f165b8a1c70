import { eq, sql } from "drizzle-orm";
import type { Profile, ProfileInput } from "../../contract/schemas";
import type { Db } from "../db/client";
import { profiles, user } from "../db/schema";

export async function getProfile(db: Db, userId: string): Promise<Profile | undefined> {
  const [row] = await db
    .select({
      displayName: user.name,
      email: user.email,
      address: sql<string>`coalesce(${profiles.address}, '')`,
      city: sql<string>`coalesce(${profiles.city}, '')`,
      region: sql<string>`coalesce(${profiles.region}, '')`,
      postalCode: sql<string>`coalesce(${profiles.postalCode}, '')`,
      country: sql<string>`coalesce(${profiles.country}, '')`,
      phone: sql<string>`coalesce(${profiles.phone}, '')`,
      taxExemptCertificate: profiles.taxExemptCertificate,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId));
  return row;
}

/**
 * Saves the fields given; a field left out keeps its saved value (or stays empty): Drizzle
 * leaves undefined fields out of an update and gives them their default in an insert.
 */
export async function saveProfile(db: Db, userId: string, input: ProfileInput): Promise<void> {
  await db
    .insert(profiles)
    .values({ userId, ...input })
    .onConflictDoUpdate({ target: profiles.userId, set: { ...input, updatedAt: new Date() } });
}
