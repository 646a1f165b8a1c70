/**
 * Deleting an account (decision 0012): the person goes, the store's books stay. In ONE
 * transaction, under a lock on the account's row (an order being placed for it waits, then
 * finds no account): its orders lose their customer and their delivery copies (address, phone,
 * note), its reviews are signed 'Former customer', mail still addressed to it is dropped, and
 * the account row goes with everything that cascades from it (sessions, sign-in methods,
 * two-step secrets, profile, cart, checkout keys).
 */
import { eq } from "drizzle-orm";
import { ACCOUNT_DELETION_TEXT } from "../../contract/texts/account";
import { ADMIN_ROLE } from "../auth/roles";
import type { Db } from "../db/client";
import { announceChange } from "../db/changes";
import { mailOutbox, reviews, user, verification } from "../db/schema";
import { conflict, unauthorized } from "../http/errors";
import { forgetCustomer } from "../orders";

export interface DeletedAccount {
  orders: number;
  reviews: number;
}

export async function deleteAccount(db: Db, userId: string): Promise<DeletedAccount> {
  const result = await db.transaction(async (tx) => {
    // The admins first, then the account, in the order a role change locks them (admin/service.ts),
    // so a deletion and a role change cannot both leave the store without an admin.
    const admins = await tx.select({ id: user.id }).from(user).where(eq(user.role, ADMIN_ROLE)).orderBy(user.id).for("update");
    const [account] = await tx.select({ email: user.email, role: user.role }).from(user).where(eq(user.id, userId)).for("update");
    // Deleted meanwhile (another tab): the session outlived its account.
    if (!account) throw unauthorized();
    if (account.role === ADMIN_ROLE && admins.every((a) => a.id === userId)) throw conflict("LAST_ADMIN", ACCOUNT_DELETION_TEXT.lastAdmin);
    const keptOrders = await forgetCustomer(tx, userId);
    const keptReviews = await tx
      .update(reviews)
      .set({ name: ACCOUNT_DELETION_TEXT.formerCustomer, userId: null })
      .where(eq(reviews.userId, userId))
      .returning({ id: reviews.id });
    await tx.delete(mailOutbox).where(eq(mailOutbox.to, account.email.toLowerCase()));
    // Reset links and other one-use tokens that name the account.
    await tx.delete(verification).where(eq(verification.value, userId));
    await tx.delete(user).where(eq(user.id, userId));
    return { orders: keptOrders, reviews: keptReviews.length };
  });
  // The public review list names authors: it must not keep the old name for its cache's life.
  if (result.reviews > 0) announceChange(db, "reviews");
  return result;
}
