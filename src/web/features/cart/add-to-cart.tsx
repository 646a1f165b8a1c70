import { useState } from "react";
import { Link } from "react-router";
import type { Tool } from "../../../contract/schemas";
import { ADD_TO_CART_TEXT } from "../../../contract/texts/cart";
import { useHydrated } from "../../lib/hydrated";
import { useSession } from "../../lib/session";
import { useAddToCart } from "./api";

/** 'Add to Cart' for a tool: `quantity` of it (the tool's minimum unless the page chose more). */
export function AddToCartButton({ tool, quantity, className = "btn btn-outline btn-primary" }: { tool: Tool; quantity: number; className?: string }) {
  const { user } = useSession();
  const [added, setAdded] = useState(false);
  const add = useAddToCart(user !== null, () => setAdded(true));
  const orderable = tool.availableQuantity >= tool.minimumQuantity;
  // The cart lives in the app (a visitor's in the browser): before it runs the button is disabled.
  const hydrated = useHydrated();

  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        className={className}
        disabled={!hydrated || !orderable || add.isPending}
        onClick={() => add.mutate({ toolId: tool._id, quantity, availableQuantity: tool.availableQuantity })}
      >
        {add.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {add.isPending ? ADD_TO_CART_TEXT.adding : ADD_TO_CART_TEXT.add}
      </button>
      <noscript>
        <p className="text-sm">{ADD_TO_CART_TEXT.needsScript}</p>
      </noscript>
      <p role="status" className="text-sm">
        {added && !add.isPending && (
          <>
            {ADD_TO_CART_TEXT.added(tool.name)}{" "}
            <Link to="/cart" className="link link-primary">
              {ADD_TO_CART_TEXT.viewCart}
            </Link>
          </>
        )}
      </p>
      {add.isError && (
        <p role="alert" className="text-error text-sm">
          {add.error.message}
        </p>
      )}
    </div>
  );
}
