/**
 * The home page below its first screen (features/home/components/below-the-fold.tsx): apart from
 * site.ts because that part is a chunk of its own, off the home page's first download.
 */
export const HOME_BELOW_FOLD_TEXT = {
  infoStripLabel: "Opening hours, location and contact",
  reviews: "Reviews Here",
  specialLooks: "Special Looks",
  specialLooksLead: "Hand-picked kits for the season: sharpened, tested and ready for work the day they arrive.",
  specialLooksPoints: [
    "Every power tool test-run before it ships",
    "Chains and blades sharpened on request",
    "Spare parts kept for ten years",
  ],
  specialLooksImage: "Tools arranged on a workshop pegboard",
  requestQuote: "Request For Quote",
  contactUs: "Contact US",
  statsHeading: "Millions of tools trust us",
  statsLead: "Numbers we are proud of",
} as const;

/** The store's opening hours, location and contact: the home page's info strip, and the pickup place of an order. */
export const STORE_INFO = [
  { title: "Opening Hours", body: "Mon–Sat 8:00–18:00, Sunday 10:00–16:00" },
  { title: "Visit Our Location", body: "12 Forge Lane, Brooklyn, NY 11201" },
  { title: "Contact Us Now", body: "+1 (555) 010-2024 · hello@toolyard.example" },
] as const;
