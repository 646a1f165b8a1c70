/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** Site-wide: navigation, the home page's first screen, catalogue, states. (The footer and the home page below its first screen have files of their own: footer.ts, home.ts.) */
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
    previousSlide: "Previous slide",
    nextSlide: "Next slide",
  },
  /** A tool card's rating line (issue 42): here, not in reviews.ts, which the home page's first screen does not need. */
  card: {
    rating: (average: number, count: number) => `Rated ${average.toFixed(1)} out of 5, ${count} ${count === 1 ? "review" : "reviews"}`,
    noRatingYet: "No reviews yet",
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
  states: {
    loading: "Loading…",
    error: "Something went wrong while loading. Please try again.",
    retry: "Try again",
    networkError: "We could not reach the store. Check your connection and try again.",
    checkingSession: "Checking your session…",
  },
  /** The error boundary's and the 404 page's way out. */
  backHome: "Back to the home page",
} as const;
