import { buildApp } from "./app";
import { ConfigError, loadConfig, type Config } from "./config";
import { prepareStore } from "./start-up";

async function main(): Promise<void> {
  // Start-up phases, logged with the "serving" line (bench/startup.mjs reads them).
  const loadedMs = process.uptime() * 1000;
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line naming the variable, nothing else.
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const building = performance.now();
  const app = await buildApp(config);
  for (const warning of config.warnings) app.log.warn(warning);
  const preparing = performance.now();
  await prepareStore(app);
  const prepared = performance.now();
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    // Stop accepting connections, finish in-flight requests, then close the database.
    app
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  const startup = {
    modulesMs: Math.round(loadedMs),
    buildMs: Math.round(preparing - building),
    prepareMs: Math.round(prepared - preparing),
    totalMs: Math.round(process.uptime() * 1000),
  };
  app.log.info(
    { url: config.publicUrl, db: app.store.driver, google: Boolean(config.google), startup },
    `Toolyard is serving on ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  // A service named by a variable that cannot be reached is a configuration error too.
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else console.error(`Toolyard failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
