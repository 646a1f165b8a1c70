/**
 * The home page below its first screen: the info strip, the reviews, 'Special Looks' and the statistics.
 * A chunk of its own (home-page.tsx loads it lazily): the server's HTML shows these at once,
 * and the browser takes them over when the chunk arrives, so their code is not part of the
 * home page's first download.
 */
import { useQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useNavigate } from "react-router";
import { HOME_PHONE_REVIEWS, HOME_REVIEWS_COUNT, STATISTICS } from "../../../../contract/constants";
import { HOME_BELOW_FOLD_TEXT, STORE_INFO } from "../../../../contract/texts/home";
import { REVIEW_TEXT } from "../../../../contract/texts/reviews";
import { QueryView } from "../../../components/ui/states";
import { HydrationPart, PHONE_HIDDEN } from "../../../lib/responsive";
import { ReviewCard, reviewsQuery } from "../../reviews";
import { Section } from "./sections";

/** 'Reviews Here': the newest reviews (a phone shows the first three). */
export function Reviews() {
  const reviews = useQuery(reviewsQuery(HOME_REVIEWS_COUNT));
  return (
    <Section title={HOME_BELOW_FOLD_TEXT.reviews} id="reviews-heading">
      <QueryView query={reviews} isEmpty={(d) => d.items.length === 0} empty={REVIEW_TEXT.empty}>
        {(data) => (
          <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="review-grid">
            {data.items.map((review, i) => (
              <HydrationPart key={review._id}>
                <ReviewCard review={review} className={i >= HOME_PHONE_REVIEWS ? PHONE_HIDDEN : ""} />
              </HydrationPart>
            ))}
          </div>
        )}
      </QueryView>
    </Section>
  );
}

/** Inline icons: emoji fonts are not installed everywhere (they render as boxes on Debian). */
const INFO_ICONS = [
  "M12 6v6l4 2m6-2a10 10 0 1 1-20 0 10 10 0 0 1 20 0z",
  "M12 21s-7-6.2-7-11a7 7 0 1 1 14 0c0 4.8-7 11-7 11zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z",
  "M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z",
];

export function InfoStrip() {
  return (
    <section aria-label={HOME_BELOW_FOLD_TEXT.infoStripLabel} className="mx-auto max-w-7xl px-4 py-8">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {STORE_INFO.map((card, i) => (
          <div
            key={card.title}
            className={`card ${i === 1 ? "bg-secondary text-secondary-content" : "bg-primary text-primary-content"}`}
            data-testid="info-card"
          >
            <div className="card-body flex-row items-center gap-4">
              <svg viewBox="0 0 24 24" className="h-10 w-10 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
                <path strokeLinecap="round" strokeLinejoin="round" d={INFO_ICONS[i]} />
              </svg>
              <div>
                <h3 className="card-title">{card.title}</h3>
                <p>{card.body}</p>
              </div>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

export function SpecialLooks() {
  return (
    <Section title={HOME_BELOW_FOLD_TEXT.specialLooks} id="special-looks-heading">
      <div className="grid items-center gap-8 md:grid-cols-2">
        <img src="/images/special-looks.svg" alt={HOME_BELOW_FOLD_TEXT.specialLooksImage} width={800} height={600} loading="lazy" className="rounded-box w-full" />
        <div>
          <p className="mb-4 text-lg">{HOME_BELOW_FOLD_TEXT.specialLooksLead}</p>
          <ul className="list-inside list-disc space-y-2">
            {HOME_BELOW_FOLD_TEXT.specialLooksPoints.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </div>
      </div>
    </Section>
  );
}

const CONTACT_MAIL = `mailto:hello@toolyard.example?subject=${encodeURIComponent("Contact")}`;

/** Static figures from the spec; 'Request For Quote' leads to the request form, 'Contact US' opens an e-mail to the shop. */
export function Statistics() {
  const navigate = useNavigate();
  const requestQuote = (event: FormEvent) => {
    event.preventDefault();
    void navigate("/dashboard/quotes/new");
  };
  return (
    <section aria-labelledby="stats-heading" className="bg-base-200 py-12">
      <div className="mx-auto max-w-7xl px-4 text-center">
        <h2 id="stats-heading" className="text-3xl font-bold">
          {HOME_BELOW_FOLD_TEXT.statsHeading}
        </h2>
        <p className="text-base-content/80 mb-8">{HOME_BELOW_FOLD_TEXT.statsLead}</p>
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="statistics">
          {STATISTICS.map((stat) => (
            // Reads as the spec writes it ("72 countries"); the label is capitalised by CSS only.
            <li key={stat.label} className="bg-base-100 rounded-box p-6" data-testid="statistic">
              <span className="text-primary block text-4xl font-extrabold">{stat.value}</span>{" "}
              <span className="text-base-content/80 block capitalize">{stat.label}</span>
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap justify-center gap-4">
          {/* The spec's button, in its words, leads to the request form (signed in; a visitor signs in first and comes back).
              A GET form, so it works before the app has taken the page over too. */}
          <form method="get" action="/dashboard/quotes/new" onSubmit={requestQuote}>
            <button type="submit" className="btn btn-primary">
              {HOME_BELOW_FOLD_TEXT.requestQuote}
            </button>
          </form>
          {/* An e-mail link that presents as the spec's button: it works before (and without) the app's code. */}
          <a href={CONTACT_MAIL} role="button" className="btn btn-outline">
            {HOME_BELOW_FOLD_TEXT.contactUs}
          </a>
        </div>
      </div>
    </section>
  );
}
