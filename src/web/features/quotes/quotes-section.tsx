/**
 * My Quotes (/dashboard/quotes/*): the list, the request form (`new`) and a quote's page, one
 * chunk with routes of its own, as the admin console is: one entry in the app's route table, so
 * the home page's download (its 100 KB budget, bench:page) grows by one route, not three.
 */
import { Route, Routes } from "react-router";
import MyQuotes from "./my-quotes";
import QuotePage from "./quote-page";
import RequestQuotePage from "./request-page";

export default function QuotesSection() {
  return (
    <Routes>
      <Route index element={<MyQuotes />} />
      <Route path="new" element={<RequestQuotePage />} />
      <Route path=":id" element={<QuotePage />} />
    </Routes>
  );
}
