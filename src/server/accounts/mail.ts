/**
 * The mail of a trade account's members (DESIGN "Trade accounts", issue 49): a customer added to an
 * account by its admin, who asked no consent, is told in the add's transaction whose account they
 * now order for and under which role, and that they may leave it. (The store's console adds a
 * customer after their application, POST /api/account/apply: it mails nobody, as before.) Every word is in
 * contract/texts/trade.ts.
 */
import { sql } from "drizzle-orm";
import { ADMIN_TRADE_TEXT, TRADE_TEXT } from "../../contract/texts/trade";
import { mailOutbox } from "../db/schema";
import { render, storeLink } from "../mail/templates";
import type { TellAddedMember } from "./service";

export function memberAddedMail(publicUrl: string): TellAddedMember {
  return async (tx, added) => {
    const m = render("account-member-added", TRADE_TEXT.memberAddedSubject(added.accountName), [
      { p: TRADE_TEXT.memberAddedText(added.accountName, ADMIN_TRADE_TEXT.roles[added.role]) },
      { p: TRADE_TEXT.memberAddedLeave },
      { link: storeLink(publicUrl, "/dashboard/account"), label: TRADE_TEXT.memberAddedLink },
    ]);
    await tx.execute(sql`
      insert into ${mailOutbox} ("to", subject, text, html, kind)
      select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from "user" where id = ${added.userId}`);
  };
}
