import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import type { z } from "zod";
import { RATING_MAX, RATING_MIN } from "../../../../contract/constants";
import type { toolReviewInputSchema } from "../../../../contract/review-schemas";
import type { Tool } from "../../../../contract/schemas";
import { TOOL_REVIEW_TEXT } from "../../../../contract/texts/tool-reviews";
import { useHydrated } from "../../../lib/hydrated";
import { lazyResolver } from "../../../lib/lazy-resolver";
import { useSession } from "../../../lib/session";
import { usePostToolReview, useReviewEligibility } from "../tool-review-mutations";

type FormInput = z.input<typeof toolReviewInputSchema>;
type FormOutput = z.output<typeof toolReviewInputSchema>;
/** The schema (and zod) load at the first submit, not with the tool page (lib/lazy-resolver.ts). */
const resolver = lazyResolver(() => import("../../../../contract/review-schemas").then(({ toolReviewInputSchema }) => zodResolver(toolReviewInputSchema)));

const RATINGS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MAX - i);

/** The review form of a tool the customer received (the server checks it again: 403 NOT_A_BUYER, 409 ALREADY_REVIEWED). */
export function ToolReviewForm({ tool, onPosted }: { tool: Pick<Tool, "_id" | "name">; onPosted?: () => void }) {
  const form = useForm<FormInput, unknown, FormOutput>({ resolver, defaultValues: { title: "", body: "" } });
  const { errors } = form.formState;
  const [problem, setProblem] = useState<string | null>(null);
  const [posted, setPosted] = useState(false);
  const mutation = usePostToolReview(tool._id, {
    onSuccess: () => {
      setPosted(true);
      form.reset();
      onPosted?.();
    },
    onError: (error) => setProblem(error.message),
  });
  if (posted) {
    return (
      <p role="status" className="text-success font-medium" data-testid="review-posted">
        {TOOL_REVIEW_TEXT.posted}
      </p>
    );
  }
  return (
    <form
      noValidate
      aria-label={TOOL_REVIEW_TEXT.writeFor(tool.name)}
      onSubmit={form.handleSubmit((values) => {
        setProblem(null);
        mutation.mutate(values);
      })}
      className="flex max-w-xl flex-col gap-4"
    >
      <fieldset>
        <legend className="mb-1 text-sm font-medium">{TOOL_REVIEW_TEXT.ratingLabel}</legend>
        <div className="flex flex-wrap gap-4">
          {RATINGS.map((rating) => (
            <label key={rating} className="flex items-center gap-2">
              <input type="radio" className="radio radio-sm" value={rating} aria-invalid={Boolean(errors.rating)} {...form.register("rating")} />
              {TOOL_REVIEW_TEXT.starsRow(rating)}
            </label>
          ))}
        </div>
        {errors.rating && (
          <span role="alert" className="text-error mt-1 block text-sm">
            {errors.rating.message}
          </span>
        )}
      </fieldset>
      <label className="block">
        <span className="mb-1 block text-sm font-medium">{TOOL_REVIEW_TEXT.titleLabel}</span>
        <input type="text" className="input input-bordered w-full" aria-invalid={Boolean(errors.title)} {...form.register("title")} />
        {errors.title && (
          <span role="alert" className="text-error mt-1 block text-sm">
            {errors.title.message}
          </span>
        )}
      </label>
      <label className="block">
        <span className="mb-1 block text-sm font-medium">{TOOL_REVIEW_TEXT.bodyLabel}</span>
        <textarea rows={4} className="textarea textarea-bordered w-full" aria-invalid={Boolean(errors.body)} {...form.register("body")} />
        {errors.body && (
          <span role="alert" className="text-error mt-1 block text-sm">
            {errors.body.message}
          </span>
        )}
      </label>
      {problem && (
        <p role="alert" className="text-error text-sm">
          {problem}
        </p>
      )}
      <button type="submit" className="btn btn-primary self-start" disabled={mutation.isPending}>
        {mutation.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {TOOL_REVIEW_TEXT.submit}
      </button>
    </form>
  );
}

/**
 * The tool page's 'Write a review': a visitor (and the page before the app runs) gets a link to
 * log in; a customer who received the tool gets the form; others are told why not.
 */
export function WriteReview({ tool }: { tool: Tool }) {
  const hydrated = useHydrated();
  const { user } = useSession();
  const eligibility = useReviewEligibility(tool._id, hydrated && user !== null);
  let content;
  if (!hydrated || !user) {
    content = (
      <Link to="/login" className="link link-primary">
        {TOOL_REVIEW_TEXT.signInToReview}
      </Link>
    );
  } else if (!eligibility.data) {
    content = null;
  } else if (eligibility.data.canReview) {
    content = <ToolReviewForm tool={tool} />;
  } else {
    content = <p data-testid="review-not-allowed">{eligibility.data.reason === "ALREADY_REVIEWED" ? TOOL_REVIEW_TEXT.alreadyReviewed : TOOL_REVIEW_TEXT.notABuyer}</p>;
  }
  return (
    <div id="write-review" className="mt-8">
      <h3 className="mb-3 text-xl font-semibold">{TOOL_REVIEW_TEXT.write}</h3>
      {content}
    </div>
  );
}
