/**
 * 'Email me when it is back' on a sold-out tool's page (issue 42, decision 0019). Signed in: one
 * click subscribes the account's own address, and the button then says so (and can stop it).
 * Otherwise: an e-mail address, which gets a confirmation link. In the tool page's chunk only: the
 * home page never downloads it. Before the app runs the form is shown with its button disabled.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import type { Tool } from "../../../../contract/schemas";
import type { StockAlert, stockAlertRequestSchema } from "../../../../contract/stock-alert-schemas";
import { STOCK_ALERT_TEXT } from "../../../../contract/texts/stock-alerts";
import { api, ApiRequestError } from "../../../lib/api";
import { useHydrated } from "../../../lib/hydrated";
import { lazyResolver } from "../../../lib/lazy-resolver";
import { PERSONAL_KEY, useSession } from "../../../lib/session";

type FormInput = z.input<typeof stockAlertRequestSchema>;
type FormOutput = z.output<typeof stockAlertRequestSchema>;
/** The schema (and zod, and schemas.ts's e-mail rule) load at the first submit, not with the tool page (lib/lazy-resolver.ts). */
const resolver = lazyResolver(() => import("../../../../contract/stock-alert-schemas").then(({ stockAlertRequestSchema }) => zodResolver(stockAlertRequestSchema)));

const ownKey = (toolId: string) => [PERSONAL_KEY, "stock-alert", toolId] as const;
const ownPath = (toolId: string) => `/api/me/stock-alerts/${encodeURIComponent(toolId)}`;

function OwnAlert({ tool }: { tool: Tool }) {
  const queryClient = useQueryClient();
  const own = useQuery({ queryKey: ownKey(tool._id), queryFn: ({ signal }) => api.get<StockAlert>(ownPath(tool._id), signal) });
  const [problem, setProblem] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (subscribe: boolean) => (subscribe ? api.put<StockAlert>(ownPath(tool._id), {}) : api.delete<StockAlert>(ownPath(tool._id))),
    onMutate: () => setProblem(null),
    onSuccess: (alert) => queryClient.setQueryData(ownKey(tool._id), alert),
    onError: (error) => setProblem(error.message),
  });
  const subscribed = own.data?.status === "subscribed";
  return (
    <div className="flex flex-col items-start gap-2">
      {subscribed ? (
        <>
          <p role="status" className="text-success font-medium" data-testid="stock-alert-state">
            {STOCK_ALERT_TEXT.subscribed}
          </p>
          <button type="button" className="btn btn-sm btn-ghost" disabled={change.isPending} onClick={() => change.mutate(false)}>
            {STOCK_ALERT_TEXT.stop}
          </button>
        </>
      ) : (
        <button type="button" className="btn btn-secondary" disabled={!own.data || change.isPending} onClick={() => change.mutate(true)}>
          {change.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {STOCK_ALERT_TEXT.subscribe}
        </button>
      )}
      {problem && (
        <p role="alert" className="text-error text-sm">
          {problem}
        </p>
      )}
    </div>
  );
}

function EmailAlertForm({ tool, hydrated }: { tool: Tool; hydrated: boolean }) {
  const form = useForm<FormInput, unknown, FormOutput>({ resolver, defaultValues: { email: "" } });
  const { errors } = form.formState;
  const [problem, setProblem] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: ({ email }: FormOutput) => api.post<StockAlert>(`/api/tool/${encodeURIComponent(tool._id)}/stock-alerts`, { email }),
    onSuccess: (_alert, { email }) => setSentTo(email),
    onError: (error) => {
      const field = error instanceof ApiRequestError ? error.body.details?.find((d) => d.path === "body.email") : undefined;
      if (field) form.setError("email", { message: field.message });
      else setProblem(error.message);
    },
  });
  if (sentTo) {
    return (
      <p role="status" className="text-success font-medium" data-testid="stock-alert-state">
        {STOCK_ALERT_TEXT.confirmationSent(sentTo)}
      </p>
    );
  }
  return (
    <form
      noValidate
      aria-label={STOCK_ALERT_TEXT.heading}
      className="flex flex-wrap items-end gap-2"
      onSubmit={form.handleSubmit((values) => {
        setProblem(null);
        request.mutate(values);
      })}
    >
      <label className="flex min-w-0 grow flex-col gap-1">
        <span className="text-sm font-medium">{STOCK_ALERT_TEXT.emailLabel}</span>
        <input type="email" autoComplete="email" className="input input-bordered w-full" aria-invalid={Boolean(errors.email)} {...form.register("email")} />
      </label>
      <button type="submit" className="btn btn-secondary" disabled={!hydrated || request.isPending}>
        {request.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {STOCK_ALERT_TEXT.send}
      </button>
      {errors.email && (
        <span role="alert" className="text-error basis-full text-sm">
          {errors.email.message}
        </span>
      )}
      {problem && (
        <p role="alert" className="text-error basis-full text-sm">
          {problem}
        </p>
      )}
      <noscript>
        <p className="text-sm">{STOCK_ALERT_TEXT.needsJavaScript}</p>
      </noscript>
    </form>
  );
}

export function StockAlertOffer({ tool }: { tool: Tool }) {
  const hydrated = useHydrated();
  const { user } = useSession();
  return (
    <div className="border-base-300 rounded-box flex flex-col gap-3 border p-4" data-testid="stock-alert">
      <p>{STOCK_ALERT_TEXT.intro}</p>
      {hydrated && user ? <OwnAlert tool={tool} /> : <EmailAlertForm tool={tool} hydrated={hydrated} />}
    </div>
  );
}
