import { LEGAL_TEXT } from "../../../contract/texts/legal";
import { PageTitle } from "../../lib/page-title";

/** Terms, privacy and cookies; the footer links to each section (the layout scrolls to it). */
export default function LegalPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <PageTitle title={LEGAL_TEXT.heading} />
      <h1 className="text-4xl font-bold">{LEGAL_TEXT.heading}</h1>
      <p className="text-base-content/80 mt-2 text-sm">{LEGAL_TEXT.updated}</p>
      {LEGAL_TEXT.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="mt-10 scroll-mt-20">
          <h2 id={`${section.id}-heading`} className="mb-3 text-2xl font-semibold">
            {section.title}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 32)} className="text-base-content/90 mb-3 leading-relaxed">
              {paragraph}
            </p>
          ))}
        </section>
      ))}
    </div>
  );
}
