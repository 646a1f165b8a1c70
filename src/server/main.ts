import { buildApp } from "./app";
import { ConfigError, loadConfig, type Config } from "./config";
import { prepareStore } from "./start-up";

async function main(): Promise<void> {
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

  const app = await buildApp(config);
  await prepareStore(app);
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
  app.log.info(
    { url: config.publicUrl, db: app.store.driver, google: Boolean(config.google) },
    `Toolyard is serving on ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  // A service named by a variable that cannot be reached is a configuration error too.
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else console.error(`Toolyard failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
