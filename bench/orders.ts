/**
 * Order contention: many concurrent buyers (bearer tokens) on a few hot tools, against
 * Postgres. Prints orders/s, p99 and the stock invariant (initial = stock + accepted).
 * Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:orders
 */
import autocannon from "autocannon";
import { ms, startBenchServer } from "./support";

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
const PASSWORD = "Str0ng!pass";

const server = await startBenchServer({ ADMIN_EMAILS: ADMIN, SEED: "false" });
const origin = "http://127.0.0.1:3999";

async function signUp(email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ name: email.split("@")[0], email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const tokenRes = await fetch(`${server.url}/api/user/${encodeURIComponent(email)}`, {
    method: "PUT",
    headers: { "content-type": "application/json", origin, cookie },
    body: JSON.stringify({ email }),
  });
  const { token } = (await tokenRes.json()) as { token: string };
  return token;
}

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
            body: JSON.stringify({ toolId: toolIds[i % toolIds.length], quantity: 1 + (i % 3) }),
          };
        },
      },
    ],
  });

  // The invariant, from the API's own view of stock and the database's orders.
  const { orders, tools } = await import("../src/server/db/schema");
  const { eq, sql } = await import("drizzle-orm");
  let ok = true;
  let accepted = 0;
  for (const id of toolIds) {
    const [row] = await server.app.store.db
      .select({ stock: tools.availableQuantity, taken: sql<number>`(select coalesce(sum(quantity), 0)::int from orders where tool_id = ${id} and status = 'pending')` })
      .from(tools)
      .where(eq(tools.id, id));
    const [count] = await server.app.store.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.toolId, id));
    accepted += count?.n ?? 0;
    const holds = row !== undefined && row.stock >= 0 && row.stock + row.taken === STOCK;
    ok &&= holds;
    console.log(`  tool ${id.slice(0, 8)}: stock ${row?.stock} + ordered ${row?.taken} = ${(row?.stock ?? 0) + (row?.taken ?? 0)} (initial ${STOCK}) ${holds ? "ok" : "BROKEN"}`);
  }
  const seconds = DURATION;
  console.log(`POST /api/order on ${server.driver}: ${BUYERS} buyers, ${HOT_TOOLS} hot tools, ${CONNECTIONS} connections, ${seconds} s`);
  console.log(`  orders/s: ${(result["2xx"] / seconds).toFixed(0)}  p50: ${ms(result.latency.p50)}  p99: ${ms(result.latency.p99)}`);
  console.log(`  accepted: ${result["2xx"]} (in db: ${accepted})  non-2xx: ${result.non2xx}  errors: ${result.errors}`);
  console.log(`  invariant stock + accepted = initial: ${ok && accepted === result["2xx"] ? "holds" : "BROKEN"}`);
  if (!ok || accepted !== result["2xx"]) process.exitCode = 1;
} finally {
  await server.close();
}
