/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** Form and API validation messages (spec §5), the same on both sides. */
export const VALIDATION_TEXT = {
  nameRequired: "Name is required",
  emailRequired: "Email is required",
  emailInvalid: "Please provide a valid email",
  passwordRequired: "Password is required",
  passwordRule: "Should contain at least 8 (one uppercase ,one lowercase ,one digit, one special character)",
  invalidData: "Please enter valid data",
  ratingRange: "Rating must be a whole number from 1 to 5",
  descriptionRequired: "Description is required",
  phoneInvalid: "Use digits, spaces and + ( ) - . only",
  tooLong: (max: number) => `Must be at most ${max} characters`,
  priceDecimals: "Price must have at most two decimals",
  addressRequired: "A delivery address is required",
  phoneRequired: "A phone number is required",
  paymentMethod: "Choose how you will pay",
  pageTooDeep: (max: number) => `Pages beyond ${max} are not served: follow the next link (its cursor) to go deeper`,
  cursorInvalid: "This cursor is not valid: start again from the first page",
  priceRange: "The lowest price must not be above the highest",
  imagePath: "The image must be a photo uploaded to the store or a path of the store's own, such as /images/tools/hammer.svg",
  codeRequired: "Enter the code from your app",
} as const;
