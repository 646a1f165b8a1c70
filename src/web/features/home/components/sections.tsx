import { Link } from "react-router";
import { CATEGORIES, CATEGORY_LABELS, STATISTICS } from "../../../../contract/constants";
import { TEXT } from "../../../../contract/texts/site";

export function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mx-auto max-w-7xl px-4 py-12">
      <h2 id={id} className="mb-8 text-center text-3xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The four category cards, laid out in 4 columns at every width (spec §2). */
export function Categories() {
  return (
    <Section title={TEXT.home.welcome} id="welcome-heading">
      <p className="text-base-content/80 mx-auto -mt-4 mb-8 max-w-2xl text-center">{TEXT.home.welcomeLead}</p>
      <div className="grid grid-cols-4 gap-2 md:gap-6" data-testid="category-grid">
        {CATEGORIES.map((category) => (
          <Link
            key={category}
            to={`/tools?category=${category}`}
            className="card bg-base-100 border-base-300 border text-center transition hover:-translate-y-1 hover:shadow-md"
            data-testid="category-card"
          >
            <figure className="bg-base-200">
              <img src={`/images/categories/${category}.svg`} alt="" width={400} height={300} className="w-full" />
            </figure>
            <div className="p-2 text-xs font-semibold md:p-4 md:text-lg">{CATEGORY_LABELS[category]}</div>
          </Link>
        ))}
      </div>
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
    <section aria-label={TEXT.a11y.infoStrip} className="mx-auto max-w-7xl px-4 py-8">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {TEXT.home.info.map((card, i) => (
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
    <Section title={TEXT.home.specialLooks} id="special-looks-heading">
      <div className="grid items-center gap-8 md:grid-cols-2">
        <img src="/images/special-looks.svg" alt={TEXT.a11y.specialLooksImage} width={800} height={600} loading="lazy" className="rounded-box w-full" />
        <div>
          <p className="mb-4 text-lg">{TEXT.home.specialLooksLead}</p>
          <ul className="list-inside list-disc space-y-2">
            {TEXT.home.specialLooksPoints.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </div>
      </div>
    </Section>
  );
}

/** Static figures from the spec; the buttons open an e-mail to the shop. */
export function Statistics() {
  const mail = (subject: string) => () => {
    window.location.href = `mailto:hello@toolyard.example?subject=${encodeURIComponent(subject)}`;
  };
  return (
    <section aria-labelledby="stats-heading" className="bg-base-200 py-12">
      <div className="mx-auto max-w-7xl px-4 text-center">
        <h2 id="stats-heading" className="text-3xl font-bold">
          {TEXT.home.statsHeading}
        </h2>
        <p className="text-base-content/80 mb-8">{TEXT.home.statsLead}</p>
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
          <button type="button" className="btn btn-primary" onClick={mail("Request for quote")}>
            {TEXT.home.requestQuote}
          </button>
          <button type="button" className="btn btn-outline" onClick={mail("Contact")}>
            {TEXT.home.contactUs}
          </button>
        </div>
      </div>
    </section>
  );
}
