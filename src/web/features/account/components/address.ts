import { COUNTRIES } from "../../../../contract/geo";

export interface StructuredAddress {
  address: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

/**
 * An address as lines to show: the street, then `City, REGION POSTAL`, then the country's name.
 * An order or profile from before the structured address has its whole address in the street
 * line and the rest empty: it shows that one line, as it was typed.
 */
export function addressLines(a: StructuredAddress): string[] {
  const place = [a.region, a.postalCode].filter((part) => part !== "").join(" ");
  const town = [a.city, place].filter((part) => part !== "").join(", ");
  const country = a.country === "" ? "" : (COUNTRIES[a.country]?.name ?? a.country);
  return [a.address, town, country].filter((line) => line !== "");
}
