/**
 * A disk that refused a file on its way into storage (full, or over its quota), told apart so
 * that the API answers 503 "nothing was stored, try again" instead of 500, as it does for a
 * database on a full disk (src/store/errors.ts). The HTTP layer asks `diskRefusedWrite`.
 */

/**
 * A file that could not be written whole for want of a disk that takes it (a full disk, a
 * failing one), where no errno says so: HDF5 reports its refusals only on stderr, and a
 * result file that does not read back as written is one (src/results/read-back.ts).
 */
export class DiskWriteError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DiskWriteError";
  }
}

/**
 * A storage service (S3) that failed a request: unreachable, stalled past its time-out, or
 * answering with an error. The API answers 503 "try again", as for a database it cannot use.
 * `outage` where trying again later may pass (no answer, a time-out, a 5xx or 429), not where
 * the service refused the request (a 403, a missing bucket).
 */
export class StorageServiceError extends Error {
  constructor(
    message: string,
    options?: ErrorOptions,
    readonly outage = true,
  ) {
    super(message, options);
  }
}

/** Whether `err` is a failure of the storage service (StorageServiceError). */
export function storageServiceFailed(err: unknown): boolean {
  return err instanceof StorageServiceError;
}

/** Whether `err` is a storage service that may take the request again later. */
export function storageOutage(err: unknown): boolean {
  return err instanceof StorageServiceError && err.outage;
}

/** errno codes of a disk that takes no more data: full, or the owner's quota used up. */
const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT"]);

/** Whether `err` is a disk that refused a write (and space freed later would let it pass). */
export function diskRefusedWrite(err: unknown): boolean {
  if (err instanceof DiskWriteError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && DISK_FULL_CODES.has(code);
}
