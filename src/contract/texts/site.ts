/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** Site-wide: navigation, home, catalogue, footer, states. */
export const TEXT = {
  brand: "Toolyard",
  /** The home page's title and the description of any page without its own (index.html repeats them). */
  meta: {
    title: "Toolyard — tools for the workshop, garden and woodland",
    description: "Toolyard: hand tools, lawn mowers, power tools and chainsaws, delivered.",
  },
  /** Names that screen readers announce. */
  a11y: {
    skipToContent: "Skip to content",
    mainNav: "Main",
    carousel: "Featured tools",
    carouselRole: "carousel",
    slideRole: "slide",
    slidePosition: (position: number, count: number) => `${position} of ${count}`,
    infoStrip: "Opening hours, location and contact",
    specialLooksImage: "Tools arranged on a workshop pegboard",
    pages: "Pages",
  },
  nav: {
    home: "Home",
    purchase: "Purchase",
    blogs: "Blogs",
    about: "About",
    dashboard: "Dashboard",
    admin: "Admin",
    login: "Login",
    signOut: "Sign Out",
    openMenu: "Open menu",
    cart: "Cart",
    /** The cart link's name for screen readers: the badge alone is just a number. */
    cartLabel: (count: number) => `Cart, ${count} ${count === 1 ? "item" : "items"}`,
  },
  home: {
    welcome: "Welcome Best Tools",
    welcomeLead: "Everything for the workshop, the garden and the woodland, chosen by people who use it.",
    ourTools: "Our Tools",
    allTools: "See all tools",
    bookNow: "Book Now",
    emptyCatalog: "No tools in the catalogue yet.",
    reviews: "Reviews Here",
    specialLooks: "Special Looks",
    specialLooksLead:
      "Hand-picked kits for the season: sharpened, tested and ready for work the day they arrive.",
    specialLooksPoints: [
      "Every power tool test-run before it ships",
      "Chains and blades sharpened on request",
      "Spare parts kept for ten years",
    ],
    requestQuote: "Request For Quote",
    contactUs: "Contact US",
    statsHeading: "Millions of tools trust us",
    statsLead: "Numbers we are proud of",
    previousSlide: "Previous slide",
    nextSlide: "Next slide",
    info: [
      { title: "Opening Hours", body: "Mon–Sat 8:00–18:00, Sunday 10:00–16:00" },
      { title: "Visit Our Location", body: "12 Forge Lane, Brooklyn, NY 11201" },
      { title: "Contact Us Now", body: "+1 (555) 010-2024 · hello@toolyard.example" },
    ],
  },
  slides: [
    {
      title: "Tools that last a lifetime",
      body: "Forged hand tools for the bench and the building site.",
    },
    {
      title: "A lawn to be proud of",
      body: "Reel, rotary, cordless and ride-on mowers for every garden.",
    },
    {
      title: "Cut through the season",
      body: "Petrol and cordless chainsaws, sharpened and ready.",
    },
  ],
  reviews: {
    empty: "No reviews yet. Be the first to write one.",
    rating: (rating: number) => `Rated ${rating} out of 5`,
    verifiedBuyer: "Verified buyer",
  },
  states: {
    loading: "Loading…",
    error: "Something went wrong while loading. Please try again.",
    retry: "Try again",
    networkError: "We could not reach the store. Check your connection and try again.",
    checkingSession: "Checking your session…",
  },
  about: { heading: "About Us" },
  blogs: { heading: "Questions & Answers" },
  notFound: {
    heading: "Page not found",
    body: "The page you are looking for does not exist or has moved.",
    back: "Back to the home page",
    imageAlt: "A lost toolbox next to the number 404",
  },
  footer: {
    services: "Services",
    company: "Company",
    legal: "Legal",
    social: "Social",
    serviceLinks: [
      { label: "All tools", href: "/tools" },
      { label: "Lawn mowers", href: "/tools?category=lawn-mowers" },
      { label: "Power tools", href: "/tools?category=power-tools" },
      { label: "Chainsaws", href: "/tools?category=chainsaws" },
    ],
    companyLinks: [
      { label: "About us", href: "/about" },
      { label: "Blogs", href: "/blogs" },
      { label: "Contact", href: "mailto:hello@toolyard.example" },
    ],
    legalLinks: [
      { label: "Terms of use", href: "/legal#terms" },
      { label: "Privacy policy", href: "/legal#privacy" },
      { label: "Cookie policy", href: "/legal#cookies" },
    ],
    socialLinks: [
      { label: "Facebook", href: "https://www.facebook.com/" },
      { label: "Instagram", href: "https://www.instagram.com/" },
      { label: "YouTube", href: "https://www.youtube.com/" },
    ],
    copyright: (year: number) => `Copyright © ${year} Toolyard. All rights reserved.`,
  },
} as const;
