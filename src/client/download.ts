/**
 * Streaming a result file from its pre-signed storage address into `<out>.part`, resuming with
 * `Range` after an interruption (in this call, or a previous one that left the `.part` file),
 * and hashing it on the way. Verification and the final rename are the caller's.
 *
 * The storage address carries its own signature, so the API key is never sent to it.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rm, stat, truncate } from "node:fs/promises";
import { EmsimApiError, EmsimError, EmsimNetworkError, errorBodyOf } from "./errors.js";
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
export async function downloadPart(
  partPath: string,
  deps: PartDownloadDeps,
): Promise<PartDownload> {
  let resumedFromBytes = await sizeOf(partPath);
  if (deps.expectedBytes !== null && resumedFromBytes > deps.expectedBytes) {
    // Longer than the whole file: no beginning of it.
    await rm(partPath, { force: true });
    resumedFromBytes = 0;
  }
  const hash = await hashPrefix(partPath, resumedFromBytes);
  const download = new ResumableDownload(partPath, deps, resumedFromBytes, hash);
  await download.run();
  return download.result();
}

/** What a response's status says: read its body, ask again, or the part file is whole. */
type Verdict = "read" | "again" | "whole";

/** One download into a part file: what it has so far, carried from attempt to attempt. */
class ResumableDownload {
  /** Bytes in the part file, every one of them in `hash`. */
  private offset: number;
  /** The signed address; null until asked for, and again once it has expired. */
  private url: string | null = null;
  /** Consecutive failures. */
  private failures = 0;
  /** The size of the whole file, once known. */
  private total: number | null;

  constructor(
    private readonly partPath: string,
    private readonly deps: PartDownloadDeps,
    private readonly resumedFromBytes: number,
    private hash: Hash,
  ) {
    this.offset = resumedFromBytes;
    this.total = deps.expectedBytes;
  }

  async run(): Promise<void> {
    for (;;) {
      if (this.total !== null && this.offset === this.total) return;
      this.url ??= await this.deps.signedUrl();
      const url = this.url;
      const res = await this.request(url);
      if (!res) continue;
      const verdict = await this.judgeStatus(res);
      if (verdict === "whole") return;
      if (verdict === "again" || !(await this.placeBody(res))) continue;
      if (await this.receive(res, url)) return;
    }
  }

  result(): PartDownload {
    return {
      bytes: this.offset,
      sha256: this.hash.digest("hex"),
      resumedFromBytes: this.resumedFromBytes,
    };
  }

  /** Asks for the bytes from `offset` on; null when the storage was not reached (retried). */
  private async request(url: string): Promise<Response | null> {
    const headers: Record<string, string> = {};
    if (this.offset > 0) headers.range = `bytes=${this.offset}-`;
    try {
      return await this.deps.fetch(url, {
        headers,
        redirect: "follow",
        ...(this.deps.signal ? { signal: this.deps.signal } : {}),
      });
    } catch (err) {
      if (this.deps.signal?.aborted) throw this.deps.signal.reason;
      const origin = new URL(url).origin;
      await this.retryOrThrow(
        new EmsimNetworkError(
          `the storage at ${origin} is not reachable (${errorCodes(err)[0] ?? (err as Error).message})`,
          origin,
          mayHaveBeenSent(err),
          errorCodes(err)[0] ?? null,
          { cause: err },
        ),
      );
      return null;
    }
  }

  /** The error statuses: a range past the end, an expired address, and the rest. */
  private async judgeStatus(res: Response): Promise<Verdict> {
    if (res.status === 416 && this.offset > 0) {
      await res.body?.cancel();
      const range = parseContentRange(res.headers.get("content-range"));
      if (range?.total === this.offset) {
        this.total = this.offset;
        return "whole";
      }
      // The part file is longer than the stored file: it belongs to something else.
      await this.restart();
      return "again";
    }
    if (res.status === 403) {
      // Most likely the 15-minute address expired during a long or resumed download.
      const err = new EmsimApiError(403, await errorBodyOf(res));
      this.url = null;
      await this.retryOrThrow(err);
      return "again";
    }
    if (!res.ok) {
      const err = new EmsimApiError(res.status, await errorBodyOf(res));
      if (res.status === 429 || res.status >= 500) {
        await this.retryOrThrow(err, parseRetryAfter(res.headers.get("retry-after")));
        return "again";
      }
      throw err;
    }
    return "read";
  }

  /**
   * Where a successful body starts: at `offset` (appended), or at zero (the part file is
   * started again); false when a range starts elsewhere, to ask again from zero. Learns the
   * file's size from the headers.
   */
  private async placeBody(res: Response): Promise<boolean> {
    const range = parseContentRange(res.headers.get("content-range"));
    if (res.status === 206 && range?.start !== this.offset) {
      await res.body?.cancel();
      await this.restart();
      return false;
    }
    if (res.status === 200 && this.offset > 0) await this.restart(); // the server ignored the Range
    const length = Number(res.headers.get("content-length") ?? NaN);
    if (range?.total != null) this.total = range.total;
    else if (Number.isFinite(length)) this.total = this.offset + length;
    return true;
  }

  /** Writes and hashes the body; false when it broke off (the failure is counted and waited). */
  private async receive(res: Response, url: string): Promise<boolean> {
    const file = await open(this.partPath, this.offset > 0 ? "a" : "w");
    const before = this.offset;
    let writing = false;
    try {
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          writing = true;
          await file.write(chunk);
          writing = false;
          this.hash.update(chunk);
          this.offset += chunk.byteLength;
          this.deps.onProgress?.({
            receivedBytes: this.offset,
            totalBytes: this.total,
            resumedFromBytes: this.resumedFromBytes,
          });
        }
      }
      if (this.total !== null && this.offset < this.total) {
        throw new Error("the connection closed early");
      }
    } catch (err) {
      await file.close();
      if (this.deps.signal?.aborted) throw this.deps.signal.reason;
      if (writing) throw this.localWriteError(err);
      if (this.offset > before) this.failures = 0;
      const origin = new URL(url).origin;
      await this.retryOrThrow(
        new EmsimNetworkError(
          `the download from ${origin} was interrupted at ${this.offset}${this.total !== null ? ` of ${this.total}` : ""} bytes (${errorCodes(err)[0] ?? (err as Error).message}); run it again to resume`,
          origin,
          true,
          errorCodes(err)[0] ?? null,
          { cause: err },
        ),
      );
      return false;
    }
    await file.close();
    return true;
  }

  /** The part file refused a write (a full disk, most often): not the network's failure. */
  private localWriteError(err: unknown): EmsimError {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOSPC" ? "no space left on its disk" : (err as Error).message;
    return new EmsimError(
      `could not write ${this.partPath}: ${why}${code ? ` (${code})` : ""}; the ${this.offset} bytes ` +
        "received are kept there: make room and run it again to resume",
      { cause: err },
    );
  }

  /** Empties the part file, to write the file from its first byte. */
  private async restart(): Promise<void> {
    await truncate(this.partPath, 0).catch(() => undefined);
    this.offset = 0;
    this.hash = createHash("sha256");
  }

  /** Counts a failure; throws `err` once the budget is spent, else waits. */
  private async retryOrThrow(err: Error, retryAfterMs: number | null = null): Promise<void> {
    this.failures++;
    const { policy } = this.deps;
    if (this.failures > policy.retries) throw err;
    if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) throw err;
    const delay = retryDelayMs(this.failures, policy, retryAfterMs, this.deps.random);
    this.deps.onRetry?.(err.message, delay, this.failures);
    await this.deps.sleep(delay, this.deps.signal);
  }
}
