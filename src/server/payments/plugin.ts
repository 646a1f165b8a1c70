/**
 * Payments: `app.payments` (the providers, the webhook's events, the holds) and the hold's sweep,
 * which lives and stops with the app. Card payments are on only with both Stripe secrets.
 */
import fp from "fastify-plugin";
import { Payments } from "./service";
import { stripeProvider } from "./stripe";

declare module "fastify" {
  interface FastifyInstance {
    payments: Payments;
  }
}

/** How often each instance looks for card orders whose hold ran out: often enough for a short hold, at most every 30 s. */
const sweepEvery = (holdMs: number) => Math.min(30_000, Math.max(500, Math.floor(holdMs / 4)));

export default fp(
  async (app) => {
    const { config } = app;
    const stripe = config.stripe ? await stripeProvider(config.stripe) : undefined;
    const log = app.log.child({ module: "payments" });
    // The refund worker runs wherever a provider can be asked for money back (decision 0016).
    const payments = new Payments(app.store.db, { publicUrl: config.publicUrl, holdMs: config.paymentHoldMs, mail: app.mail.orders, card: stripe, log, autostartRefunds: stripe !== undefined });
    app.decorate("payments", payments);

    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    app.addHook("onReady", () => {
      if (!stripe) return;
      timer = setInterval(() => {
        running = payments.expireHolds().then(
          (n) => n > 0 && log.info({ cancelled: n }, "card orders unpaid past their hold were cancelled"),
          (error: unknown) => log.warn({ err: error }, "the payment hold's sweep failed; it runs again shortly"),
        );
      }, sweepEvery(config.paymentHoldMs));
      timer.unref();
    });
    app.addHook("onClose", async () => {
      if (timer) clearInterval(timer);
      await running;
      await payments.refundWorker.stop();
    });
  },
  { name: "toolyard-payments", dependencies: ["toolyard-database", "toolyard-mail"] },
);
