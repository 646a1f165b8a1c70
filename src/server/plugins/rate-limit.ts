/**
 * The general API limit per client address (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS),
 * shared through Redis when there is one. During a Redis outage it steps aside so the store
 * stays browsable; the sign-in limits (auth/gateway.ts) do not, they answer 503.
 */
import rateLimit from "@fastify/rate-limit";
import fp from "fastify-plugin";

export default fp(
  async (app) => {
    const { apiRateLimit, redisKeyPrefix } = app.config;
    const off = apiRateLimit.max === 0;
    await app.register(rateLimit, {
      global: true,
      max: off ? Number.MAX_SAFE_INTEGER : apiRateLimit.max,
      timeWindow: apiRateLimit.windowMs,
      ...(app.redis ? { redis: app.redis, nameSpace: `${redisKeyPrefix}rl:`, skipOnError: true } : {}),
      allowList: (request) => off || !request.url.startsWith("/api/"),
    });
  },
  { name: "toolyard-rate-limit", dependencies: ["toolyard-redis"] },
);
