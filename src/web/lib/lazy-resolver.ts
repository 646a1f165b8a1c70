/**
 * A react-hook-form resolver that loads its schema on the form's first validation (a submit, in
 * the default mode), not with the page: a zod schema's module evaluates zod and its schemas when it
 * is imported, main-thread work a page that merely shows the form (the tool page) need not do
 * before it answers. A load that fails is tried again at the next validation.
 */
import type { FieldValues, Resolver } from "react-hook-form";

export function lazyResolver<TInput extends FieldValues, TContext, TOutput extends FieldValues>(
  load: () => Promise<Resolver<TInput, TContext, TOutput>>,
): Resolver<TInput, TContext, TOutput> {
  let loading: Promise<Resolver<TInput, TContext, TOutput>> | undefined;
  return async (values, context, options) => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return (await loading)(values, context, options);
  };
}
