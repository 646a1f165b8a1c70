/**
 * Shipments (issue 52, DESIGN "Orders" → Shipments, API row POST /api/admin/orders/:id/shipments):
 * the owner's ship form and the route share these schemas; the order pages and the mail share the
 * carriers' tracking links. (The route's answer, `{shipment, order}`, is admin-schemas.ts's shipmentResultSchema.)
 */
import { LIMITS } from "./constants";
import { SHIPMENT_TEXT } from "./texts/shipments";
import { VALIDATION_TEXT } from "./texts/validation";
import { z } from "./zod";

/** The carriers that get a tracking link, as the console offers and the API spells them. */
export const KNOWN_CARRIERS = ["UPS", "USPS", "FedEx", "DHL"] as const;
export type KnownCarrier = (typeof KNOWN_CARRIERS)[number];

export const CARRIER_MAX = 60;
export const TRACKING_NUMBER_MAX = 40;

/** "ups", " FedEx " → the known carrier's spelling; another carrier as the owner wrote it. */
export function carrierName(carrier: string): string {
  const trimmed = carrier.trim();
  return KNOWN_CARRIERS.find((c) => c.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
}

/** A tracking number as carriers print it, spaces and dashes left out: letters and digits only. */
export const normalTrackingNumber = (raw: string): string => raw.replace(/[\s-]+/g, "").toUpperCase();
const TRACKING_PATTERN = /^[A-Z0-9]{4,40}$/;

/** The carrier's page that follows the parcel; null without a number or for a carrier we do not know. */
export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber) return null;
  const n = encodeURIComponent(trackingNumber);
  switch (carrierName(carrier)) {
    case "UPS":
      return `https://www.ups.com/track?tracknum=${n}`;
    case "USPS":
      return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`;
    case "FedEx":
      return `https://www.fedex.com/fedextrack/?trknbr=${n}`;
    case "DHL":
      return `https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=${n}`;
    default:
      return null;
  }
}

const quantitySchema = z.number({ error: VALIDATION_TEXT.invalidData }).int(VALIDATION_TEXT.invalidData).min(1, VALIDATION_TEXT.invalidData).max(LIMITS.quantity, VALIDATION_TEXT.invalidData);

/** POST /api/admin/orders/:id/shipments: the units in the parcel (each tool once), its carrier and tracking number. */
export const shipmentInputSchema = z
  .object({
    lines: z
      .array(z.object({ toolId: z.string().min(1).max(LIMITS.id), quantity: quantitySchema }))
      .min(1, SHIPMENT_TEXT.linesRequired)
      .max(LIMITS.cartLines)
      .superRefine((lines, ctx) => {
        const seen = new Set<string>();
        lines.forEach((l, i) => {
          if (seen.has(l.toolId)) ctx.addIssue({ code: "custom", path: [i, "toolId"], message: SHIPMENT_TEXT.toolTwice });
          seen.add(l.toolId);
        });
      }),
    carrier: z.string().trim().min(1, SHIPMENT_TEXT.carrierRequired).max(CARRIER_MAX, VALIDATION_TEXT.tooLong(CARRIER_MAX)).transform(carrierName),
    trackingNumber: z
      .string()
      .max(TRACKING_NUMBER_MAX * 2, VALIDATION_TEXT.tooLong(TRACKING_NUMBER_MAX))
      .transform(normalTrackingNumber)
      .refine((n) => n === "" || TRACKING_PATTERN.test(n), SHIPMENT_TEXT.trackingNumberInvalid)
      .transform((n) => (n === "" ? null : n))
      .nullish(),
  })
  .strict();
export type ShipmentInput = z.input<typeof shipmentInputSchema>;

export const SHIPMENT_STATUSES = ["shipped", "delivered", "cancelled"] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const shipmentSchema = z.object({
  _id: z.string(),
  /** `SH-2026-000001`. */
  number: z.string(),
  status: z.enum(SHIPMENT_STATUSES),
  /** Null for a parcel the old whole-order "shipped" move sent. */
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  lines: z.array(z.object({ toolId: z.string(), name: z.string(), quantity: z.number().int() })),
  shippedAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type Shipment = z.infer<typeof shipmentSchema>;

/** POST /api/admin/shipments/:id/status. */
export const shipmentMoveSchema = z.object({ status: z.enum(["delivered", "cancelled"]) }).strict();
export type ShipmentMove = z.infer<typeof shipmentMoveSchema>;

/** An order's money and its parcels, apart (DESIGN "Orders" → Shipments); `status` keeps its meaning for old clients. */
export const ORDER_PAYMENT_STATUSES = ["unpaid", "paid", "partly_refunded", "refunded"] as const;
export type OrderPaymentStatus = (typeof ORDER_PAYMENT_STATUSES)[number];
export const FULFILLMENT_STATUSES = ["unfulfilled", "partly_shipped", "shipped", "delivered"] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/** Units of each line still to ship: ordered less shipped (parcels not cancelled) less refunded, never below 0; the lines with some. */
export function stillToCome(lines: { toolId: string; name: string; quantity: number; shippedQuantity?: number | undefined; refundedQuantity?: number | undefined }[]): { toolId: string; name: string; quantity: number }[] {
  return lines
    .map((l) => ({ toolId: l.toolId, name: l.name, quantity: Math.max(0, l.quantity - (l.shippedQuantity ?? 0) - (l.refundedQuantity ?? 0)) }))
    .filter((l) => l.quantity > 0);
}
