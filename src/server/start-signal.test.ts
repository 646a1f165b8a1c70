/**
 * `npm start` under a process manager: systemd, Docker and PM2 send SIGTERM to the process they
 * started, npm, which passes it to its script's shell. The store must then close its server and
 * its database and leave no node process behind (a shell that is not replaced by node dies on the
 * signal and orphans the server, which keeps serving).
 *
 * It needs the built store (`npm run build`; `.ci/run` builds before testing). Without one it is
 * skipped with a message locally, and fails under CI=true.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PAGES_TEXT } from "../contract/texts/pages";
import { findAppRoot } from "./config";

const root = findAppRoot();
const built = ["dist/web/index.html", "dist/server/main.js"].every((file) => existsSync(path.join(root, file)));
const MISSING = "No built store in dist/ (run `npm run build`): the npm start signal test needs it.";
if (!built && process.env.CI !== "true") console.warn(`${MISSING} Skipping it.`);

/** A port the OS says is free now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Whether anything accepts connections on the port. */
async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Every live process below `pid` (Linux /proc), children first found first. */
function descendants(pid: number): Array<{ pid: number; command: string }> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const found: Array<{ pid: number; command: string }> = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid !== parent) continue;
      let command = "";
      try {
        command = readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" ").trim();
      } catch {
        // gone meanwhile
      }
      found.push({ pid: child, command });
      walk(child);
    }
  };
  walk(pid);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const started: number[] = [];
const dataDirs: string[] = [];
afterAll(() => {
  // Only if the test failed half-way: stop what it started.
  for (const pid of started) if (alive(pid)) process.kill(pid, "SIGKILL");
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe("npm start under a process manager", () => {
  it.skipIf(!built && process.env.CI !== "true")(
    "SIGTERM to npm closes the server and the database and leaves no node process",
    async () => {
      if (!built) throw new Error(`${MISSING} It is required under CI=true.`);
      const port = await freePort();
      const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-start-"));
      dataDirs.push(dataDir);
      const npm = spawn("npm", ["start"], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          PUBLIC_URL: `http://localhost:${port}`,
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          REDIS_URL: "",
          SEED: "false",
          LOG_LEVEL: "info",
        },
      });
      if (npm.pid === undefined) throw new Error("npm did not start");
      const npmPid = npm.pid;
      started.push(npmPid);
      let output = "";
      npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        npm.once("exit", (code, signal) => resolve({ code, signal })),
      );

      // Up: /api/health answers (npm start rebuilds first if the sources are newer than dist/).
      const deadline = Date.now() + 180_000;
      for (;;) {
        if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${output}`);
        const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (res) => res.ok,
          () => false,
        );
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`no answer on /api/health:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // The bundled server (scripts/build-server.mjs bundles the npm packages) finds the files
      // packages serve of their own: the API docs' UI, and a page rendered on the server.
      for (const [url, type] of [
        ["/api/docs/static/index.css", "text/css"],
        ["/api/docs/static/logo.svg", "image/svg+xml"],
        ["/about", "text/html"],
      ] as const) {
        const res = await fetch(`http://127.0.0.1:${port}${url}`);
        expect(res.status, url).toBe(200);
        expect(res.headers.get("content-type"), url).toContain(type);
        if (url === "/about") expect(await res.text()).toContain(`>${PAGES_TEXT.about.heading}<`);
      }
      const below = descendants(npmPid);
      started.push(...below.map((p) => p.pid));
      expect(below.some((p) => /\bnode\b/.test(p.command) && p.command.includes("start.mjs")), JSON.stringify(below)).toBe(true);

      npm.kill("SIGTERM");
      const { code, signal } = await Promise.race([
        exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`npm still running 20 s after SIGTERM:\n${output}`)), 20_000)),
      ]);

      // Nothing of it is left, nothing serves the port, and the exit was clean: the server closed
      // and then the database (main.ts exits 0 only after both).
      expect(below.filter((p) => alive(p.pid)), "processes left behind").toEqual([]);
      expect(await listening(port), "the port still accepts connections").toBe(false);
      expect({ code, signal }, output).toEqual({ code: 0, signal: null });
      expect(output).toContain('"msg":"shutting down"');
    },
    240_000,
  );
});
