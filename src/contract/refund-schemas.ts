/**
 * The owner's refund of lines (DESIGN "Refunds and returns", API row POST
 * /api/admin/orders/:id/refunds): one schema, shared by the console's form and the route.
 */
import { LIMITS } from "./constants";
import { adminOrderSchema } from "./admin-schemas";
import { orderRefundSchema, orderReturnSchema, pageQuery, RETURN_STATUSES } from "./schemas";
import { REFUND_TEXT } from "./texts/refunds";
import { VALIDATION_TEXT } from "./texts/validation";
import { z } from "./zod";

export const REFUND_REASON_MAX = 500;

const quantitySchema = z.number({ error: VALIDATION_TEXT.invalidData }).int(VALIDATION_TEXT.invalidData).min(1, VALIDATION_TEXT.invalidData).max(LIMITS.quantity, VALIDATION_TEXT.invalidData);

/** `{toolId, quantity}` lines, each tool once. */
export const refundLinesSchema = z
  .array(z.object({ toolId: z.string().min(1).max(LIMITS.id), quantity: quantitySchema }))
  .max(LIMITS.cartLines)
  .superRefine((lines, ctx) => {
    const seen = new Set<string>();
    lines.forEach((l, i) => {
      if (seen.has(l.toolId)) ctx.addIssue({ code: "custom", path: [i, "toolId"], message: REFUND_TEXT.toolTwice });
      seen.add(l.toolId);
    });
  });

export const refundInputSchema = z
  .object({
    lines: refundLinesSchema.default([]),
    /** The order's shipping (what is left of it) too. */
    shipping: z.boolean().default(false),
    /** The units go back to stock through the ledger (reason `return`). */
    restock: z.boolean().default(true),
    reason: z.string().trim().min(1, REFUND_TEXT.reasonRequired).max(REFUND_REASON_MAX, VALIDATION_TEXT.tooLong(REFUND_REASON_MAX)),
    /** The return this refund settles (it must be received). */
    returnId: z.string().min(1).max(LIMITS.id).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.lines.length === 0 && !input.shipping) ctx.addIssue({ code: "custom", path: ["lines"], message: REFUND_TEXT.linesOrShipping });
  });
export type RefundInput = z.input<typeof refundInputSchema>;

export const refundResultSchema = z.object({ refund: orderRefundSchema, order: adminOrderSchema });
export type RefundResult = z.infer<typeof refundResultSchema>;

// ---------------------------------------------------------------- returns

export const RETURN_REASON_MAX = 500;

/** POST /api/order/:id/returns: the units to send back, and why. */
export const returnInputSchema = z.object({
  lines: refundLinesSchema.min(1, REFUND_TEXT.returns.linesRequired),
  reason: z.string().trim().min(1, REFUND_TEXT.returns.reasonRequired).max(RETURN_REASON_MAX, VALIDATION_TEXT.tooLong(RETURN_REASON_MAX)),
});
export type ReturnInput = z.input<typeof returnInputSchema>;

/** The owner's moves of a return (the refund that names it makes it `refunded`). */
export const RETURN_MOVES = ["approved", "refused", "received"] as const;
export const returnMoveSchema = z.object({
  status: z.enum(RETURN_MOVES),
  note: z.string().trim().max(RETURN_REASON_MAX, VALIDATION_TEXT.tooLong(RETURN_REASON_MAX)).optional(),
});
export type ReturnMove = z.input<typeof returnMoveSchema>;

/** A return as the console lists it: with its order and customer. */
export const adminReturnSchema = orderReturnSchema.extend({
  orderId: z.string(),
  orderNumber: z.number().int(),
  customer: z.object({ name: z.string(), email: z.string() }).nullable(),
});
export type AdminReturn = z.infer<typeof adminReturnSchema>;
export const adminReturnListQuerySchema = z.object({ status: z.enum(RETURN_STATUSES).optional(), ...pageQuery });
