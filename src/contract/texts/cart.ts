/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */
/** 'Add to Cart' on the tool and purchase pages. */
export const ADD_TO_CART_TEXT = {
  add: "Add to Cart",
  adding: "Adding…",
  added: (name: string) => `${name} is in your cart.`,
  viewCart: "View cart",
  /** Under a disabled 'Add to Cart' in a browser that runs no JavaScript (the cart lives in the app). */
  needsScript: "Adding to the cart needs JavaScript. 'Book Now' works without it.",
} as const;

/** The cart page (`/cart`). */
export const CART_TEXT = {
  heading: "Your Cart",
  empty: "Your cart is empty.",
  browse: "Browse all tools",
  tool: "Tool",
  unitPrice: "Unit price",
  quantity: "Quantity",
  lineTotal: "Line total",
  total: "Total",
  quantityLabel: (name: string) => `Quantity of ${name}`,
  fewer: (name: string) => `One fewer ${name}`,
  more: (name: string) => `One more ${name}`,
  remove: "Remove",
  removeLabel: (name: string) => `Remove ${name} from the cart`,
  checkout: "Checkout",
  loginToCheckout: "Log in to check out",
  guestNote: "Your cart is kept in this browser. When you log in or sign up it joins your account's cart.",
  fixFirst: "Fix the lines marked above before you check out.",
  limits: (minimum: number, available: number) => `Minimum ${minimum} · ${available} in stock`,
  /** What is wrong with a line, and how to put it right. */
  problem: {
    BELOW_MINIMUM: (minimum: number) => `The minimum order for this tool is ${minimum}.`,
    NOT_ENOUGH_STOCK: (available: number) => `Only ${available} in stock.`,
    MINIMUM_ABOVE_STOCK: (minimum: number, available: number) =>
      `Only ${available} in stock, below the minimum order of ${minimum}: it cannot be ordered now. Remove it to check out.`,
    OUT_OF_STOCK: "This tool is out of stock. Remove it to check out.",
    UNAVAILABLE: "This tool is no longer sold. Remove it to check out.",
  },
  unknownTool: "A tool that is no longer sold",
  setTo: (quantity: number) => `Set quantity to ${quantity}`,
  /** The line could not be saved: the server's message follows. */
  notSaved: "The cart could not be updated.",
} as const;

/** The checkout page (`/checkout`). */
export const CHECKOUT_TEXT = {
  heading: "Checkout",
  delivery: "Delivery",
  address: "Address",
  phone: "Phone",
  saveToProfile: "Save to my profile",
  payment: "Payment",
  note: "Note for the store (optional)",
  summary: "Your order",
  total: "Total",
  editCart: "Edit cart",
  place: "Place order",
  placing: "Placing order…",
  empty: "Your cart is empty: there is nothing to check out.",
  browse: "Browse all tools",
  refused: "Nothing was ordered: some lines cannot be ordered as they are.",
  lineProblem: (name: string, why: string) => `${name}: ${why}`,
  backToCart: "Back to the cart",
} as const;

/** The confirmation after a checkout (`/checkout/confirmation/:id`). */
export const CONFIRMATION_TEXT = {
  heading: (number: number) => `Thank you! Order #${number} is placed.`,
  lead: "We have your order and will get it ready for delivery.",
  priceChanged: "Some prices changed since you looked: your order is at today's prices, as shown below.",
  cashOnDelivery: "Pay when the tools arrive, in cash or by card.",
  myOrders: "See my orders",
  details: "Order details",
  continueShopping: "Continue shopping",
} as const;
