import type { Category } from "../../contract/constants";
import type { TierCents } from "../../contract/price-tiers";

export interface SeedTool {
  slug: string;
  name: string;
  category: Category;
  priceCents: number;
  availableQuantity: number;
  minimumQuantity: number;
  /** Shipping weight of one, in grams. */
  weightGrams: number;
  description: string;
  /** Volume prices for trade buyers (DESIGN "Price tiers"). */
  priceTiers?: TierCents[];
}

/** The demo catalogue: four believable tools per category, each with its own artwork. */
export const SEED_TOOLS: SeedTool[] = [
  {
    slug: "claw-hammer",
    name: "Forged Steel Claw Hammer 16 oz",
    category: "hand-tools",
    priceCents: 2499,
    availableQuantity: 240,
    minimumQuantity: 2,
    priceTiers: [
      { minQuantity: 10, priceCents: 2299 },
      { minQuantity: 50, priceCents: 1999 },
    ],
    weightGrams: 900,
    description:
      "Drop-forged head with a magnetic nail starter and a curved claw for clean pulls. Shock-absorbing fibreglass handle with a non-slip grip.",
  },
  {
    slug: "combination-spanner-set",
    name: "Combination Spanner Set, 12 pieces",
    category: "hand-tools",
    priceCents: 5450,
    availableQuantity: 120,
    minimumQuantity: 1,
    priceTiers: [
      { minQuantity: 5, priceCents: 4990 },
      { minQuantity: 20, priceCents: 4490 },
    ],
    weightGrams: 2100,
    description:
      "Chrome-vanadium spanners from 8 to 19 mm with 12-point ring ends and 15° offset open ends, in a roll-up canvas pouch.",
  },
  {
    slug: "screwdriver-set",
    name: "Precision Screwdriver Set, 8 pieces",
    category: "hand-tools",
    priceCents: 3299,
    availableQuantity: 300,
    minimumQuantity: 2,
    weightGrams: 450,
    description:
      "Slotted, Phillips and Pozidriv tips hardened to 58 HRC, magnetic tips and two-component handles that stay comfortable all day.",
  },
  {
    slug: "hand-saw",
    name: 'Hardpoint Hand Saw 22"',
    category: "hand-tools",
    priceCents: 2899,
    availableQuantity: 150,
    minimumQuantity: 1,
    weightGrams: 650,
    description:
      "Induction-hardened triple-ground teeth, 8 TPI, cut on the push stroke. Ergonomic handle with built-in 45° and 90° square.",
  },
  {
    slug: "push-reel-mower",
    name: 'Push Reel Mower 16"',
    category: "lawn-mowers",
    priceCents: 12900,
    availableQuantity: 45,
    minimumQuantity: 1,
    weightGrams: 11500,
    description:
      "Quiet, emission-free five-blade reel with adjustable cutting height from 12 to 45 mm. Ideal for small, flat lawns.",
  },
  {
    slug: "petrol-rotary-mower",
    name: "Self-Propelled Petrol Mower 46 cm",
    category: "lawn-mowers",
    priceCents: 42900,
    availableQuantity: 30,
    minimumQuantity: 1,
    weightGrams: 32000,
    description:
      "140 cc four-stroke engine, rear-wheel drive, 60-litre grass box and mulching plug. Seven cutting heights from 25 to 75 mm.",
  },
  {
    slug: "cordless-mower",
    name: "40 V Cordless Lawn Mower 38 cm",
    category: "lawn-mowers",
    priceCents: 32900,
    availableQuantity: 60,
    minimumQuantity: 1,
    weightGrams: 15500,
    description:
      "Brushless motor and a 4 Ah battery that mows up to 400 m² per charge. Folds flat for storage; charger included.",
  },
  {
    slug: "ride-on-mower",
    name: 'Ride-On Lawn Tractor 42"',
    category: "lawn-mowers",
    priceCents: 219900,
    availableQuantity: 8,
    minimumQuantity: 1,
    weightGrams: 185000,
    description:
      "Twin-cylinder 22 HP engine, hydrostatic transmission and a 107 cm twin-blade deck. Cruise control and a 300-litre collector.",
  },
  {
    slug: "cordless-drill",
    name: "18 V Brushless Drill Driver",
    category: "power-tools",
    priceCents: 13900,
    availableQuantity: 180,
    minimumQuantity: 1,
    priceTiers: [
      { minQuantity: 10, priceCents: 12900 },
      { minQuantity: 25, priceCents: 11900 },
    ],
    weightGrams: 1600,
    description:
      "60 Nm of torque, two speeds, 21 clutch settings and a 13 mm metal chuck. Two 2 Ah batteries and a fast charger in a case.",
  },
  {
    slug: "angle-grinder",
    name: "Angle Grinder 125 mm, 1200 W",
    category: "power-tools",
    priceCents: 8900,
    availableQuantity: 90,
    minimumQuantity: 1,
    weightGrams: 2300,
    description:
      "Soft start, anti-restart protection and a tool-free guard. Side handle fits left or right; spindle lock for quick disc changes.",
  },
  {
    slug: "circular-saw",
    name: "Circular Saw 190 mm, 1400 W",
    category: "power-tools",
    priceCents: 11900,
    availableQuantity: 70,
    minimumQuantity: 1,
    weightGrams: 4200,
    description:
      "66 mm cutting depth, bevels to 56° and a laser guide. Comes with a 24-tooth carbide blade and a parallel guide.",
  },
  {
    slug: "jigsaw",
    name: "Pendulum Jigsaw 800 W",
    category: "power-tools",
    priceCents: 7900,
    availableQuantity: 110,
    minimumQuantity: 1,
    weightGrams: 2400,
    description:
      "Four pendulum settings, variable speed and tool-free blade change. Cuts 100 mm of wood and 10 mm of steel.",
  },
  {
    slug: "petrol-chainsaw",
    name: 'Petrol Chainsaw 45 cc, 18"',
    category: "chainsaws",
    priceCents: 34900,
    availableQuantity: 40,
    minimumQuantity: 1,
    priceTiers: [
      { minQuantity: 5, priceCents: 32900 },
      { minQuantity: 10, priceCents: 30900 },
      { minQuantity: 20, priceCents: 28900 },
    ],
    weightGrams: 5600,
    description:
      "Easy-start two-stroke engine, automatic chain oiler and an inertia chain brake. Anti-vibration handles for long days of cutting.",
  },
  {
    slug: "cordless-chainsaw",
    name: '36 V Cordless Chainsaw 14"',
    category: "chainsaws",
    priceCents: 24900,
    availableQuantity: 55,
    minimumQuantity: 1,
    weightGrams: 4100,
    description:
      "Brushless, quiet and instant-start. Tool-free chain tensioning and up to 120 cuts through 10 cm timber per charge.",
  },
  {
    slug: "top-handle-chainsaw",
    name: 'Top-Handle Arborist Chainsaw 12"',
    category: "chainsaws",
    priceCents: 39900,
    availableQuantity: 20,
    minimumQuantity: 1,
    weightGrams: 3300,
    description:
      "Light 3.3 kg tree-care saw with a compact top handle, rope loop and a low-kickback chain. For trained arborists.",
  },
  {
    slug: "pole-saw",
    name: "Telescopic Pole Saw 2.7 m",
    category: "chainsaws",
    priceCents: 18900,
    availableQuantity: 35,
    minimumQuantity: 1,
    weightGrams: 4800,
    description:
      "Reaches branches up to 4 m from the ground. 25 cm bar, automatic oiling and an adjustable head angle for clean cuts.",
  },
];

export const SEED_REVIEWS = [
  { name: "Maria Lopez", rating: 5, description: "The cordless mower did our whole back garden on one charge. Quiet enough to mow on a Sunday morning." },
  { name: "James O'Neill", rating: 4, description: "Solid spanner set, the ring ends grip well on rounded nuts. The pouch could be a little sturdier." },
  { name: "Aisha Khan", rating: 5, description: "Ordered a chainsaw on Monday, it arrived sharpened and oiled on Wednesday. Great service." },
  { name: "Tom Becker", rating: 4, description: "The brushless drill is light and has plenty of torque for decking screws. Batteries last all day." },
  { name: "Priya Nair", rating: 5, description: "Helpful advice on the phone about which pole saw fits our apple trees. Exactly right." },
  { name: "Daniel Kim", rating: 3, description: "The jigsaw cuts well, but I had to buy finer blades for laminate. Delivery was quick." },
];

/**
 * The demo's money (DESIGN "Running contract": the demo shows the whole shop). The store itself
 * is in Brooklyn, NY (migration 0009 writes its address), so pickup is taxed at New York City's rate.
 */
export const SEED_SHIPPING_METHODS = [
  {
    name: "Standard delivery",
    /** Free from $150 of goods. */
    freeOverCents: 15_000,
    zones: [
      {
        name: "United States",
        destinations: [{ country: "US", region: "" }],
        // Up to 30 kg: a parcel service's weight bands. Heavier carts go by freight.
        bands: [
          { maxGrams: 2_000, priceCents: 695 },
          { maxGrams: 5_000, priceCents: 995 },
          { maxGrams: 10_000, priceCents: 1_495 },
          { maxGrams: 30_000, priceCents: 2_995 },
        ],
      },
    ],
  },
  {
    name: "Freight",
    /** Mowers and other heavy tools: a pallet, never free. */
    freeOverCents: null,
    zones: [
      {
        name: "United States",
        destinations: [{ country: "US", region: "" }],
        bands: [
          { maxGrams: 50_000, priceCents: 7_900 },
          { maxGrams: 250_000, priceCents: 14_900 },
          { maxGrams: 1_000_000, priceCents: 29_900 },
        ],
      },
    ],
  },
];

/**
 * New York's sales tax: the state's 4 % everywhere in NY, and New York City's combined 8.875 %
 * where the postal code starts with one of the city's prefixes (Manhattan 100–102, Staten Island
 * 103, the Bronx 104, Queens 111, 113, 114 and 116, Brooklyn 112). Rates are whole basis points
 * (tax_rates_range), so the city's is 888 (8.88 %); the owner edits it in the console. New York
 * taxes delivery charges too.
 */
export const NYC_POSTAL_PREFIXES = ["100", "101", "102", "103", "104", "111", "112", "113", "114", "116"];
export const SEED_TAX_RATES = [
  { country: "US", region: "NY", postalPrefix: "", name: "New York State sales tax", rateBasisPoints: 400, taxShipping: true },
  ...NYC_POSTAL_PREFIXES.map((postalPrefix) => ({
    country: "US",
    region: "NY",
    postalPrefix,
    name: "New York City sales tax",
    rateBasisPoints: 888,
    taxShipping: true,
  })),
];

/** A sample code a new user can try at the checkout: 10 % off from $50 of goods. */
export const SEED_PROMOTION = { code: "WELCOME10", kind: "percent" as const, value: 10, minSubtotalCents: 5_000 };

export interface SeedToolReview {
  name: string;
  rating: number;
  title: string;
  body: string;
}

/** What the demo's customers say about each category's tools; each tool gets three of its category's. */
const CATEGORY_REVIEWS: Record<Category, SeedToolReview[]> = {
  "hand-tools": [
    { name: "Sam Ortega", rating: 5, title: "Feels like it will outlast me", body: "Solid weight, clean finish and no play anywhere. It has been in my bag every day for two months." },
    { name: "Lena Fischer", rating: 4, title: "Good value", body: "Does exactly what it should. The grip could be a touch thicker for big hands." },
    { name: "Marcus Reed", rating: 5, title: "Bought a second one", body: "Lent the first to my brother-in-law and never saw it again, so I ordered another. Says it all." },
    { name: "Hannah Brooks", rating: 3, title: "Fine for the price", body: "Works well enough for weekend jobs around the house; a pro might want something heavier." },
  ],
  "lawn-mowers": [
    { name: "Gloria Chen", rating: 5, title: "Lawn looks like a golf course", body: "Even cut, easy height adjustment and it starts first time, every time." },
    { name: "Peter Walsh", rating: 4, title: "Great mower, heavy box", body: "Cuts beautifully. The grass box is heavy when full, so empty it a little early." },
    { name: "Ines Moreau", rating: 4, title: "Quiet and tidy", body: "The neighbours no longer glare on Saturday mornings. Folding it away takes a minute." },
    { name: "Oscar Lindqvist", rating: 2, title: "Struggles on slopes", body: "Fine on the flat, but our steep bank is hard work. Check your garden before buying." },
  ],
  "power-tools": [
    { name: "Tom Becker", rating: 5, title: "Plenty of power", body: "Went through a whole deck build without complaint. The batteries last all day." },
    { name: "Amara Okafor", rating: 4, title: "Light and precise", body: "Easy to control, and the light on the front really helps in dark corners." },
    { name: "Diego Alvarez", rating: 5, title: "Pro quality", body: "I use it on site daily. Still running like new after three months of abuse." },
    { name: "Katie Moss", rating: 3, title: "Loud but effective", body: "Gets the job done quickly. Wear ear protection, it is louder than I expected." },
  ],
  chainsaws: [
    { name: "Aisha Khan", rating: 5, title: "Arrived sharp and oiled", body: "Ordered on Monday, cutting firewood on Wednesday. The chain brake gives real peace of mind." },
    { name: "Bjorn Larsen", rating: 4, title: "Strong saw", body: "Cuts through oak without bogging down. A little heavy for overhead work." },
    { name: "Priya Nair", rating: 5, title: "Exactly right for our trees", body: "The shop's advice on the phone was spot on; it handles our apple trees easily." },
    { name: "Frank Dolan", rating: 3, title: "Read the manual first", body: "Tensioning the chain took me a while to get right. Once set up it runs well." },
  ],
};

/** Three reviews per tool, taken round the category's list so neighbouring tools read differently. */
export function seedToolReviews(tool: SeedTool, indexInCategory: number): SeedToolReview[] {
  const pool = CATEGORY_REVIEWS[tool.category];
  return [0, 1, 2].map((k) => pool[(indexInCategory + k) % pool.length] as SeedToolReview);
}
