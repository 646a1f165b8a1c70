import { Link } from "react-router";
import { CATEGORIES, CATEGORY_LABELS } from "../../../../contract/storefront";
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
