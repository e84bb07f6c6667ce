// The baseline for bench/api.ts: Fastify answering a small JSON object (no auth, no database),
// in its own process like the service under test.
import Fastify from "fastify";

const app = Fastify();
app.get("/bare", async () => ({ status: "ok", n: 1 }));
await app.listen({ host: "127.0.0.1", port: Number(process.argv[2]) });
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
