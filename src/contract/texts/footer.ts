/** The footer's words, on every page. Apart from site.ts: the footer is a chunk of its own (app/layout.tsx), off a page's first download. */
export const FOOTER_TEXT = {
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
} as const;
