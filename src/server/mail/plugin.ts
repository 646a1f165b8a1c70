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
    // The worker is a queue of the job runner; modules hand it their attachments' renderers at start (worker.ts).
    const worker = startMailWorker(app.jobs, app.store.db, config.mail, app.log.child({ module: "mail" }));
    app.decorate("mail", { orders: orderMail(config.publicUrl, config.adminEmails), worker });
    // The SMTP pool closes once the runner's workers have finished the messages they were sending.
    app.jobs.atStop(() => worker.stop());
  },
  { name: "toolyard-mail", dependencies: ["toolyard-database", "toolyard-jobs"] },
);
