/**
 * What a back-in-stock mail's link opens (decision 0019): the tool's own page with
 * `?stockAlert=confirm|unsubscribe&token=`, and on it this panel, which says what the link is for
 * and acts only when its button is pressed, so a mail scanner that opens every link confirms and
 * stops nothing. In the tool page's chunk: the home page's download carries no route for it.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { StockAlertLink, StockAlertLinkKind } from "../../../../contract/stock-alert-schemas";
import { STOCK_ALERT_TEXT } from "../../../../contract/texts/stock-alerts";
import { api } from "../../../lib/api";
import { useHydrated } from "../../../lib/hydrated";

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="stock-alert-link-heading" className="mx-auto max-w-6xl px-4 pt-8" data-testid="stock-alert-link">
      <div className="alert alert-info alert-soft flex flex-col items-start gap-3">
        <h2 id="stock-alert-link-heading" className="text-xl font-semibold">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

const Problem = ({ message }: { message: string }) => (
  <p role="alert" className="text-error font-medium" data-testid="stock-alert-error">
    {message}
  </p>
);

const Done = ({ children }: { children: ReactNode }) => (
  <p role="status" className="font-medium" data-testid="stock-alert-result">
    {children}
  </p>
);

function over(result: StockAlertLink): string {
  return result.status === "sent" ? STOCK_ALERT_TEXT.alreadySent(result.toolName) : STOCK_ALERT_TEXT.alreadyEnded(result.toolName);
}

function Confirm({ token }: { token: string }) {
  const hydrated = useHydrated();
  const confirm = useMutation({ mutationFn: () => api.post<StockAlertLink>("/api/stock-alerts/confirm", { token }) });
  const result = confirm.data;
  let body: ReactNode;
  if (result) {
    body = (
      <Done>
        {result.status !== "subscribed" ? over(result) : result.inStock ? STOCK_ALERT_TEXT.confirmedInStock(result.toolName) : STOCK_ALERT_TEXT.confirmed(result.toolName)}
      </Done>
    );
  } else {
    body = (
      <>
        <p>{STOCK_ALERT_TEXT.confirmAsk}</p>
        <button type="button" className="btn btn-primary" disabled={!hydrated || confirm.isPending} onClick={() => confirm.mutate()}>
          {confirm.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {STOCK_ALERT_TEXT.confirmAction}
        </button>
        {confirm.error && <Problem message={confirm.error.message} />}
      </>
    );
  }
  return <Panel title={STOCK_ALERT_TEXT.confirmTitle}>{body}</Panel>;
}

function Unsubscribe({ token }: { token: string }) {
  const hydrated = useHydrated();
  const preview = useQuery({
    queryKey: ["stock-alert-link", token],
    queryFn: ({ signal }) => api.get<StockAlertLink>(`/api/stock-alerts/unsubscribe?token=${encodeURIComponent(token)}`, signal),
    enabled: hydrated,
    retry: false,
  });
  const stop = useMutation({ mutationFn: () => api.post<StockAlertLink>("/api/stock-alerts/unsubscribe", { token }) });
  let body: ReactNode;
  if (stop.data) body = <Done>{STOCK_ALERT_TEXT.unsubscribed(stop.data.toolName)}</Done>;
  else if (preview.error) body = <Problem message={preview.error.message} />;
  else if (!preview.data) body = <span className="loading loading-spinner loading-sm" aria-hidden="true" />;
  else if (preview.data.status !== "subscribed") body = <Done>{over(preview.data)}</Done>;
  else {
    body = (
      <>
        <p>{STOCK_ALERT_TEXT.unsubscribeAsk(preview.data.toolName)}</p>
        <button type="button" className="btn btn-primary" disabled={stop.isPending} onClick={() => stop.mutate()}>
          {stop.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {STOCK_ALERT_TEXT.unsubscribeAction}
        </button>
        {stop.error && <Problem message={stop.error.message} />}
      </>
    );
  }
  return <Panel title={STOCK_ALERT_TEXT.unsubscribeTitle}>{body}</Panel>;
}

/** The panel for a link of `kind` (none for another value); a link without its token says so. */
export function StockAlertLinkPanel({ kind, token }: { kind: string | null; token: string }) {
  if (kind !== "confirm" && kind !== "unsubscribe") return null;
  const known: StockAlertLinkKind = kind;
  if (!token) {
    return (
      <Panel title={known === "confirm" ? STOCK_ALERT_TEXT.confirmTitle : STOCK_ALERT_TEXT.unsubscribeTitle}>
        <Problem message={STOCK_ALERT_TEXT.missingToken} />
      </Panel>
    );
  }
  return known === "confirm" ? <Confirm token={token} /> : <Unsubscribe token={token} />;
}
