import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import type { Tool } from "../../../../contract/schemas";
import { TOOL_TEXT } from "../../../../contract/texts/tool";
import { toolQuery } from "../api";
import { optionChoices } from "../product";

/**
 * A product's options as choices (DESIGN "Catalogue"): a labelled group per option, each value a
 * link to the tool that has it (the other options as this tool has them), so it works without
 * JavaScript; with it, the move is the app's own (no reload; the page starts at its top, the chosen
 * tool's photos, as every move does: app/layout.tsx, whose code is the home page's download) and the
 * tool's data is asked for as soon as the shopper points at or focuses a choice. A combination no
 * tool has is shown, marked unavailable, and is no link; a sold-out one says so and still leads
 * to its page (where its stock alert is).
 */
export function VariantOptions({ tool }: { tool: Tool }) {
  const queryClient = useQueryClient();
  const options = optionChoices(tool);
  if (options.length === 0) return null;
  const prefetch = (id: string) => void queryClient.prefetchQuery(toolQuery(id));
  return (
    <div className="flex flex-col gap-3" data-testid="variant-options">
      {options.map((option) => (
        <fieldset key={option.name} className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium">{option.name}</legend>
          <ul className="flex flex-wrap gap-2">
            {option.choices.map((choice) => (
              <li key={choice.value}>
                {choice.toolId === null ? (
                  <a role="link" aria-disabled="true" className="btn btn-sm btn-disabled">
                    {choice.value} <span className="text-xs font-normal">({TOOL_TEXT.unavailable})</span>
                  </a>
                ) : (
                  <Link
                    to={`/tools/${choice.toolId}`}
                    aria-current={choice.current ? "true" : undefined}
                    onPointerEnter={() => choice.toolId && prefetch(choice.toolId)}
                    onFocus={() => choice.toolId && prefetch(choice.toolId)}
                    className={`btn btn-sm ${choice.current ? "btn-primary" : "btn-outline"}`}
                  >
                    {choice.value}
                    {!choice.inStock && <span className="text-xs font-normal">({TOOL_TEXT.choiceOutOfStock})</span>}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </div>
  );
}
