#!/usr/bin/env node
// `npm run dev`: the API from source (tsx, restarted on every change) on PORT (3000) and Vite's
// dev server with hot reload on http://localhost:5173, which proxies /api to the API.
// Open the store at :5173. Ctrl-C stops both; if either stops, so does the other.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Vite's origin may post to the API with cookies only while developing: `npm start` trusts
// the store's own origin alone.
const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? "development",
  DEV_ORIGINS: process.env.DEV_ORIGINS ?? "http://localhost:5173,http://127.0.0.1:5173",
};

// The tools' own executables, not npx, so a stop signal reaches them and not only a wrapper.
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const children = [
  spawn(bin("tsx"), ["watch", "--clear-screen=false", "src/server/main.ts"], { cwd: root, env, stdio: "inherit" }),
  spawn(bin("vite"), [], { cwd: root, env, stdio: "inherit" }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exitCode = code;
}
for (const child of children) child.on("exit", (code) => stop(code ?? 0));
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
