/** The API under /api: accounts first (its guards are what the feature routes use), then each feature. */
import fp from "fastify-plugin";
import authPlugin from "../auth/plugin";
import { cartRoutes } from "../cart/routes";
import { catalogRoutes } from "../catalog/routes";
import { healthRoutes } from "../http/health";
import { invoiceRoutes } from "../invoices/routes";
import { orderRoutes } from "../orders";
import { paymentRoutes } from "../payments/routes";
import { profileRoutes } from "../profile/routes";
import { quoteRoutes } from "../quotes/routes";
import { accountRoutes } from "../accounts/routes";
import { reviewRoutes } from "../reviews/routes";
import { stockAlertRoutes } from "../stock-alerts/routes";
import { consoleRoutes } from "./console";

export default fp(
  async (app) => {
    await app.register(
      async (api) => {
        await api.register(authPlugin);
        await api.register(healthRoutes);
        await api.register(catalogRoutes);
        await api.register(reviewRoutes);
        await api.register(stockAlertRoutes);
        await api.register(orderRoutes);
        await api.register(invoiceRoutes);
        await api.register(profileRoutes);
        await api.register(cartRoutes);
        await api.register(paymentRoutes);
        await api.register(quoteRoutes);
        await api.register(accountRoutes);
        await api.register(consoleRoutes, { prefix: "/admin" });
      },
      { prefix: "/api" },
    );
  },
  { name: "toolyard-api", dependencies: ["toolyard-database", "toolyard-caches", "toolyard-security", "toolyard-payments"] },
);
