/**
 * The shared Redis (REDIS_URL): connected before the store starts, so a wrong or unreachable
 * address stops the start with one line; afterwards an outage fails each command at once
 * (no offline queue, a command timeout), which the API answers with 503 and Retry-After
 * instead of hanging, while the client reconnects in the background.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import { ConfigError, redactUrl } from "./config";

export interface RedisOptions {
  /** How long a command may take before it fails (and the request answers 503). */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export async function connectRedis(url: string, log: FastifyBaseLogger, options: RedisOptions = {}): Promise<Redis> {
  // Loaded only when there is a REDIS_URL: a one-box store does not pay for it at start-up.
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    retryStrategy: (attempt) => Math.min(attempt * 250, 2000),
  });
  let started = false;
  let down = false;
  // One line when Redis goes away and one when it is back, not a stack trace per retry;
  // before the start, the one line is the configuration error below.
  redis.on("error", (error: Error) => {
    if (!started || down) return;
    down = true;
    log.warn({ err: { message: error.message } }, "Redis is unreachable; requests that need it answer 503 until it is back");
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    log.info("Redis is reachable again");
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`REDIS_URL: cannot reach Redis at ${redactUrl(url)} (${reason})`);
  }
  started = true;
  return redis;
}
