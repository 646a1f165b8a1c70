import { STORE_INFO } from "../../../../contract/texts/home";

/** Where pickup orders are collected and when: the store's location and opening hours, as the info strip says them. */
export function PickupPlace() {
  const [hours, location] = STORE_INFO;
  return (
    <span className="text-base-content/80 block text-sm" data-testid="pickup-place">
      {location && <span className="block">{location.body}</span>}
      {hours && <span className="block">{hours.body}</span>}
    </span>
  );
}
