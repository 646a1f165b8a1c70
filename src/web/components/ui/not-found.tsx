import type { ReactNode } from "react";
import { Link } from "react-router";
import { PAGES_TEXT } from "../../../contract/texts/pages";
import { TEXT } from "../../../contract/texts/site";
import { PageTitle, usePageHead } from "../../lib/page-title";

/**
 * The 404 page's content: an unknown path, or a tool the catalogue does not have (status 404
 * on the server); `children` say what exactly is missing and where to go instead.
 */
export function NotFound({ children }: { children?: ReactNode }) {
  usePageHead({ status: 404 });
  return (
    <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center">
      <PageTitle title={PAGES_TEXT.notFound.heading} />
      <img src="/images/not-found.svg" alt={PAGES_TEXT.notFound.imageAlt} width={600} height={400} className="w-full max-w-lg" />
      <h1 className="mt-6 text-3xl font-bold">{PAGES_TEXT.notFound.heading}</h1>
      <p className="text-base-content/80 mt-2">{PAGES_TEXT.notFound.body}</p>
      {children}
      <Link to="/" className="btn btn-primary mt-6">
        {TEXT.backHome}
      </Link>
    </div>
  );
}
