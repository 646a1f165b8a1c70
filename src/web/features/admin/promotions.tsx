/** The console's promotion codes: their limits, dates, categories and redemptions (issue 31). */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { CATEGORIES, CATEGORY_LABELS } from "../../../contract/constants";
import { promotionInputSchema, type Promotion } from "../../../contract/money-schemas";
import { formatDollars } from "../../../contract/money";
import { ADMIN_MONEY_TEXT } from "../../../contract/texts/admin";
import type { z } from "../../../contract/zod";
import { afterSave, errorAt, Field, FieldError, FormCard, numberOrNull, numberOrUndefined } from "./form-parts";
import { MoneyList, MoneyPageHeading, RowActions } from "./money-list";
import { promotionsQuery, useSavePromotion } from "./money-api";
import { when } from "./ui";

const text = ADMIN_MONEY_TEXT.promotions;
const commonText = ADMIN_MONEY_TEXT.common;

/** A `datetime-local` input's value for an ISO instant, in the owner's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** The instant a `datetime-local` value means, in the owner's time zone; empty → null. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  // Half-typed dates are passed on as they are, so the schema's "not a date" message shows.
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

export const discountOf = (p: Pick<Promotion, "kind" | "value">): string => (p.kind === "percent" ? text.percentOff(p.value) : text.amountOff(formatDollars(p.value)));

function datesOf(p: Promotion): string {
  if (!p.startsAt && !p.endsAt) return text.always;
  return [p.startsAt ? text.from(when(p.startsAt)) : "", p.endsAt ? text.until(when(p.endsAt)) : ""].filter(Boolean).join(" · ");
}

export default function PromotionsPage() {
  const promotions = useQuery(promotionsQuery());
  const [editing, setEditing] = useState<Promotion | "new" | null>(null);
  return (
    <div>
      <MoneyPageHeading title={ADMIN_MONEY_TEXT.sections.promotions} addLabel={text.add} onAdd={() => setEditing("new")} />
      {editing && <PromotionForm key={editing === "new" ? "new" : editing._id} promotion={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      <MoneyList query={promotions} label={ADMIN_MONEY_TEXT.sections.promotions} empty={text.empty} columns={text.columns}>
        {(p) => (
          <tr key={p._id} data-testid="promotion-row">
            <td className="font-mono">{p.code}</td>
            <td>{discountOf(p)}</td>
            <td>{formatDollars(p.minSubtotal)}</td>
            <td>{text.limits(p.usageLimit, p.perCustomerLimit)}</td>
            <td>{datesOf(p)}</td>
            <td>{p.categories.length === 0 ? text.allCategories : p.categories.map((c) => CATEGORY_LABELS[c]).join(", ")}</td>
            <td>{p.active ? commonText.yes : commonText.no}</td>
            <td>{text.redemptions(p.redemptions, p.usageLimit)}</td>
            <RowActions name={p.code} onEdit={() => setEditing(p)} />
          </tr>
        )}
      </MoneyList>
    </div>
  );
}

type FormIn = z.input<typeof promotionInputSchema>;
type FormOut = z.output<typeof promotionInputSchema>;

export function PromotionForm({ promotion, onDone }: { promotion: Promotion | null; onDone: () => void }) {
  const save = useSavePromotion();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(promotionInputSchema),
    defaultValues: promotion
      ? {
          code: promotion.code,
          kind: promotion.kind,
          value: promotion.value,
          minSubtotal: promotion.minSubtotal,
          startsAt: promotion.startsAt,
          endsAt: promotion.endsAt,
          usageLimit: promotion.usageLimit,
          perCustomerLimit: promotion.perCustomerLimit,
          categories: promotion.categories,
          active: promotion.active,
        }
      : { code: "", kind: "percent", minSubtotal: 0, startsAt: null, endsAt: null, usageLimit: null, perCustomerLimit: null, categories: [], active: true },
  });
  const { errors } = form.formState;
  const title = promotion ? text.editTitle(promotion.code) : text.newTitle;
  const onSubmit = form.handleSubmit((input) => save.mutate({ promotionId: promotion?._id ?? null, input }, afterSave(form.setError, promotion ? text.saved : text.created, onDone)));
  const dateField = (name: "startsAt" | "endsAt", label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Field label={label} error={errorAt(errors, name)}>
          <input
            type="datetime-local"
            className="input input-bordered"
            name={field.name}
            ref={field.ref}
            onBlur={field.onBlur}
            value={toLocalInput(field.value)}
            onChange={(e) => field.onChange(fromLocalInput(e.target.value))}
          />
        </Field>
      )}
    />
  );
  return (
    <FormCard title={title} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
        <Field label={text.code} error={errorAt(errors, "code")}>
          <input className="input input-bordered font-mono" autoCapitalize="characters" {...form.register("code")} />
        </Field>
        <Field label={text.kind} error={errorAt(errors, "kind")}>
          <select className="select select-bordered" {...form.register("kind")}>
            <option value="percent">{text.kinds.percent}</option>
            <option value="amount">{text.kinds.amount}</option>
          </select>
        </Field>
        <Field label={text.value} error={errorAt(errors, "value")}>
          <input type="number" step="0.01" min="0" className="input input-bordered" {...form.register("value", { setValueAs: numberOrUndefined })} />
        </Field>
        <Field label={text.minSubtotal} error={errorAt(errors, "minSubtotal")}>
          <input type="number" step="0.01" min="0" className="input input-bordered" {...form.register("minSubtotal", { setValueAs: (v: unknown) => numberOrUndefined(v) ?? 0 })} />
        </Field>
        {dateField("startsAt", text.startsAt)}
        {dateField("endsAt", text.endsAt)}
        <Field label={text.usageLimit} error={errorAt(errors, "usageLimit")}>
          <input type="number" step="1" min="1" className="input input-bordered" {...form.register("usageLimit", { setValueAs: numberOrNull })} />
        </Field>
        <Field label={text.perCustomerLimit} error={errorAt(errors, "perCustomerLimit")}>
          <input type="number" step="1" min="1" className="input input-bordered" {...form.register("perCustomerLimit", { setValueAs: numberOrNull })} />
        </Field>
        <fieldset className="md:col-span-2">
          <legend className="label-text mb-1">{text.categories}</legend>
          <div className="flex flex-wrap gap-4">
            {CATEGORIES.map((c) => (
              <label key={c} className="flex cursor-pointer items-center gap-2">
                <input type="checkbox" className="checkbox" value={c} {...form.register("categories")} />
                <span>{CATEGORY_LABELS[c]}</span>
              </label>
            ))}
          </div>
          <FieldError message={errorAt(errors, "categories")} />
        </fieldset>
        <label className="flex cursor-pointer items-center gap-2 md:col-span-2">
          <input type="checkbox" className="checkbox" {...form.register("active")} />
          <span>{text.activeLabel}</span>
        </label>
    </FormCard>
  );
}
