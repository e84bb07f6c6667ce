/**
 * Local-file storage: objects are files under `<dataDir>/results/`, downloaded through
 * `{storageUrl}/objects/<key>?expires=…&name=…&signature=…`, which the same server answers
 * (src/http/routes/storage/download.ts) after checking the HMAC signature and expiry.
 */
import { randomUUID } from "node:crypto";
import { createReadStream, statfsSync } from "node:fs";
import { copyFile, mkdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { Readable } from "node:stream";
import { signDownload, verifyDownload, type SignatureCheck } from "./signing.js";
import type { StorageBackend, StoredObject } from "./types.js";

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/**
 * A file from another disk (a batch's file, built in the system's temporary folder) copied in
 * under a name of its own beside `target`, then renamed onto it: a copy that stops half-way (a
 * full disk, a killed process) never leaves a short file under the object's key, where it
 * would be served. The name starts with a dot, which no key may, and a failed copy removes it.
 */
async function copyInto(localPath: string, target: string): Promise<void> {
  const partial = join(dirname(target), `.${basename(target)}.${randomUUID()}.part`);
  try {
    await copyFile(localPath, partial);
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

export class LocalFileStorage implements StorageBackend {
  readonly root: string;
  private capacity: number | null = null;

  constructor(
    root: string,
    private readonly storageUrl: string,
    private readonly secret: string,
  ) {
    this.root = resolve(root);
  }

  /** Path of an object; refuses keys that could leave the root. */
  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.includes("..")) throw new Error(`invalid object key ${key}`);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid object key ${key}`);
    return path;
  }

  /** The disk's size, asked once it is known (admission asks on every submission). */
  capacityBytes(): number | null {
    if (this.capacity === null) {
      try {
        const disk = statfsSync(this.root);
        this.capacity = disk.blocks * disk.bsize;
      } catch {
        // not created yet: the first write will say
      }
    }
    return this.capacity;
  }

  async putFile(key: string, localPath: string): Promise<StoredObject> {
    const target = this.pathOf(key);
    // Readable by this user alone: every account's results (the data directory's rule).
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    try {
      await rename(localPath, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
      await copyInto(localPath, target);
      await rm(localPath, { force: true });
    }
    return { key, bytes: (await stat(target)).size };
  }

  /** Whether a download address's signature (see signedDownloadUrl) is ours and current. */
  checkSignature(key: string, expires: number, name: string, signature: string): SignatureCheck {
    return verifyDownload(
      this.secret,
      key,
      expires,
      name,
      signature,
      Math.floor(Date.now() / 1000),
    );
  }

  async signedDownloadUrl(key: string, ttlSeconds: number, downloadName: string): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const signature = signDownload(this.secret, key, expires, downloadName);
    const q = new URLSearchParams({ expires: String(expires), name: downloadName, signature });
    return `${this.storageUrl}/objects/${key.split("/").map(encodeURIComponent).join("/")}?${q}`;
  }

  async resolveSignedUrl(url: string): Promise<{ key: string; expired: boolean } | null> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const prefix = `${this.storageUrl}/objects/`;
    const address = `${parsed.origin}${parsed.pathname}`;
    if (!address.startsWith(prefix)) return null;
    let key: string;
    try {
      key = address.slice(prefix.length).split("/").map(decodeURIComponent).join("/");
      this.pathOf(key);
    } catch {
      return null;
    }
    const expires = Number(parsed.searchParams.get("expires"));
    if (!Number.isInteger(expires)) return null;
    const check = this.checkSignature(
      key,
      expires,
      parsed.searchParams.get("name") ?? "",
      parsed.searchParams.get("signature") ?? "",
    );
    return check === "invalid" ? null : { key, expired: check === "expired" };
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { key, bytes: s.size, modifiedMs: s.mtimeMs } : null;
    } catch {
      return null;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const stream = createReadStream(
      this.pathOf(key),
      range ? { start: range.start, end: range.end } : {},
    );
    // Open before resolving, so that a missing object rejects here, not mid-response.
    await new Promise<void>((resolve, reject) => {
      stream.once("open", () => resolve());
      stream.once("error", reject);
    });
    return stream;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Where a worker writes a file before `putFile` moves it in (same filesystem). */
  scratchDir(): string {
    return join(this.root, ".incoming");
  }
}
