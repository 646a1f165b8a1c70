// A loopback port the OS says is free now (whoever asked binds it moments later): the browser
// tests' store and OpenID stand-in, and the stores the benchmarks start.
import { createServer } from "node:net";

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
