/**
 * Streaming a result file from its pre-signed storage address into `<out>.part`, resuming with
 * `Range` after an interruption (in this call, or a previous one that left the `.part` file),
 * and hashing it on the way. Verification and the final rename are the caller's.
 *
 * The storage address carries its own signature, so the API key is never sent to it.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, stat, truncate } from "node:fs/promises";
import { EmsimApiError, EmsimNetworkError, errorBodyOf } from "./errors.js";
import {
  parseRetryAfter,
  retryDelayMs,
  type RetryPolicy,
  mayHaveBeenSent,
  errorCodes,
} from "./retry.js";

export interface DownloadProgress {
  /** Bytes of the file on disk so far (resumed bytes included). */
  receivedBytes: number;
  /** Size of the whole file when known. */
  totalBytes: number | null;
  /** Bytes that were already in the `.part` file when this download started. */
  resumedFromBytes: number;
}

export interface PartDownload {
  bytes: number;
  sha256: string;
  resumedFromBytes: number;
}

export interface PartDownloadDeps {
  fetch: typeof globalThis.fetch;
  /** A fresh pre-signed address (asks the API; called again when one expires). */
  signedUrl: () => Promise<string>;
  policy: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /** The size the job record announces, used when the storage does not say. */
  expectedBytes: number | null;
  onProgress?: ((p: DownloadProgress) => void) | undefined;
  /** Told before each retry: why, how long it waits, and which consecutive retry it is. */
  onRetry?: ((reason: string, delayMs: number, retry: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

async function sizeOf(path: string): Promise<number> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : 0;
  } catch {
    return 0;
  }
}

async function hashPrefix(path: string, bytes: number): Promise<Hash> {
  const hash = createHash("sha256");
  if (bytes === 0) return hash;
  for await (const chunk of createReadStream(path, { start: 0, end: bytes - 1 })) {
    hash.update(chunk as Buffer);
  }
  return hash;
}

/** Content-Range "bytes 100-199/1000" → {start: 100, total: 1000}; "bytes \*\/1000" (a 416) → {start: null, total: 1000}. */
export function parseContentRange(
  header: string | null,
): { start: number | null; total: number | null } | null {
  if (!header) return null;
  const m = /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)$/.exec(header.trim());
  if (!m) return null;
  return {
    start: m[1] !== undefined ? Number(m[1]) : null,
    total: m[2] === "*" ? null : Number(m[2]),
  };
}

/**
 * Downloads into `partPath`, appending to what is already there. Retries connection failures,
 * interrupted bodies, 429/5xx and expired addresses within `policy.retries` consecutive
 * failures (a retry that made progress resets the count).
 */
// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
export async function downloadPart(
  partPath: string,
  deps: PartDownloadDeps,
): Promise<PartDownload> {
  let offset = await sizeOf(partPath);
  const resumedFromBytes = offset;
  let hash = await hashPrefix(partPath, offset);
  let url: string | null = null;
  let failures = 0;
  let total: number | null = deps.expectedBytes;

  const restart = async () => {
    await truncate(partPath, 0).catch(() => undefined);
    offset = 0;
    hash = createHash("sha256");
  };

  /** Counts a failure; throws `err` once the budget is spent, else waits. */
  const retryOrThrow = async (err: Error, retryAfterMs: number | null = null) => {
    failures++;
    if (failures > deps.policy.retries) throw err;
    if (retryAfterMs !== null && retryAfterMs > deps.policy.maxRetryAfterMs) throw err;
    const delay = retryDelayMs(failures, deps.policy, retryAfterMs, deps.random);
    deps.onRetry?.(err.message, delay, failures);
    await deps.sleep(delay, deps.signal);
  };

  for (;;) {
    if (total !== null && offset === total) break;
    url ??= await deps.signedUrl();
    const headers: Record<string, string> = {};
    if (offset > 0) headers.range = `bytes=${offset}-`;
    let res: Response;
    try {
      res = await deps.fetch(url, {
        headers,
        redirect: "follow",
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
    } catch (err) {
      if (deps.signal?.aborted) throw deps.signal.reason;
      const origin = new URL(url).origin;
      await retryOrThrow(
        new EmsimNetworkError(
          `the storage at ${origin} is not reachable (${errorCodes(err)[0] ?? (err as Error).message})`,
          origin,
          mayHaveBeenSent(err),
          errorCodes(err)[0] ?? null,
          { cause: err },
        ),
      );
      continue;
    }

    if (res.status === 416 && offset > 0) {
      await res.body?.cancel();
      const range = parseContentRange(res.headers.get("content-range"));
      if (range?.total === offset) {
        total = offset;
        break;
      }
      // The part file is longer than the stored file: it belongs to something else.
      await restart();
      continue;
    }
    if (res.status === 403) {
      // Most likely the 15-minute address expired during a long or resumed download.
      const err = new EmsimApiError(403, await errorBodyOf(res));
      url = null;
      await retryOrThrow(err);
      continue;
    }
    if (!res.ok) {
      const err = new EmsimApiError(res.status, await errorBodyOf(res));
      if (res.status === 429 || res.status >= 500) {
        await retryOrThrow(err, parseRetryAfter(res.headers.get("retry-after")));
        continue;
      }
      throw err;
    }

    const range = parseContentRange(res.headers.get("content-range"));
    if (res.status === 206 && range?.start !== offset) {
      await res.body?.cancel();
      await restart();
      continue;
    }
    if (res.status === 200 && offset > 0) await restart(); // the server ignored the Range
    const length = Number(res.headers.get("content-length") ?? NaN);
    if (range?.total != null) total = range.total;
    else if (Number.isFinite(length)) total = offset + length;

    const file = await open(partPath, offset > 0 ? "a" : "w");
    const before = offset;
    try {
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          await file.write(chunk);
          hash.update(chunk);
          offset += chunk.byteLength;
          deps.onProgress?.({ receivedBytes: offset, totalBytes: total, resumedFromBytes });
        }
      }
      if (total !== null && offset < total) throw new Error("the connection closed early");
    } catch (err) {
      await file.close();
      if (deps.signal?.aborted) throw deps.signal.reason;
      if (offset > before) failures = 0;
      const origin = new URL(url).origin;
      await retryOrThrow(
        new EmsimNetworkError(
          `the download from ${origin} was interrupted at ${offset}${total !== null ? ` of ${total}` : ""} bytes (${errorCodes(err)[0] ?? (err as Error).message}); run it again to resume`,
          origin,
          true,
          errorCodes(err)[0] ?? null,
          { cause: err },
        ),
      );
      continue;
    }
    await file.close();
    break;
  }
  return { bytes: offset, sha256: hash.digest("hex"), resumedFromBytes };
}
