/**
 * The console's ship form (issue 52): each line's units, prefilled with what is left to ship, the
 * carrier (UPS, USPS, FedEx, DHL or another named), the tracking number; one key per form, so a
 * retry after a lost answer gets the first shipment. And a parcel's links and moves.
 */
import { useState } from "react";
import { toast } from "react-toastify";
import type { AdminOrder } from "../../../contract/admin-schemas";
import { CARRIER_MAX, KNOWN_CARRIERS, shipmentInputSchema, stillToCome, TRACKING_NUMBER_MAX, type Shipment } from "../../../contract/shipment-schemas";
import { SHIPMENT_TEXT } from "../../../contract/texts/shipments";
import { ApiRequestError } from "../../lib/api";
import { useMoveShipment, useShipOrder } from "./api";

const text = SHIPMENT_TEXT.form;
const OTHER = "other";

/** Cash on delivery and terms ship while pending; every order once paid (orders/shipments.ts). */
export const mayShip = (o: Pick<AdminOrder, "status" | "paymentMethod">) =>
  o.status === "paid" || (o.status === "pending" && (o.paymentMethod === "cash_on_delivery" || o.paymentMethod === "terms"));

export function ShipForm({ order }: { order: AdminOrder }) {
  const left = new Map(stillToCome(order.lines).map((l) => [l.toolId, l.quantity]));
  const [quantities, setQuantities] = useState<Record<string, number>>(() => Object.fromEntries(left));
  const [carrier, setCarrier] = useState<string>(KNOWN_CARRIERS[0]);
  const [otherCarrier, setOtherCarrier] = useState("");
  const [trackingNumber, setTrackingNumber] = useState("");
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const ship = useShipOrder();
  if (left.size === 0) return null;
  return (
    <form
      aria-labelledby="ship-form"
      className="border-base-300 rounded-box grid max-w-xl gap-3 border p-4"
      data-testid="ship-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = shipmentInputSchema.safeParse({
          lines: Object.entries(quantities)
            .filter(([, q]) => q > 0)
            .map(([toolId, quantity]) => ({ toolId, quantity })),
          carrier: carrier === OTHER ? otherCarrier : carrier,
          trackingNumber,
        });
        if (!parsed.success) {
          setProblem(parsed.error.issues[0]?.message ?? SHIPMENT_TEXT.linesRequired);
          return;
        }
        setProblem(null);
        ship.mutate(
          // The parsed form's own words, as the route parses them again.
          { id: order._id, input: { lines: parsed.data.lines, carrier: parsed.data.carrier, trackingNumber: parsed.data.trackingNumber ?? null }, key },
          {
            onSuccess: (result) => {
              toast.success(text.done(result.shipment.number));
              setTrackingNumber("");
              setKey(crypto.randomUUID());
            },
            onError: (error) => {
              setProblem(error.message);
              if (error instanceof ApiRequestError && error.status < 500) setKey(crypto.randomUUID());
            },
          },
        );
      }}
    >
      <h3 id="ship-form" className="text-lg font-semibold">
        {text.title}
      </h3>
      {order.lines.map((l) => {
        const max = left.get(l.toolId) ?? 0;
        return (
          <label key={l.toolId} className="flex flex-wrap items-center justify-between gap-2">
            <span>
              {l.name} <span className="text-sm">({text.left(max)})</span>
            </span>
            <input
              type="number"
              className="input input-sm w-24"
              aria-label={`${l.name}: ${text.left(max)}`}
              min={0}
              max={max}
              step={1}
              disabled={max === 0}
              value={quantities[l.toolId] ?? 0}
              onChange={(e) => setQuantities((q) => ({ ...q, [l.toolId]: Math.max(0, Math.min(max, Math.trunc(Number(e.target.value) || 0))) }))}
            />
          </label>
        );
      })}
      <label className="flex flex-col gap-1">
        <span>{text.carrier}</span>
        <select className="select select-sm" aria-label={text.carrier} value={carrier} onChange={(e) => setCarrier(e.target.value)}>
          {KNOWN_CARRIERS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
          <option value={OTHER}>{text.otherCarrier}</option>
        </select>
      </label>
      {carrier === OTHER && (
        <label className="flex flex-col gap-1">
          <span>{text.otherCarrierName}</span>
          <input type="text" className="input input-sm w-full" aria-label={text.otherCarrierName} value={otherCarrier} maxLength={CARRIER_MAX} onChange={(e) => setOtherCarrier(e.target.value)} />
        </label>
      )}
      <label className="flex flex-col gap-1">
        <span>{text.trackingNumber}</span>
        <input type="text" className="input input-sm w-full" aria-label={text.trackingNumber} value={trackingNumber} maxLength={TRACKING_NUMBER_MAX * 2} onChange={(e) => setTrackingNumber(e.target.value)} />
      </label>
      {problem && (
        <p role="alert" className="text-error" data-testid="ship-problem">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary" disabled={ship.isPending}>
          {text.submit}
        </button>
      </div>
    </form>
  );
}

const packingSlipUrl = (id: string) => `/api/admin/shipments/${encodeURIComponent(id)}/packing-slip`;

/** A parcel's packing slip, and its moves while it is on its way. */
export function ShipmentActions({ shipment }: { shipment: Shipment }) {
  const move = useMoveShipment();
  return (
    <span className="flex flex-wrap items-center gap-2">
      <a className="link" href={packingSlipUrl(shipment._id)} target="_blank" rel="noreferrer" data-testid="packing-slip">
        {SHIPMENT_TEXT.page.packingSlip}
      </a>
      {shipment.status === "shipped" && (
        <>
          <button type="button" className="btn btn-xs" disabled={move.isPending} onClick={() => move.mutate({ id: shipment._id, status: "delivered" })}>
            {text.markDelivered}
          </button>
          <button type="button" className="btn btn-xs btn-error btn-outline" disabled={move.isPending} onClick={() => move.mutate({ id: shipment._id, status: "cancelled" })}>
            {text.cancel}
          </button>
        </>
      )}
    </span>
  );
}
