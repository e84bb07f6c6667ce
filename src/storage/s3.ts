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
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import type { StorageBackend, StoredObject } from "./types.js";

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
export class S3StorageError extends Error {
  constructor(operation: string, key: string, cause: unknown) {
    const e = cause as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e?.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : "";
    super(
      `S3 ${operation} of '${key}' failed${status}: ${e?.name ?? "Error"}: ${e?.message ?? cause}`,
      {
        cause,
      },
    );
    this.name = "S3StorageError";
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
  private readonly multipartThreshold: number;
  private readonly partBytes: number;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix.replace(/^\/+|\/+$/g, "");
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
            ContentType: "application/x-hdf5",
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
          ContentType: "application/x-hdf5",
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
        ResponseContentType: "application/x-hdf5",
      }),
      { expiresIn: ttlSeconds },
    );
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
}
