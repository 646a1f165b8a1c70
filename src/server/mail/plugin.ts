/** Mail: `app.mail` (order mail for the desks, the worker) and the worker's life with the app's. */
import fp from "fastify-plugin";
import { orderMail, type OrderMail } from "./outbox";
import { alertRound } from "../stock-alerts/service";
import { startMailWorker, type MailWorker } from "./worker";

declare module "fastify" {
  interface FastifyInstance {
    mail: { orders: OrderMail; worker: MailWorker };
  }
}

export default fp(
  async (app) => {
    const { config } = app;
    const alerts = { publicUrl: config.publicUrl, secret: config.authSecret };
    // Each round first deletes the unconfirmed back-in-stock alerts whose link expired and writes
    // the ones that fell due (once across instances).
    const worker = startMailWorker(app.store.db, config.mail, app.log.child({ module: "mail" }), { produce: () => alertRound(app.store.db, alerts) });
    app.decorate("mail", { orders: orderMail(config.publicUrl, config.adminEmails), worker });
    app.addHook("onClose", async () => {
      await worker.stop();
    });
  },
  { name: "toolyard-mail", dependencies: ["toolyard-database"] },
);
