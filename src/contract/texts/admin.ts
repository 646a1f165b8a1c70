/**
 * The console's words (admin only, so no shopper's page downloads them): its API messages
 * and its form messages.
 */

export const ADMIN_API_TEXT = {
  orderMoveForbidden: (from: string, to: string) => `An order that is ${from} cannot be moved to ${to}.`,
  reviewNotFound: "No review with that id.",
  userNotFound: "No user with that id.",
  lastAdmin: "The store needs at least one admin: make someone else admin first.",
  stockBelowZero: (available: number) => `Stock cannot go below 0: only ${available} left.`,
} as const;

export const ADMIN_VALIDATION_TEXT = {
  stockDelta: "Enter a whole number other than 0",
  stockReasonRequired: "Say why the stock changes",
} as const;
