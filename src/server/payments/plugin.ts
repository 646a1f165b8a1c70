/**
 * Payments: `app.payments` (the providers, the webhook's events, the holds) and the hold's sweep,
 * a job on the app's runner. Card payments are on only with both Stripe secrets.
 */
import fp from "fastify-plugin";
import { Payments } from "./service";
import { stripeProvider } from "./stripe";

declare module "fastify" {
  interface FastifyInstance {
    payments: Payments;
  }
}

/** The job that cancels card orders unpaid past their hold. */
export const HOLD_SWEEP = "payment-hold-sweep";

/** How often the hold's sweep runs: often enough for a short hold, at most every 30 s. */
const sweepEvery = (holdMs: number) => Math.min(30_000, Math.max(500, Math.floor(holdMs / 4)));

export default fp(
  async (app) => {
    const { config } = app;
    const stripe = config.stripe ? await stripeProvider(config.stripe) : undefined;
    const log = app.log.child({ module: "payments" });
    // The refund worker runs wherever a provider can be asked for money back (decision 0016).
    const payments = new Payments(app.store.db, { publicUrl: config.publicUrl, holdMs: config.paymentHoldMs, mail: app.mail.orders, card: stripe, log, autostartRefunds: stripe !== undefined });
    app.decorate("payments", payments);

    // The hold's sweep is a job (decision 0021): one instance a period runs it.
    if (stripe) {
      app.jobs.define(HOLD_SWEEP, {
        handle: async () => {
          const n = await payments.expireHolds();
          if (n > 0) log.info({ cancelled: n }, "card orders unpaid past their hold were cancelled");
        },
      });
      app.jobs.every(HOLD_SWEEP, sweepEvery(config.paymentHoldMs));
    }
    app.addHook("onClose", async () => {
      await payments.refundWorker.stop();
    });
  },
  { name: "toolyard-payments", dependencies: ["toolyard-database", "toolyard-jobs", "toolyard-mail"] },
);
