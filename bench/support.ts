/**
 * Shared by the benchmarks: the real app in its own process, on a throw-away database.
 * BENCH_CPU_PROF=<folder> writes the server's CPU profile there (open it in Chrome DevTools).
 * The server runs bundled by esbuild as `npm start` runs it (scripts/build-server.mjs), or
 * from the sources under tsx with BENCH_SERVER=tsx.
 */
import { execFileSync, fork } from "node:child_process";
import { connect, type Socket } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createPostgresDatabase } from "../src/server/test-support";

export async function startBenchServer(env: Record<string, string> = {}, options: { root?: string } = {}) {
  // A throw-away Postgres database, unless the caller brings its own database (DATABASE_URL
  // or a PGlite DATA_DIR, as bench/scale.ts does with its filled one).
  const ownDatabase = env.DATABASE_URL !== undefined || env.DATA_DIR !== undefined;
  const pgDb = process.env.DATABASE_URL && !ownDatabase ? await createPostgresDatabase() : undefined;
  const fromSources = process.env.BENCH_SERVER === "tsx";
  // `root`: another source tree (an older build, for a before/after run), bundled by its own build script.
  const entry = fromSources && !options.root ? path.join(import.meta.dirname, "server-process.ts") : await bundleServer(options.root);
  const child = fork(entry, {
    execArgv: [...(fromSources ? ["--import", "tsx"] : []), ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, BENCH_ENV: JSON.stringify({ ...(pgDb ? { DATABASE_URL: pgDb.url } : {}), ...env }) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<{ url: string; driver: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; driver: string }));
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    ...ready,
    databaseUrl: pgDb?.url,
    /** The server's process id (its memory is read from /proc). */
    pid: child.pid,
    /** CPU seconds the server process has used so far (user + system). */
    cpuSeconds: () => cpuSecondsOf(child.pid),
    close: async () => {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
      await pgDb?.drop();
    },
  };
}

const bundled = new Map<string, string>();
/**
 * bench/server-process.ts bundled as the server is (scripts/build-server.mjs), in dist/bench/ so
 * that the app finds its root; once per run, since a second build would replace the chunks of a
 * server already running (INSTANCES=2).
 */
async function bundleServer(root = path.join(import.meta.dirname, "..")): Promise<string> {
  const known = bundled.get(root);
  if (known) return known;
  execFileSync(process.execPath, ["scripts/build-server.mjs", "bench/server-process.ts", "dist/bench"], { cwd: root, stdio: "inherit" });
  const entry = path.join(root, "dist", "bench", "server-process.js");
  bundled.set(root, entry);
  return entry;
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a local process has used, from /proc. On a machine shared with
 * other work, CPU per request is steadier than requests per second; 0 where /proc is missing.
 */
export function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by each Postgres backend serving `databaseUrl` (a local server). */
export async function databaseCpu(databaseUrl: string | undefined): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  if (!databaseUrl) return used;
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
    for (const { pid } of rows) used.set(pid, cpuSecondsOf(pid));
    return used;
  } finally {
    await client.end();
  }
}

/** CPU seconds the backends used between two readings (a backend that came later started at 0). */
export const databaseCpuBetween = (before: Map<number, number>, after: Map<number, number>): number =>
  [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);

export const BENCH_ORIGIN = "http://127.0.0.1:3999";
export const BENCH_PASSWORD = "Str0ng!pass";

/** Signs a new customer up on the bench server and returns a bearer token for them. */
export async function signUpForToken(serverUrl: string, email: string): Promise<string> {
  const res = await fetch(`${serverUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BENCH_ORIGIN },
    body: JSON.stringify({ name: email.split("@")[0], email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const tokenRes = await fetch(`${serverUrl}/api/user/${encodeURIComponent(email)}`, {
    method: "PUT",
    headers: { "content-type": "application/json", origin: BENCH_ORIGIN, cookie },
    body: JSON.stringify({ email }),
  });
  return ((await tokenRes.json()) as { token: string }).token;
}

/**
 * A lean HTTP/1.1 keep-alive client for the load generator: one socket per caller, one request
 * in flight on it, the request written as one string and the answer read by its Content-Length.
 * On two cores the generator's CPU is taken from the store; node:http spent about twice as much
 * a round (agents, header objects, streams). Enough for the store's JSON answers, not a general
 * client (no chunked bodies, no redirects).
 */
export class LeanConnection {
  private readonly socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: { status: number; body: string }) => void; reject: (e: Error) => void } | undefined;
  private readonly host: string;

  constructor(serverUrl: string) {
    const url = new URL(serverUrl);
    this.host = url.host;
    this.socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    this.socket.on("error", (error) => this.fail(error));
    this.socket.on("close", () => this.fail(new Error("connection closed")));
  }

  request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
    if (this.waiting) return Promise.reject(new Error("one request at a time on a LeanConnection"));
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    if (body !== undefined) head += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(`${head}\r\n${body ?? ""}`);
    });
  }

  /** JSON in, JSON out. */
  async json(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.request(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
    return { status: res.status, json: (res.body ? JSON.parse(res.body) : {}) as Record<string, unknown> };
  }

  close(): void {
    this.socket.removeAllListeners("close");
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const head = this.buffer.toString("latin1", 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) return this.fail(new Error(`no content-length in ${head.split("\r\n")[0] ?? ""}`));
    const total = end + 4 + Number(length[1]);
    if (this.buffer.length < total) return;
    const body = this.buffer.toString("utf8", end + 4, total);
    this.buffer = this.buffer.subarray(total);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ status: Number(head.slice(9, 12)), body });
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}
