/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

export const PURCHASE_TEXT = {
  price: "Price",
  available: "Available quantity",
  minimum: "Minimum order quantity",
  quantity: "Order quantity",
  addLabel: "Amount to add",
  add: "Add",
  ordered: "Ordered",
  ordering: "Placing order…",
  notFound: "We could not find this tool. It may have been removed from the catalogue.",
  backToTools: "Browse all tools",
  exceedsStock: (available: number) => `Only ${available} in stock: the quantity cannot go higher.`,
  outOfStock: "This tool is out of stock.",
  deliveryTo: "Delivery to",
  noAddress: "No delivery address yet: add one in My Profile.",
  total: "Total",
} as const;

export const DASHBOARD_TEXT = {
  welcome: "Welcome To Your Dashboard",
  navLabel: "Dashboard",
  myOrders: "My Orders",
  addReview: "Add a Review",
  myProfile: "My Profile",
  orders: {
    empty: "You have no orders yet.",
    number: "Order",
    tool: "Tool",
    quantity: "Quantity",
    total: "Total",
    status: "Status",
    date: "Date",
    delete: "Delete",
    deleteLabel: (number: number) => `Delete order #${number}`,
    confirm: "Are You Sure ?",
    yes: "Yes, cancel it",
    no: "No",
    cancelled: "Order cancelled",
    noOpenOrders: "You have no open orders.",
    /** A multi-line order's tools: its first line, and how many more. */
    moreTools: (count: number) => `+ ${count} more`,
    details: "Details",
    detailsLabel: (number: number) => `Details of order #${number}`,
    cancelledSection: (count: number) => `Cancelled orders (${count})`,
    /** The toast after 'Ordered' or a checkout lands on My Orders. */
    placed: (number: number) => `Order #${number} placed`,
  },
  review: {
    name: "Name",
    rating: "Rating out of 5",
    description: "Description",
    submit: "Add Review",
    added: "Review Added",
  },
  profile: {
    displayName: "Name",
    email: "Email",
    address: "Address",
    phone: "Phone",
    save: "Save",
    saved: "Profile saved",
  },
} as const;
