export { AddToCartButton } from "./add-to-cart";
export { cartKeys, cartQuery } from "./cart-query";
export { CartButton } from "./cart-button";
export { offeredMethods, openPaymentPage, paymentMethodsQuery } from "./payment-methods";
