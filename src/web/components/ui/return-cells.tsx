import { REFUND_TEXT } from "../../../contract/texts/refunds";

/** A return's units, one line each: a cell of the order page's and the console's returns tables. */
export function ReturnUnitsCell({ lines }: { lines: readonly { toolId: string; name: string; quantity: number }[] }) {
  return (
    <td>
      {lines.map((l) => (
        <span key={l.toolId} className="block">
          {REFUND_TEXT.page.units(l.quantity, l.name)}
        </span>
      ))}
    </td>
  );
}

/** A return's reason, with the customer's note under it: the cell beside ReturnUnitsCell. */
export function ReturnReasonCell({ reason, note }: { reason: string; note?: string | null }) {
  return (
    <td>
      {reason}
      {note && <span className="block text-xs">{note}</span>}
    </td>
  );
}
