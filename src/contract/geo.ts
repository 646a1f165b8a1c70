/**
 * Where the store delivers and taxes: the countries it knows, their regions (state, province,
 * county codes) where a country has them, and the postal-code shape of each. A country missing
 * here is refused as unknown (400 on `country`); adding one is adding a row.
 *
 * Written here rather than taken from a library: the country libraries carry every country's
 * names in every language (hundreds of KB for the checkout page), and none checks regions and
 * postal codes together; the store sells in a handful of countries.
 */
export interface CountryInfo {
  name: string;
  /** Region codes (ISO 3166-2 without the country), or null where the country has none we use. */
  regions: Readonly<Record<string, string>> | null;
  /** The shape of a postal code, upper-case; an empty code is refused where this is set. */
  postalCode: RegExp | null;
}

const US_STATES: Record<string, string> = {
  AL: "Alabama", AK: "Alaska", AZ: "Arizona", AR: "Arkansas", CA: "California", CO: "Colorado", CT: "Connecticut",
  DE: "Delaware", DC: "District of Columbia", FL: "Florida", GA: "Georgia", HI: "Hawaii", ID: "Idaho", IL: "Illinois",
  IN: "Indiana", IA: "Iowa", KS: "Kansas", KY: "Kentucky", LA: "Louisiana", ME: "Maine", MD: "Maryland",
  MA: "Massachusetts", MI: "Michigan", MN: "Minnesota", MS: "Mississippi", MO: "Missouri", MT: "Montana",
  NE: "Nebraska", NV: "Nevada", NH: "New Hampshire", NJ: "New Jersey", NM: "New Mexico", NY: "New York",
  NC: "North Carolina", ND: "North Dakota", OH: "Ohio", OK: "Oklahoma", OR: "Oregon", PA: "Pennsylvania",
  RI: "Rhode Island", SC: "South Carolina", SD: "South Dakota", TN: "Tennessee", TX: "Texas", UT: "Utah",
  VT: "Vermont", VA: "Virginia", WA: "Washington", WV: "West Virginia", WI: "Wisconsin", WY: "Wyoming",
  PR: "Puerto Rico",
};

const CA_PROVINCES: Record<string, string> = {
  AB: "Alberta", BC: "British Columbia", MB: "Manitoba", NB: "New Brunswick", NL: "Newfoundland and Labrador",
  NS: "Nova Scotia", NT: "Northwest Territories", NU: "Nunavut", ON: "Ontario", PE: "Prince Edward Island",
  QC: "Quebec", SK: "Saskatchewan", YT: "Yukon",
};

const AU_STATES: Record<string, string> = {
  ACT: "Australian Capital Territory", NSW: "New South Wales", NT: "Northern Territory", QLD: "Queensland",
  SA: "South Australia", TAS: "Tasmania", VIC: "Victoria", WA: "Western Australia",
};

export const COUNTRIES: Readonly<Record<string, CountryInfo>> = {
  US: { name: "United States", regions: US_STATES, postalCode: /^\d{5}(-\d{4})?$/ },
  CA: { name: "Canada", regions: CA_PROVINCES, postalCode: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/ },
  MX: { name: "Mexico", regions: null, postalCode: /^\d{5}$/ },
  GB: { name: "United Kingdom", regions: null, postalCode: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/ },
  IE: { name: "Ireland", regions: null, postalCode: /^[A-Z\d]{3} ?[A-Z\d]{4}$/ },
  DE: { name: "Germany", regions: null, postalCode: /^\d{5}$/ },
  FR: { name: "France", regions: null, postalCode: /^\d{5}$/ },
  NL: { name: "Netherlands", regions: null, postalCode: /^\d{4} ?[A-Z]{2}$/ },
  AU: { name: "Australia", regions: AU_STATES, postalCode: /^\d{4}$/ },
  NZ: { name: "New Zealand", regions: null, postalCode: /^\d{4}$/ },
};

export const COUNTRY_CODES = Object.keys(COUNTRIES);

/** Postal codes are compared upper-case with single spaces. */
export const normalPostalCode = (code: string): string => code.trim().toUpperCase().replace(/\s+/g, " ");

export type AddressProblem = "country" | "region" | "postalCode";

/** What is wrong with a destination, field by field; empty when it is one the store knows. */
export function destinationProblems(d: { country: string; region?: string | undefined; postalCode?: string | undefined }): AddressProblem[] {
  const info = COUNTRIES[d.country];
  if (!info) return ["country"];
  const problems: AddressProblem[] = [];
  const region = d.region?.trim().toUpperCase() ?? "";
  // A country without a list takes any short code (a county's), or none.
  if (info.regions ? !(region in info.regions) : !/^[A-Z0-9]{0,3}$/.test(region)) problems.push("region");
  const postal = normalPostalCode(d.postalCode ?? "");
  if (info.postalCode && !info.postalCode.test(postal)) problems.push("postalCode");
  return problems;
}
