/**
 * A crowd of pollers, run in a process of its own (`node --import tsx test/helpers/pollers.ts
 * PORT PATH KEY CLIENTS POLLS GAP_MS [spread]`): every client opens a new connection at the
 * same moment — as pollers do when they reconnect after a restart — then polls over
 * keep-alive; with `spread`, clients start at random moments within the first gap instead, as
 * steady pollers do.
 * Prints one JSON line: requests, errors by kind, and latency percentiles (ms).
 */
import http from "node:http";

export interface PollerFigures {
  clients: number;
  requests: number;
  errors: number;
  errorKinds: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Runs the crowd; each request gets `timeoutMs` (then it counts as a time-out error). */
export async function runPollers(options: {
  port: number;
  path: string;
  key: string;
  clients: number;
  polls: number;
  gapMs: number;
  timeoutMs?: number;
  /** Start each client at a random moment within the first gap (steady pollers), not at once. */
  spread?: boolean;
}): Promise<PollerFigures> {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  const fail = (kind: string) => (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);
  const poller = async () => {
    if (options.spread) await new Promise((r) => setTimeout(r, Math.random() * options.gapMs));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < options.polls; i++) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        const req = http.get(
          {
            host: "127.0.0.1",
            port: options.port,
            path: options.path,
            agent,
            headers: { authorization: `Bearer ${options.key}` },
            timeout: options.timeoutMs ?? 10_000,
          },
          (res) => {
            res.resume();
            res.on("end", () => {
              if (res.statusCode !== 200) fail(`HTTP ${res.statusCode}`);
              latencies.push(performance.now() - t0);
              resolve();
            });
          },
        );
        req.on("timeout", () => req.destroy(new Error("time-out")));
        req.on("error", (err) => {
          fail(err.message);
          latencies.push(performance.now() - t0);
          resolve();
        });
      });
      if (options.gapMs > 0) await new Promise((r) => setTimeout(r, options.gapMs));
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: options.clients }, poller));
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))]!;
  return {
    clients: options.clients,
    requests: latencies.length,
    errors: Object.values(errorKinds).reduce((a, b) => a + b, 0),
    errorKinds,
    p50Ms: Math.round(at(0.5)),
    p99Ms: Math.round(at(0.99)),
    maxMs: Math.round(latencies[latencies.length - 1]!),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [port, path, key, clients, polls, gapMs, spread] = process.argv.slice(2);
  const figures = await runPollers({
    port: Number(port),
    path: path!,
    key: key!,
    clients: Number(clients),
    polls: Number(polls),
    gapMs: Number(gapMs),
    spread: spread === "spread",
  });
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
