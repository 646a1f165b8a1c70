export { AddToCartButton } from "./add-to-cart";
export { cartKeys, cartQuery } from "./cart-query";
export { CartButton } from "./cart-button";
export { countOf, useGuestCart } from "./guest-cart";
export { offeredMethods, openPaymentPage, paymentMethodsQuery } from "./payment-methods";
