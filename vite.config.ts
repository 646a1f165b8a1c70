import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

const apiPort = process.env.PORT ?? "3000";

export default defineConfig({
  root: "src/web",
  publicDir: "../../public",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
  },
  server: {
    // `npm run dev`: Vite on 5173 proxies the API to the Fastify server.
    port: 5173,
    proxy: { "/api": `http://127.0.0.1:${apiPort}` },
  },
});
