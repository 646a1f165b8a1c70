import { Link } from "react-router";
import { FOOTER_TEXT } from "../../contract/texts/footer";

const COLUMNS = [
  { title: FOOTER_TEXT.services, links: FOOTER_TEXT.serviceLinks },
  { title: FOOTER_TEXT.company, links: FOOTER_TEXT.companyLinks },
  { title: FOOTER_TEXT.legal, links: FOOTER_TEXT.legalLinks },
  { title: FOOTER_TEXT.social, links: FOOTER_TEXT.socialLinks },
];

export function Footer({ year = new Date().getFullYear() }: { year?: number }) {
  return (
    <footer className="bg-neutral text-neutral-content mt-12">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-10 md:grid-cols-4">
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title} className="flex flex-col gap-2">
            <h2 className="footer-title text-neutral-content opacity-100">{column.title}</h2>
            {column.links.map(({ label, href }) =>
              href.startsWith("/") ? (
                <Link key={label} to={href} className="link link-hover">
                  {label}
                </Link>
              ) : (
                <a key={label} href={href} className="link link-hover" rel="noopener noreferrer">
                  {label}
                </a>
              ),
            )}
          </nav>
        ))}
      </div>
      <p className="border-neutral-content/20 border-t py-4 text-center text-sm" data-testid="copyright">
        {FOOTER_TEXT.copyright(year)}
      </p>
    </footer>
  );
}
