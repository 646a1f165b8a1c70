/**
 * Order contention: many concurrent buyers (bearer tokens) on a few hot tools, against
 * Postgres. Prints orders/s, p99 and the stock invariant (initial = stock + accepted).
 * Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:orders
 */
import autocannon from "autocannon";
import { databaseCpu, databaseCpuBetween, ms, signUpForToken, startBenchServer } from "./support";

if (!process.env.DATABASE_URL) {
  console.error("bench:orders needs DATABASE_URL (a Postgres server; a fresh database is created and dropped).");
  process.exit(2);
}

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const BUYERS = Number(process.env.BUYERS ?? 40);
const HOT_TOOLS = Number(process.env.HOT_TOOLS ?? 3);
const STOCK = 100_000;
const ADMIN = "bench-admin@toolyard.example";

const server = await startBenchServer({ ADMIN_EMAILS: ADMIN, SEED: "false" });

const signUp = (email: string) => signUpForToken(server.url, email);

try {
  const adminToken = await signUp(ADMIN);
  const toolIds: string[] = [];
  for (let i = 0; i < HOT_TOOLS; i++) {
    const res = await fetch(`${server.url}/api/tool`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({
        name: `Hot tool ${i}`,
        image: "/images/tools/cordless-drill.svg",
        price: 139,
        availableQuantity: STOCK,
        minimumQuantity: 1,
        description: "Benchmark stock.",
        category: "power-tools",
      }),
    });
    toolIds.push(((await res.json()) as { _id: string })._id);
  }
  const tokens = await Promise.all(Array.from({ length: BUYERS }, (_, i) => signUp(`buyer${i}@bench.example`)));

  let n = 0;
  const cpuBefore = { server: server.cpuSeconds(), database: await databaseCpu(server.databaseUrl) };
  const result = await autocannon({
    url: `${server.url}/api/order`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            headers: { "content-type": "application/json", authorization: `Bearer ${tokens[i % tokens.length]}` },
            body: JSON.stringify({ toolId: toolIds[i % toolIds.length], quantity: 1 + (Math.floor(i / toolIds.length) % 3) }),
          };
        },
      },
    ],
  });

  // Requests still in flight when autocannon stops complete after it has counted: let them land,
  // then check the invariant on the database's own view.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const cpu = { server: server.cpuSeconds() - cpuBefore.server, database: databaseCpuBetween(cpuBefore.database, await databaseCpu(server.databaseUrl)) };
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  let ok = true;
  let accepted = 0;
  for (const id of toolIds) {
    const { rows } = await client.query<{ stock: number; ordered: number; count: number }>(
      `select available_quantity as stock,
              (select coalesce(sum(quantity), 0)::int from orders where tool_id = $1 and status = 'pending') as ordered,
              (select count(*)::int from orders where tool_id = $1) as count
         from tools where id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) throw new Error(`tool ${id} vanished`);
    accepted += row.count;
    const holds = row.stock >= 0 && row.stock + row.ordered === STOCK;
    ok &&= holds;
    console.log(`  tool ${id.slice(0, 8)}: stock ${row.stock} + ordered ${row.ordered} = ${row.stock + row.ordered} (initial ${STOCK}) ${holds ? "ok" : "BROKEN"}`);
  }
  await client.end();
  console.log(`POST /api/order on ${server.driver}: ${BUYERS} buyers, ${HOT_TOOLS} hot tools, ${CONNECTIONS} connections, ${DURATION} s`);
  console.log(`  orders/s: ${(result["2xx"] / DURATION).toFixed(0)}  p50: ${ms(result.latency.p50)}  p99: ${ms(result.latency.p99)}`);
  // Steadier than orders/s on a machine shared with other work: the CPU each order costs.
  const perOrder = (seconds: number) => `${((seconds * 1e6) / Math.max(1, result["2xx"])).toFixed(0)} µs`;
  console.log(`  CPU per order: server ${perOrder(cpu.server)}, Postgres ${perOrder(cpu.database)}`);
  console.log(`  accepted (2xx seen by autocannon): ${result["2xx"]}  orders in the database: ${accepted}  non-2xx: ${result.non2xx}  errors: ${result.errors}`);
  console.log(`  invariant stock + ordered = initial, stock >= 0: ${ok ? "holds" : "BROKEN"}`);
  if (!ok || result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
} finally {
  await server.close();
}
