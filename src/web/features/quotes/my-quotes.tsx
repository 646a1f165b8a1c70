/** My Quotes (/dashboard/quotes): the customer's quotes, newest first, each with its state and latest total. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatDollars } from "../../../contract/money";
import { QUOTE_STATUS_TEXT, QUOTE_TEXT } from "../../../contract/texts/quotes";
import { QueryView } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { quotesQuery } from "./api";

export const quoteDate = (iso: string) => new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" });

export default function MyQuotes() {
  const quotes = useQuery(quotesQuery());
  return (
    <div>
      <PageTitle title={QUOTE_TEXT.heading} />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-2xl font-semibold">{QUOTE_TEXT.heading}</h2>
        <Link to="/dashboard/quotes/new" className="btn btn-primary btn-sm">
          {QUOTE_TEXT.newRequest}
        </Link>
      </div>
      <QueryView query={quotes} isEmpty={(list) => list.length === 0} empty={QUOTE_TEXT.empty}>
        {(list) => (
          <table className="table" data-testid="my-quotes">
            <thead className="text-base-content">
              <tr>
                <th scope="col">{QUOTE_TEXT.number}</th>
                <th scope="col">{QUOTE_TEXT.requestedOn}</th>
                <th scope="col">{QUOTE_TEXT.status}</th>
                <th scope="col">{QUOTE_TEXT.total}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((q) => {
                const latest = q.revisions.at(-1);
                return (
                  <tr key={q._id} data-testid="quote-row">
                    <td>
                      <Link to={`/dashboard/quotes/${encodeURIComponent(q._id)}`} className="link link-primary font-medium">
                        {q.number}
                      </Link>
                    </td>
                    <td>{quoteDate(q.createdAt)}</td>
                    <td>
                      <span className="badge badge-outline text-base-content">{QUOTE_STATUS_TEXT[q.status]}</span>
                    </td>
                    <td>{latest ? formatDollars(latest.total) : "–"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </QueryView>
    </div>
  );
}
