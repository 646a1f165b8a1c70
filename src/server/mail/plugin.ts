/** Mail: `app.mail` (order mail for the desks, the worker) and the worker's life with the app's. */
import fp from "fastify-plugin";
import { orderMail, type OrderMail } from "./outbox";
import { startMailWorker, type MailWorker } from "./worker";

declare module "fastify" {
  interface FastifyInstance {
    mail: { orders: OrderMail; worker: MailWorker };
  }
}

export default fp(
  async (app) => {
    const { config } = app;
    // Modules hand the worker their attachments' renderers and the mail that falls due by itself at start (worker.ts).
    const worker = startMailWorker(app.store.db, config.mail, app.log.child({ module: "mail" }));
    app.decorate("mail", { orders: orderMail(config.publicUrl, config.adminEmails), worker });
    app.addHook("onClose", async () => {
      await worker.stop();
    });
  },
  { name: "toolyard-mail", dependencies: ["toolyard-database"] },
);
