/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** Messages the API sends in its `{ error, message }` bodies. */
export const API_TEXT = {
  notFound: "Nothing here.",
  toolNotFound: "No tool with that id.",
  orderNotFound: "No order with that id.",
  invalidInput: "Some fields are not valid.",
  unauthorized: "Please log in first.",
  forbidden: "You are not allowed to do that.",
  rateLimited: "Too many requests. Please wait a moment and try again.",
  internal: "Something went wrong on our side. Please try again.",
  notEnoughStock: (available: number) => `Not enough stock: only ${available} left.`,
  belowMinimum: (minimum: number) => `The minimum order for this tool is ${minimum}.`,
  orderNotPending: "Only pending orders can be cancelled.",
  orderNotPaid: "This order is not paid yet, so it has no invoice.",
  notCardOrder: "This order is not paid by card.",
  cartEmpty: "Your cart is empty.",
  cartChanged: "Your cart changed in another tab or device. Please check it and place the order again.",
  cartProblems: "Some lines of your cart cannot be ordered as they are. Fix them and try again.",
  idempotencyKeyReused: "This Idempotency-Key was already used for a different checkout.",
  foreignOrigin: "Requests from other sites are not accepted.",
  noUser: "No user is logged in",
  badPath: "This address is not valid. Use the path exactly as documented.",
  tooDeep: "The request is nested too deeply.",
  noNul: "Text must not contain NUL characters",
  unavailable: "The store is briefly unavailable. Please try again in a few seconds.",
} as const;
