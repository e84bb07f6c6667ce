/**
 * Result storage in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph…), for services whose
 * workers and API servers share no disk. Objects live under `prefix/`. Downloads are
 * pre-signed GET addresses that the object store itself serves (Range included), so the API
 * needs no route and no secret of its own for them.
 *
 * Uploads above `multipartThresholdBytes` go up in parts, one after another (a worker uploads
 * one file at a time; its bandwidth, not parallel parts, is the limit), and a failed upload is
 * aborted so that no parts are left behind. Checksums are computed only when S3 requires them:
 * the SDK's default trailing checksum on streamed bodies is stored as part of the object by
 * some S3-compatible servers (NOTES.md), corrupting it.
 *
 * Every request has a deadline and a bounded number of attempts: an unreachable store fails
 * a call in seconds, and the worker then retries the job or fails it with a clear message.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { timingSafeEqual } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import type { StorageBackend, StoredObject } from "./types.js";
import { StorageServiceError } from "./errors.js";

export interface S3StorageOptions {
  bucket: string;
  /** Key prefix inside the bucket, without slashes at either end ("" for none). */
  prefix: string;
  /** An S3-compatible endpoint; null for AWS. Path-style addresses are used with one. */
  endpoint: string | null;
  region: string;
  /** Files larger than this go up as multipart uploads (≥ 5 MiB, S3's smallest part). */
  multipartThresholdBytes?: number;
  /** Part size of multipart uploads (≥ 5 MiB). */
  partBytes?: number;
  /** Time to open a connection, and the longest silence of a request, in ms. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Attempts per request (the SDK's retries with back-off). */
  maxAttempts?: number;
  /** Explicit credentials (tests); otherwise the standard AWS credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const MiB = 1024 * 1024;

/** A failure of the object store, worded without credentials or signed addresses. */
export class S3StorageError extends StorageServiceError {
  constructor(operation: string, key: string, cause: unknown) {
    const e = cause as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const code = e?.$metadata?.httpStatusCode;
    const status = code ? ` (HTTP ${code})` : "";
    super(
      `S3 ${operation} of '${key}' failed${status}: ${e?.name ?? "Error"}: ${e?.message ?? cause}`,
      { cause },
      code === undefined || code >= 500 || code === 429,
    );
    this.name = "S3StorageError";
  }
}

/** Results are HDF5; layouts from the fabrication interface GDS II. */
function contentTypeOf(key: string): string {
  return key.endsWith(".gds") ? "application/octet-stream" : "application/x-hdf5";
}

function decodeURIComponentSafe(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

export class S3Storage implements StorageBackend {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  /** Path-style addresses (with an endpoint): /bucket/key; else bucket.host/key. */
  private readonly pathStyle: boolean;
  private readonly multipartThreshold: number;
  private readonly partBytes: number;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix.replace(/^\/+|\/+$/g, "");
    this.pathStyle = options.endpoint !== null;
    this.partBytes = Math.max(5 * MiB, options.partBytes ?? 16 * MiB);
    this.multipartThreshold = Math.max(5 * MiB, options.multipartThresholdBytes ?? 16 * MiB);
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: options.maxAttempts ?? 3,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? 5000,
        requestTimeout: options.requestTimeoutMs ?? 60_000,
        // A request that stalls that long fails (and is tried again): by default the SDK only
        // logged it and waited on, and a worker storing a result waited for ever.
        throwOnRequestTimeout: true,
      },
    });
  }

  /** The object's key in the bucket. */
  private objectKey(key: string): string {
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  async putFile(key: string, localPath: string): Promise<StoredObject> {
    const bytes = (await stat(localPath)).size;
    const Key = this.objectKey(key);
    if (bytes <= this.multipartThreshold) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key,
            Body: createReadStream(localPath),
            ContentLength: bytes,
            ContentType: contentTypeOf(key),
          }),
        );
      } catch (err) {
        throw new S3StorageError("upload", Key, err);
      }
    } else {
      await this.putMultipart(Key, localPath, bytes);
    }
    // What the store holds now, so that the caller can compare it with what it sent.
    const stored = await this.stat(key);
    if (!stored) throw new S3StorageError("upload", Key, new Error("the object is not there"));
    return stored;
  }

  private async putMultipart(Key: string, localPath: string, bytes: number): Promise<void> {
    let uploadId: string | undefined;
    try {
      const created = await this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key,
          ContentType: contentTypeOf(Key),
        }),
      );
      uploadId = created.UploadId;
      const parts: CompletedPart[] = [];
      const file = await open(localPath, "r");
      try {
        const buffer = Buffer.allocUnsafe(this.partBytes);
        for (let offset = 0, part = 1; offset < bytes; offset += this.partBytes, part++) {
          const length = Math.min(this.partBytes, bytes - offset);
          const { bytesRead } = await file.read(buffer, 0, length, offset);
          if (bytesRead !== length) throw new Error(`short read at byte ${offset}`);
          const uploaded = await this.client.send(
            new UploadPartCommand({
              Bucket: this.bucket,
              Key,
              UploadId: uploadId,
              PartNumber: part,
              Body: buffer.subarray(0, length),
              ContentLength: length,
            }),
          );
          parts.push({ ETag: uploaded.ETag, PartNumber: part });
        }
      } finally {
        await file.close();
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      if (uploadId) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw new S3StorageError("multipart upload", Key, err);
    }
  }

  async signedDownloadUrl(key: string, ttlSeconds: number, downloadName: string): Promise<string> {
    const safeName = downloadName.replace(/[^A-Za-z0-9._-]/g, "_");
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        ResponseContentDisposition: `attachment; filename="${safeName}"`,
        ResponseContentType: contentTypeOf(key),
      }),
      { expiresIn: ttlSeconds },
    );
  }

  /**
   * Resolves a pre-signed address of ours by signing it again: the same object, response
   * headers, signing time and lifetime must give the same SigV4 signature (so only this
   * backend's credentials can have made it). Expired addresses resolve too.
   */
  async resolveSignedUrl(url: string): Promise<{ key: string; expired: boolean } | null> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    let objectPath = parsed.pathname.split("/").map(decodeURIComponentSafe);
    if (objectPath.some((p) => p === null)) return null;
    objectPath = objectPath.slice(1);
    if (this.pathStyle) {
      if (objectPath[0] !== this.bucket) return null;
      objectPath = objectPath.slice(1);
    } else if (!parsed.hostname.startsWith(`${this.bucket}.`)) {
      return null;
    }
    const objectKey = objectPath.join("/");
    const prefix = this.prefix ? `${this.prefix}/` : "";
    if (!objectKey.startsWith(prefix) || objectKey.length === prefix.length) return null;
    const q = parsed.searchParams;
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get("X-Amz-Date") ?? "");
    const expiresIn = Number(q.get("X-Amz-Expires"));
    const signature = q.get("X-Amz-Signature") ?? "";
    if (!date || !Number.isInteger(expiresIn) || expiresIn <= 0 || !signature) return null;
    const signingDate = new Date(
      Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!),
    );
    const again = new URL(
      await getSignedUrl(
        this.client,
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ResponseContentDisposition: q.get("response-content-disposition") ?? undefined,
          ResponseContentType: q.get("response-content-type") ?? undefined,
        }),
        { expiresIn, signingDate },
      ),
    );
    const expected = Buffer.from(again.searchParams.get("X-Amz-Signature") ?? "");
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const key = objectKey.slice(prefix.length);
    return { key, expired: Date.now() > signingDate.getTime() + expiresIn * 1000 };
  }

  async stat(key: string): Promise<StoredObject | null> {
    const Key = this.objectKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return { key, bytes: Number(head.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw new S3StorageError("lookup", Key, err);
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const Key = this.objectKey(key);
    try {
      const got = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return got.Body as Readable;
    } catch (err) {
      throw new S3StorageError("download", Key, err);
    }
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (err) {
      throw new S3StorageError("delete", Key, err);
    }
  }

  capacityBytes(): null {
    return null; // a bucket has no size to fill
  }
}
