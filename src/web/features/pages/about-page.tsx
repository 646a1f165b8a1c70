import { PAGES_TEXT } from "../../../contract/texts/pages";
import { PageTitle } from "../../lib/page-title";

export default function AboutPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <PageTitle title={PAGES_TEXT.about.heading} />
      <h1 className="text-4xl font-bold">{PAGES_TEXT.about.heading}</h1>
    </div>
  );
}
