import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { toast } from "react-toastify";
import { RATING_MAX, RATING_MIN } from "../../../contract/constants";
import { reviewInputSchema, type ReviewInput } from "../../../contract/schemas";
import { DASHBOARD_TEXT } from "../../../contract/texts/shop";
import { useSession } from "../../lib/session";
import { useAddReview } from "../reviews";
import { PageTitle } from "../../lib/page-title";

const reviewText = DASHBOARD_TEXT.review;

export default function AddReview() {
  const { user } = useSession();
  const defaults = { name: user?.name ?? "", rating: RATING_MAX, description: "" };
  const form = useForm<z.input<typeof reviewInputSchema>, unknown, ReviewInput>({
    resolver: zodResolver(reviewInputSchema),
    defaultValues: defaults,
  });
  const { errors } = form.formState;

  const mutation = useAddReview({
    onSuccess: () => {
      toast.success(reviewText.added);
      form.reset(defaults);
    },
    onError: (error) => toast.error(error.message),
  });

  return (
    <div className="max-w-xl">
      <PageTitle title={DASHBOARD_TEXT.addReview} />
      <h2 className="mb-4 text-2xl font-semibold">{DASHBOARD_TEXT.addReview}</h2>
      <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="flex flex-col gap-4">
        <label className="block">
          <span className="mb-1 block text-sm font-medium">{reviewText.name}</span>
          <input type="text" className="input input-bordered w-full" aria-invalid={Boolean(errors.name)} {...form.register("name")} />
          {errors.name && (
            <span role="alert" className="text-error mt-1 block text-sm">
              {errors.name.message}
            </span>
          )}
        </label>
        <label className="block">
          <span className="mb-1 block text-sm font-medium">{reviewText.rating}</span>
          <input
            type="number"
            min={RATING_MIN}
            max={RATING_MAX}
            step={1}
            className="input input-bordered w-32"
            aria-invalid={Boolean(errors.rating)}
            {...form.register("rating")}
          />
          {errors.rating && (
            <span role="alert" className="text-error mt-1 block text-sm">
              {errors.rating.message}
            </span>
          )}
        </label>
        <label className="block">
          <span className="mb-1 block text-sm font-medium">{reviewText.description}</span>
          <textarea rows={4} className="textarea textarea-bordered w-full" aria-invalid={Boolean(errors.description)} {...form.register("description")} />
          {errors.description && (
            <span role="alert" className="text-error mt-1 block text-sm">
              {errors.description.message}
            </span>
          )}
        </label>
        <button type="submit" className="btn btn-primary self-start" disabled={mutation.isPending}>
          {mutation.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {reviewText.submit}
        </button>
      </form>
    </div>
  );
}
