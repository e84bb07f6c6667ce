/**
 * Test helpers for the SDK and CLI tests: a recording HTTP proxy that can cut a response off
 * mid-body (to interrupt downloads), and a small 2-D job whose result has a plane monitor.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from "node:http";
import { readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export interface ProxiedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  status?: number;
  /** Body bytes passed on before the proxy cut the connection (null: not cut). */
  cutAfterBytes?: number | null;
}

export interface RecordingProxy {
  url: string;
  /** Where requests go; set once the target is listening. */
  target: string;
  requests: ProxiedRequest[];
  /** Cut the next `count` responses whose path starts with `prefix` after `bytes` body bytes. */
  cutNext(prefix: string, count: number, bytes: number): void;
  close(): Promise<void>;
}

/** A pass-through HTTP proxy on an ephemeral port that records every request. */
export async function startRecordingProxy(): Promise<RecordingProxy> {
  let cut: { prefix: string; count: number; bytes: number } | null = null;
  const requests: ProxiedRequest[] = [];
  const proxy: RecordingProxy = {
    url: "",
    target: "",
    requests,
    cutNext(prefix, count, bytes) {
      cut = { prefix, count, bytes };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const record: ProxiedRequest = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: req.headers,
    };
    requests.push(record);
    const target = new URL(record.url, proxy.target);
    const upstream = httpRequest(
      target,
      { method: record.method, headers: { ...req.headers, host: target.host } },
      (up) => {
        record.status = up.statusCode;
        res.writeHead(up.statusCode ?? 502, up.headers);
        let limit: number | null = null;
        if (cut && cut.count > 0 && record.url.startsWith(cut.prefix)) {
          cut.count--;
          limit = cut.bytes;
        }
        record.cutAfterBytes = limit;
        if (limit === null) {
          up.pipe(res);
          return;
        }
        let sent = 0;
        up.on("data", (chunk: Buffer) => {
          if (sent >= limit!) return;
          const part = chunk.subarray(0, limit! - sent);
          sent += part.length;
          if (sent >= limit!) {
            // Once these bytes have left (and the client had a moment to take them), drop the
            // connection without finishing the body.
            res.write(part, () => setTimeout(() => res.socket?.destroy(), 150));
            up.destroy();
          } else {
            res.write(part);
          }
        });
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/**
 * A small 2-D job (x–z cross-section, one cell in y): a glass bar in vacuum lit from below,
 * recorded on an x–z plane, so plots have structure. Runs in about a second.
 */
export function planeSimulation(): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [1.2e-6, 0.05e-6, 1.6e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 10,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures: [
      { type: "box", center: [0, 0, 0.2e-6], size: [0.4e-6, 1, 0.4e-6], material: "Si3N4" },
    ],
    monitors: [
      {
        name: "xz",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [1.2e-6, 0, 1.4e-6],
        components: ["Ex", "Ey"],
      },
      {
        name: "probe",
        monitor_type: "field",
        center: [0, 0, 0.6e-6],
        size: [0, 0, 0],
        components: ["Ey"],
      },
    ],
    fdtd_settings: { time_steps: 4000, check_every_n: 200, convergence_threshold: 1e-4 },
    metadata: { test: "plane" },
  };
}

/** The stored result file of a job under `<dataDir>/results/` (its key starts with the job id). */
export function storedResultPath(dataDir: string, jobId: string): string {
  const dir = join(dataDir, "results");
  const name = readdirSync(dir).find((n) => n.startsWith(jobId) && n.endsWith(".h5"));
  if (!name) throw new Error(`no stored result for job ${jobId} in ${dir}`);
  return join(dir, name);
}
