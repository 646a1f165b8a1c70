/**
 * The pages a back-in-stock mail's links open (/stock-alerts/confirm and /stock-alerts/unsubscribe,
 * decision 0019): each says what the link is for and acts only when its button is pressed, so a
 * mail scanner that opens every link confirms and stops nothing. One chunk with routes of its own.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, Route, Routes, useSearchParams } from "react-router";
import type { StockAlertLink } from "../../../contract/stock-alert-schemas";
import { STOCK_ALERT_TEXT } from "../../../contract/texts/stock-alerts";
import { api } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { NotFound } from "../../components/ui/not-found";
import { Spinner } from "../../components/ui/states";

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex justify-center px-4 py-12">
      <PageTitle title={title} />
      <div className="card bg-base-100 border-base-300 w-full max-w-lg border shadow-sm">
        <div className="card-body gap-4">
          <h1 className="card-title text-2xl">{title}</h1>
          {children}
        </div>
      </div>
    </div>
  );
}

const Problem = ({ message }: { message: string }) => (
  <p role="alert" className="text-error" data-testid="stock-alert-error">
    {message}
  </p>
);

const ToolLink = ({ result }: { result: StockAlertLink }) => (
  <Link to={`/tools/${encodeURIComponent(result.toolId)}`} className="link link-primary">
    {STOCK_ALERT_TEXT.viewTool}
  </Link>
);

function ConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const confirm = useMutation({ mutationFn: () => api.post<StockAlertLink>("/api/stock-alerts/confirm", { token }) });
  const result = confirm.data;
  return (
    <Card title={STOCK_ALERT_TEXT.confirmTitle}>
      {!token ? (
        <Problem message={STOCK_ALERT_TEXT.missingToken} />
      ) : result ? (
        <>
          <p role="status" className="text-success font-medium" data-testid="stock-alert-result">
            {result.status === "ended"
              ? STOCK_ALERT_TEXT.alreadyEnded(result.toolName)
              : result.status === "sent"
                ? STOCK_ALERT_TEXT.alreadySent(result.toolName)
                : result.inStock
                  ? STOCK_ALERT_TEXT.confirmedInStock(result.toolName)
                  : STOCK_ALERT_TEXT.confirmed(result.toolName)}
          </p>
          <ToolLink result={result} />
        </>
      ) : (
        <>
          <p>{STOCK_ALERT_TEXT.confirmAsk}</p>
          <button type="button" className="btn btn-primary self-start" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
            {confirm.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {STOCK_ALERT_TEXT.confirmAction}
          </button>
          {confirm.error && <Problem message={confirm.error.message} />}
        </>
      )}
    </Card>
  );
}

function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const preview = useQuery({
    queryKey: ["stock-alert-link", token],
    queryFn: ({ signal }) => api.get<StockAlertLink>(`/api/stock-alerts/unsubscribe?token=${encodeURIComponent(token)}`, signal),
    enabled: token !== "",
    retry: false,
  });
  const stop = useMutation({ mutationFn: () => api.post<StockAlertLink>("/api/stock-alerts/unsubscribe", { token }) });
  const result = stop.data ?? preview.data;
  let body: ReactNode;
  if (!token) body = <Problem message={STOCK_ALERT_TEXT.missingToken} />;
  else if (preview.error) body = <Problem message={preview.error.message} />;
  else if (!result) body = <Spinner />;
  else if (stop.data) {
    body = (
      <p role="status" className="text-success font-medium" data-testid="stock-alert-result">
        {STOCK_ALERT_TEXT.unsubscribed(result.toolName)}
      </p>
    );
  } else if (result.status !== "subscribed") {
    body = <p data-testid="stock-alert-result">{result.status === "sent" ? STOCK_ALERT_TEXT.alreadySent(result.toolName) : STOCK_ALERT_TEXT.alreadyEnded(result.toolName)}</p>;
  } else {
    body = (
      <>
        <p>{STOCK_ALERT_TEXT.unsubscribeAsk(result.toolName)}</p>
        <button type="button" className="btn btn-primary self-start" disabled={stop.isPending} onClick={() => stop.mutate()}>
          {stop.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {STOCK_ALERT_TEXT.unsubscribeAction}
        </button>
        {stop.error && <Problem message={stop.error.message} />}
      </>
    );
  }
  return (
    <Card title={STOCK_ALERT_TEXT.unsubscribeTitle}>
      {body}
      {result && <ToolLink result={result} />}
    </Card>
  );
}

export default function StockAlertLinkPages() {
  return (
    <Routes>
      <Route path="confirm" element={<ConfirmPage />} />
      <Route path="unsubscribe" element={<UnsubscribePage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
