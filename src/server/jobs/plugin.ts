/**
 * The job runner (`app.jobs`, decision 0021): modules define their queues and sweeps while they
 * register; it starts when the app is ready and stops before the database closes.
 */
import fp from "fastify-plugin";
import { JobRunner } from "./runner";

declare module "fastify" {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

export default fp(
  async (app) => {
    const jobs = new JobRunner(app.store.db, app.store.executeSql, app.log.child({ module: "jobs" }));
    app.decorate("jobs", jobs);
    app.addHook("onReady", () => jobs.start());
    app.addHook("onClose", () => jobs.stop());
  },
  { name: "toolyard-jobs", dependencies: ["toolyard-database"] },
);
