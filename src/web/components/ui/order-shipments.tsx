/**
 * An order's parcels (issue 52, DESIGN "Orders" → Shipments): each with its number, units,
 * carrier, tracking link and dates, and what is still to come. The customer's order page and the
 * console's show the same list; the console adds each parcel's packing slip and its moves.
 */
import type { ReactNode } from "react";
import type { Order } from "../../../contract/schemas";
import { stillToCome, type Shipment } from "../../../contract/shipment-schemas";
import { SHIPMENT_TEXT } from "../../../contract/texts/shipments";
import { DataTable } from "./data-table";

const text = SHIPMENT_TEXT.page;
const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" });

export function OrderShipmentList({
  order,
  headingLevel = 2,
  actions,
}: {
  order: Pick<Order, "shipments" | "lines" | "status" | "fulfillmentStatus">;
  headingLevel?: 2 | 3;
  /** The console's cell of links and buttons for a parcel. */
  actions?: (shipment: Shipment) => ReactNode;
}) {
  const shipments = order.shipments ?? [];
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const toCome = stillToCome(order.lines);
  // An order shipped before shipments existed, or a cancelled one, has nothing to say here.
  if (shipments.length === 0 && (order.status === "cancelled" || order.status === "shipped" || order.status === "delivered")) return null;
  const columns = [text.number, text.units, text.carrier, text.tracking, text.shippedAt, text.deliveredAt, text.status, ...(actions ? [text.actions] : [])];
  return (
    <section aria-labelledby="order-shipments" data-testid="order-shipments">
      <Heading id="order-shipments" className="mb-2 text-lg font-semibold">
        {text.title}
      </Heading>
      {order.fulfillmentStatus && (
        <p className="mb-2" data-testid="order-fulfillment" data-status={order.fulfillmentStatus}>
          {text.fulfillment}: {text.fulfillmentStatuses[order.fulfillmentStatus]}
        </p>
      )}
      {shipments.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <DataTable labelledBy="order-shipments" columns={columns} small>
          {shipments.map((s) => (
            <tr key={s._id} data-testid="order-shipment" data-status={s.status}>
              <td>{s.number}</td>
              <td>
                {s.lines.map((l) => (
                  <span key={l.toolId} className="block">
                    {text.unit(l.quantity, l.name)}
                  </span>
                ))}
              </td>
              <td>{s.carrier ?? "—"}</td>
              <td>
                {s.trackingUrl ? (
                  <a className="link" href={s.trackingUrl} target="_blank" rel="noreferrer" data-testid="shipment-tracking">
                    {s.trackingNumber}
                  </a>
                ) : (
                  (s.trackingNumber ?? "—")
                )}
              </td>
              <td>{day(s.shippedAt)}</td>
              <td>{s.deliveredAt ? day(s.deliveredAt) : "—"}</td>
              <td>{text.statuses[s.status]}</td>
              {actions && <td>{actions(s)}</td>}
            </tr>
          ))}
        </DataTable>
      )}
      {order.status !== "cancelled" && (
        <div className="mt-2" data-testid="order-to-come">
          <span className="font-medium">{text.toCome}: </span>
          {toCome.length === 0 ? text.nothingToCome : toCome.map((l) => text.unit(l.quantity, l.name)).join(", ")}
        </div>
      )}
    </section>
  );
}
