/**
 * The shared Redis of REDIS_URL, when there is one: connected before anything else, so a wrong
 * address stops the start with one line (redis.ts). `app.redis` is undefined without it.
 */
import type { Redis } from "ioredis";
import fp from "fastify-plugin";
import { connectRedis } from "../redis";

declare module "fastify" {
  interface FastifyInstance {
    redis: Redis | undefined;
  }
}

export default fp(
  async (app) => {
    const { redisUrl } = app.config;
    const redis = redisUrl ? await connectRedis(redisUrl, app.log) : undefined;
    app.decorate("redis", redis);
    app.addHook("onClose", async () => {
      await redis?.quit().catch(() => redis.disconnect());
    });
  },
  { name: "toolyard-redis" },
);
