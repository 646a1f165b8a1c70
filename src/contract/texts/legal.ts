/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** The /legal page: terms of use, privacy and cookies, as the footer's Legal column links them. */
export const LEGAL_TEXT = {
  heading: "Legal",
  updated: "Last updated 1 November 2026",
  sections: [
    {
      id: "terms",
      title: "Terms of use",
      paragraphs: [
        "Toolyard sells hand tools, lawn mowers, power tools and chainsaws to customers who hold an account with us. By placing an order you confirm that the details you give us are true and that you are old enough to buy the tool you order.",
        "An order is a request to buy: it is accepted once it shows as pending in My Orders, and the stock is reserved for you from that moment. You may cancel a pending order from My Orders at any time before it ships; the stock is returned and you pay nothing.",
        "Prices are in US dollars and include the price at the moment you ordered, which does not change afterwards. Power tools and chainsaws must be used as their manuals describe; we are not liable for harm caused by misuse.",
      ],
    },
    {
      id: "privacy",
      title: "Privacy policy",
      paragraphs: [
        "We keep what we need to run your account and deliver your orders: your name, e-mail address, delivery address and phone number, and the orders and reviews you place. If you sign in with Google we receive your name and e-mail address from Google, nothing else.",
        "We never sell your data. Your delivery details are used only to deliver your orders. Reviews you write are shown publicly with the name you give in the review form.",
        "You may ask us at hello@toolyard.example to see, correct or delete your data at any time.",
      ],
    },
    {
      id: "cookies",
      title: "Cookie policy",
      paragraphs: [
        "We use only the cookies that signing in needs: the session cookie that keeps you signed in, and during a Google sign-in a short-lived one that ties the round trip together. They cannot be read by scripts on the page and are sent only to Toolyard; the session ends when you sign out or after two weeks.",
        "We use no advertising or tracking cookies, and no third-party analytics.",
      ],
    },
  ],
} as const;
