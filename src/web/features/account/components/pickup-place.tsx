import { TEXT } from "../../../../contract/texts/site";

/** Where pickup orders are collected and when: the store's location and opening hours, as the info strip says them. */
export function PickupPlace() {
  const [hours, location] = TEXT.home.info;
  return (
    <span className="text-base-content/80 block text-sm" data-testid="pickup-place">
      {location && <span className="block">{location.body}</span>}
      {hours && <span className="block">{hours.body}</span>}
    </span>
  );
}
