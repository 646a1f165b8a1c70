/**
 * The console's money: the checks on tax rates, promotions and delivery methods (their
 * schemas sit beside the shopper's in contract/money-schemas.ts), and the admin API's answers.
 */

/** Form and API messages of the console's money payloads (contract/money-schemas.ts). */
export const MONEY_VALIDATION_TEXT = {
  bandsRequired: "Add at least one weight band",
  destinationsRequired: "Add at least one country or region",
  zonesRequired: "Add at least one zone",
  destinationTwice: "This place is in another zone of this method already",
  dollarsRange: "An amount is from $0 to $1,000,000",
  dateInvalid: "Enter a date and time",
  dateRange: "Enter a date from the year 2000 to 9999",
  limitRange: "A limit is a whole number from 1 to 1,000,000",
  valueRequired: "Enter the amount or percent off",
  postalPrefixInvalid: "A postal-code prefix has letters, digits, spaces and - only",
} as const;

/** The console's API answers about money (admin only). */
export const MONEY_ADMIN_TEXT = {
  taxRateNotFound: "No tax rate with that id.",
  taxRatePlaceTaken: "A tax rate for this country, region and postal-code prefix exists already.",
  promotionNotFound: "No promotion with that id.",
  shippingMethodNotFound: "No delivery method with that id.",
  csvRow: (row: number, field: string, message: string) => `Row ${row}, ${field}: ${message}`,
  csvRowProblem: (row: number, message: string) => `Row ${row}: ${message}`,
  csvPlaceTwice: (firstRow: number) => `the same country, region and postal-code prefix as row ${firstRow}`,
  csvHeader: (columns: string) => `The first row must name the columns ${columns}`,
  csvUnknownColumn: (column: string) => `Unknown column '${column}'`,
  csvMissingColumn: (column: string) => `The column '${column}' is missing`,
  csvEmpty: "The file is empty: it needs at least the header row",
  csvTooManyRows: (max: number) => `A file may hold at most ${max} rates`,
  csvUnreadable: "This is not a CSV file that can be read",
  csvBoolean: "Write true or false",
  csvRejected: (first: string) => `${first}. Nothing was imported.`,
} as const;
