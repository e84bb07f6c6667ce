/**
 * Result storage behind one small interface: local files with HMAC-signed download addresses
 * (embedded default) or, later, an S3-compatible bucket with pre-signed URLs.
 */
import type { Readable } from "node:stream";

export interface StoredObject {
  key: string;
  bytes: number;
  /** When it was written (ms since the epoch), where the backend says. */
  modifiedMs?: number;
}

export interface StorageBackend {
  /** Moves (or copies) a finished local file into storage under `key`. */
  putFile(key: string, localPath: string): Promise<StoredObject>;
  /** A download address valid for `ttlSeconds`. */
  signedDownloadUrl(key: string, ttlSeconds: number, downloadName: string): Promise<string>;
  stat(key: string): Promise<StoredObject | null>;
  /**
   * The object key behind a download address this backend signed (expired addresses too), or
   * null when the address is not one of its own or its signature does not check. Never
   * fetches anything.
   */
  resolveSignedUrl(url: string): Promise<{ key: string; expired: boolean } | null>;
  /** Reads bytes [start, end] inclusive, or the whole object (rejects if it is missing). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  delete(key: string): Promise<void>;
  /**
   * The most this storage can ever hold, in bytes (a local disk's size), or null where there
   * is no such bound (a bucket). A result bigger than this is refused at submission.
   */
  capacityBytes(): number | null;
}
