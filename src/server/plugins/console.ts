/**
 * The console's API under /api/admin (issue 49: admin/ is no longer the hub every module goes
 * through): one scope whose guard lets only the admin role in, before anything else runs, and
 * which alone takes files; each module mounts its own console routes in it.
 */
import multipart from "@fastify/multipart";
import type { FastifyPluginAsync } from "fastify";
import { PHOTO_MAX_BYTES } from "../../contract/images";
import { accountAdminRoutes } from "../accounts/admin-routes";
import { adminRoutes } from "../admin/routes";
import { catalogueAdminRoutes } from "../catalog/admin-routes";
import { catalogueIoRoutes } from "../catalog/io-routes";
import { jobAdminRoutes } from "../jobs";
import { orderAdminRoutes } from "../orders";
import { refundAdminRoutes } from "../payments/admin-routes";
import { moneyAdminRoutes } from "../pricing/admin-routes";
import { quoteAdminRoutes } from "../quotes/admin-routes";

export const consoleRoutes: FastifyPluginAsync = async (app) => {
  app.addHook("onRequest", app.requireAdmin);
  // Only the console takes files, and only after the guard has let the caller in.
  await app.register(multipart, { limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
  await app.register(adminRoutes); // tools, users, reviews, the summary, the audit log and mail
  await app.register(orderAdminRoutes); // orders, their moves, shipments and returns
  await app.register(catalogueAdminRoutes); // brands, categories, specifications, products
  await app.register(catalogueIoRoutes); // the catalogue's export and imports
  await app.register(moneyAdminRoutes); // tax rates, promotions, delivery, the store's details
  await app.register(quoteAdminRoutes);
  await app.register(accountAdminRoutes);
  await app.register(refundAdminRoutes); // refunds of lines and the refund worker's list
  await app.register(jobAdminRoutes);
};
