/**
 * Test helpers for the SDK and CLI tests: a recording HTTP proxy that can cut a response off
 * mid-body (to interrupt downloads), and where a job's stored result file is.
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
  /** Answer the next `count` requests whose path starts with `prefix` with `status` itself. */
  failNext(prefix: string, count: number, status: number): void;
  close(): Promise<void>;
}

/** A pass-through HTTP proxy on an ephemeral port that records every request. */
export async function startRecordingProxy(): Promise<RecordingProxy> {
  let cut: { prefix: string; count: number; bytes: number } | null = null;
  let fail: { prefix: string; count: number; status: number } | null = null;
  const requests: ProxiedRequest[] = [];
  const proxy: RecordingProxy = {
    url: "",
    target: "",
    requests,
    cutNext(prefix, count, bytes) {
      cut = { prefix, count, bytes };
    },
    failNext(prefix, count, status) {
      fail = { prefix, count, status };
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
    if (fail && fail.count > 0 && record.url.startsWith(fail.prefix)) {
      fail.count--;
      record.status = fail.status;
      req.resume();
      res.writeHead(fail.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: "failed by the test's proxy", error_code: "test" }));
      return;
    }
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

/** The stored result file of a job under `<dataDir>/results/` (its key starts with the job id). */
export function storedResultPath(dataDir: string, jobId: string): string {
  const dir = join(dataDir, "results");
  const name = readdirSync(dir).find((n) => n.startsWith(jobId) && n.endsWith(".h5"));
  if (!name) throw new Error(`no stored result for job ${jobId} in ${dir}`);
  return join(dir, name);
}
