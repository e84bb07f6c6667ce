/**
 * Test harness: a real emsim service (real SQLite, real files, real HTTP on an ephemeral port)
 * in a fresh temporary data directory, plus helpers to make accounts and keys and to call it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config.js";
import { createService, type Service } from "../../src/service.js";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix = "emsim-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The paths of every file under `dir`, at any depth. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

export interface TestService {
  service: Service;
  baseUrl: string;
  config: Config;
  /** Creates (or reuses) the account and returns a new plaintext key. */
  newKey(email?: string, name?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startService(
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
  /** Runs on the service before it listens (a test's stand-in for a failing part). */
  beforeListen?: (service: Service) => void,
): Promise<TestService> {
  const dataDir = overrides.dataDir ?? tempDir();
  const port = await freePort();
  const config = loadConfig(
    // No solver warm-up (about 4 s of CPU per service) unless a test is about it.
    {
      EMSIM_POLL_INTERVAL_MS: "100",
      EMSIM_SOLVER_THREADS: "1",
      EMSIM_SOLVER_WARM_UP: "false",
      ...env,
    },
    { host: "127.0.0.1", port, dataDir, ...overrides },
  );
  const service = await createService(config);
  beforeListen?.(service);
  await service.listen();
  return {
    service,
    config,
    baseUrl: config.baseUrl,
    newKey: async (email = "user@example.com", name = "test") =>
      (await service.accounts.issueKeyFor(email, name)).key,
    async close() {
      await service.close();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  redirect?: "manual" | "follow";
  /** Abort the request (the call rejects) when no answer came within this many ms. */
  timeoutMs?: number;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<{
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { detail?: string };
  text: string;
}> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body,
    redirect: opts.redirect ?? "manual",
    ...(opts.timeoutMs !== undefined ? { signal: AbortSignal.timeout(opts.timeoutMs) } : {}),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = {};
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A small, fast, valid job: a 1-D periodic column with a glass slab and one monitor. */
export function smallSimulation(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [0.05e-6, 0.05e-6, 3e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 12,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures: [
      { type: "box", center: [0, 0, 0.5e-6], size: [0.05e-6, 0.05e-6, 0.5e-6], material: "SiO2" },
    ],
    monitors: [
      {
        name: "line",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0, 0, 2e-6],
        components: ["Ex", "Ey"],
      },
    ],
    fdtd_settings: { time_steps: 3000, check_every_n: 200, convergence_threshold: 1e-4 },
    metadata: { project: "test", run: 1 },
    ...extra,
  };
}

export async function waitForStatus(
  baseUrl: string,
  key: string,
  jobId: string,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(baseUrl, "GET", `/v1/simulations/${jobId}`, { key });
    if (statuses.includes(String(res.body.status))) return res.body;
    if (Date.now() > end) {
      throw new Error(`job ${jobId} still ${String(res.body.status)} after ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A valid job that runs for minutes (about 4e10 cell-updates): for cancel and crash tests. */
export function longSimulation(): Record<string, unknown> {
  return smallSimulation({
    domain: {
      size: [1e-6, 1e-6, 4e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
    },
    fdtd_settings: { time_steps: 900_000, check_every_n: 1000, convergence_threshold: 0 },
  });
}

/** A 422's field errors as "path: message" lines (asserting it is the validation 422). */
export function fieldErrors(res: Awaited<ReturnType<typeof call>>): string[] {
  assert.equal(res.status, 422, res.text.slice(0, 400));
  assert.equal(res.body.error_code, "validation_error");
  return (res.body.errors as { path: string; message: string }[]).map(
    (e) => `${e.path}: ${e.message}`,
  );
}

/**
 * A JSON POST whose caller hangs up after `ms`: asserts that no answer had come by then (the
 * work was still running when called off), then leaves the server 200 ms to notice.
 */
export async function postAndHangUp(
  url: string,
  key: string,
  body: unknown,
  ms: number,
): Promise<void> {
  const gone = new AbortController();
  const abandoned = fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: gone.signal,
  }).catch((e: Error) => e);
  await new Promise((r) => setTimeout(r, ms));
  gone.abort();
  assert.ok((await abandoned) instanceof Error, `${url} answered before the hang-up`);
  await new Promise((r) => setTimeout(r, 200));
}
