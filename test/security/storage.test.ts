/**
 * Pre-signed storage addresses (`/storage/objects/*`): the signature is the only credential, so
 * tampering and expiry are refused, keys that could leave the results folder are refused even
 * when signed, and the response headers cannot be injected through the download name.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { signingSecretFor } from "../../src/service.js";
import type { LocalFileStorage } from "../../src/storage/local.js";
import { signDownload } from "../../src/storage/signing.js";
import { startService, tempDir, type TestService } from "../helpers/service.js";
import { rawRequest } from "./helpers.js";

let svc: TestService;
let secret: string;
const KEY = "obj-1.h5";
const CONTENT = Buffer.from("0123456789abcdef");

before(async () => {
  svc = await startService({ embeddedWorker: false });
  secret = signingSecretFor(svc.config);
  const src = join(svc.config.dataDir, "upload.h5");
  writeFileSync(src, CONTENT);
  await svc.service.storage.putFile(KEY, src);
  // Files a traversal would be after: the secret and the database sit beside results/.
  const local = svc.service.storage as LocalFileStorage;
  mkdirSync(local.scratchDir(), { recursive: true });
  writeFileSync(join(local.scratchDir(), "scratch.h5"), "scratch");
});
after(async () => svc.close());

/** A path + query signed for `key` (as the server would see it after percent-decoding). */
function signedPath(
  rawKey: string,
  options: { key?: string; expires?: number; name?: string } = {},
) {
  const key = options.key ?? decodeURIComponent(rawKey);
  const expires = options.expires ?? Math.floor(Date.now() / 1000) + 600;
  const name = options.name ?? "emsim-test.h5";
  const q = new URLSearchParams({
    expires: String(expires),
    name,
    signature: signDownload(secret, key, expires, name),
  });
  return `/storage/objects/${rawKey}?${q}`;
}

describe("signed addresses", () => {
  test("a valid address downloads the object, with Range and HEAD", async () => {
    const url = await svc.service.storage.signedDownloadUrl(KEY, 60, "emsim-x.h5");
    const path = new URL(url).pathname + new URL(url).search;
    const full = await rawRequest(svc.baseUrl, path);
    assert.equal(full.status, 200);
    assert.equal(full.text, CONTENT.toString());
    assert.equal(full.headers["content-disposition"], 'attachment; filename="emsim-x.h5"');
    assert.equal(full.headers["cache-control"], "private, no-store");
    const part = await rawRequest(svc.baseUrl, path, { headers: { range: "bytes=2-5" } });
    assert.equal(part.status, 206);
    assert.equal(part.text, "2345");
    const head = await rawRequest(svc.baseUrl, path, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.text, "");
    // Past the end: 416, a JSON error that is no attachment (it carried the file's name).
    for (const range of ["bytes=-0", "bytes=99-"]) {
      const res = await rawRequest(svc.baseUrl, path, { headers: { range } });
      assert.equal(res.status, 416, range);
      assert.equal(res.headers["content-range"], `bytes */${CONTENT.length}`);
      assert.equal(res.headers["content-disposition"], undefined, range);
    }
    // What RFC 9110 §14.2 has a server ignore (another unit) or lets it ignore (several
    // ranges, a range that is no range): the whole file, as if no Range had been sent (416).
    for (const range of ["bytes=0-1,3-4", "bytes=abc", "items=0-1", "bytes=5-2"]) {
      const res = await rawRequest(svc.baseUrl, path, { headers: { range } });
      assert.equal(res.status, 200, range);
      assert.equal(res.text, CONTENT.toString(), range);
    }
  });

  test("a resumed download is the same file's: If-Range with its ETag or date, else the whole file", async () => {
    const url = await svc.service.storage.signedDownloadUrl(KEY, 60, "emsim-x.h5");
    const path = new URL(url).pathname + new URL(url).search;
    const full = await rawRequest(svc.baseUrl, path);
    const etag = full.headers.etag as string;
    const date = full.headers["last-modified"] as string;
    assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
    assert.ok(Number.isFinite(Date.parse(date)), date);
    const resume = (ifRange: string) =>
      rawRequest(svc.baseUrl, path, { headers: { range: "bytes=2-5", "if-range": ifRange } });
    for (const same of [etag, date]) {
      const res = await resume(same);
      assert.equal(res.status, 206, same);
      assert.equal(res.text, "2345");
    }
    for (const other of ['"other"', `W/${etag}`, "Mon, 01 Jan 2001 00:00:00 GMT", "not a date"]) {
      const res = await resume(other);
      assert.equal(res.status, 200, other);
      assert.equal(res.text, CONTENT.toString(), other);
    }
  });

  test("an address missing a part, or with one malformed, is a 403 as a bad signature is", async () => {
    const good = new URL(`http://x${signedPath(KEY)}`);
    const changes: [string, (u: URL) => void][] = [
      ["no query", (u) => (u.search = "")],
      ["no signature", (u) => u.searchParams.delete("signature")],
      ["no expires", (u) => u.searchParams.delete("expires")],
      ["no name", (u) => u.searchParams.delete("name")],
      ["expires not a number", (u) => u.searchParams.set("expires", "abc")],
      ["a long name", (u) => u.searchParams.set("name", "n".repeat(300))],
      ...["expires", "name", "signature"].map((part): [string, (u: URL) => void] => [
        `${part} given twice`,
        (u) => u.searchParams.append(part, u.searchParams.get(part)!),
      ]),
    ];
    for (const [what, change] of changes) {
      const u = new URL(good);
      change(u);
      const res = await rawRequest(svc.baseUrl, u.pathname + u.search);
      assert.equal(res.status, 403, what);
      assert.deepEqual(JSON.parse(res.text).error_code, "forbidden", what);
      assert.doesNotMatch(res.text, /query\.|pattern/, what);
    }
  });

  test("changing the key, expiry, name or signature gives 403 without touching the file", async () => {
    const good = new URL(`http://x${signedPath(KEY)}`);
    const variants: [string, (u: URL) => void][] = [
      [
        "expires",
        (u) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 1)),
      ],
      ["name", (u) => u.searchParams.set("name", "other.h5")],
      ["signature", (u) => u.searchParams.set("signature", "A".repeat(43))],
      [
        "signature case",
        (u) => u.searchParams.set("signature", u.searchParams.get("signature")!.toUpperCase()),
      ],
      [
        "short signature",
        (u) => u.searchParams.set("signature", u.searchParams.get("signature")!.slice(0, 20)),
      ],
      ["key", (u) => (u.pathname = "/storage/objects/obj-2.h5")],
    ];
    for (const [what, change] of variants) {
      const u = new URL(good);
      change(u);
      const res = await rawRequest(svc.baseUrl, u.pathname + u.search);
      assert.equal(res.status, 403, what);
      assert.equal(JSON.parse(res.text).error_code, "forbidden");
    }
    // Leading zeros give the same number: still the same signed expiry, not a new one.
    const zeros = new URL(good);
    zeros.searchParams.set("expires", `00${zeros.searchParams.get("expires")}`);
    assert.equal((await rawRequest(svc.baseUrl, zeros.pathname + zeros.search)).status, 200);
  });

  test("an address past its expiry is refused, however well signed", async () => {
    const past = Math.floor(Date.now() / 1000) - 1;
    const res = await rawRequest(svc.baseUrl, signedPath(KEY, { expires: past }));
    assert.equal(res.status, 403);
    assert.match(JSON.parse(res.text).detail, /expired/);
  });

  test("the download name cannot inject headers or break out of the quoted filename", async () => {
    const name = 'a"b\r\nSet-Cookie: x=1; ../../c\u00e9.h5';
    const res = await rawRequest(svc.baseUrl, signedPath(KEY, { name }));
    assert.equal(res.status, 200);
    assert.match(
      String(res.headers["content-disposition"]),
      /^attachment; filename="[A-Za-z0-9._-]+"$/,
    );
    assert.equal(res.headers["set-cookie"], undefined);
  });
});

describe("object keys", () => {
  const traversals = [
    "../signing-secret",
    "..%2fsigning-secret",
    "%2e%2e/signing-secret",
    "%2e%2e%2fsigning-secret",
    "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "results/../../signing-secret",
    "./obj-1.h5",
    ".incoming/scratch.h5",
    "%2Fetc%2Fpasswd",
    "/etc/passwd",
    "..%5csigning-secret",
    "obj-1.h5%00",
    "obj-1.h5%00.txt",
    "obj-1.h5%0a",
    "obj-1.h5%20",
    "emsim.db",
    "",
    "a".repeat(5000),
  ];

  test("unsigned odd keys are a 403 (the signature is checked first)", async () => {
    for (const raw of traversals) {
      const res = await rawRequest(
        svc.baseUrl,
        `/storage/objects/${raw}?expires=9999999999&name=x.h5&signature=${"A".repeat(43)}`,
      );
      assert.ok([403, 404].includes(res.status), `${raw.slice(0, 40)}: ${res.status}`);
      assert.ok(!res.text.includes("scratch") && !res.text.includes(secret));
    }
  });

  test("even a validly signed key cannot leave the results folder", async () => {
    for (const raw of traversals) {
      const res = await rawRequest(svc.baseUrl, signedPath(raw));
      // 404 (not 403): the signature matched, and the key itself was refused.
      assert.equal(res.status, 404, `${raw.slice(0, 40)}: ${res.text}`);
      assert.ok(!res.text.includes(secret), `${raw.slice(0, 40)} served the signing secret`);
      assert.ok(!res.text.includes("scratch"), `${raw.slice(0, 40)} served a scratch file`);
    }
  });

  test("the storage backend refuses keys outside its alphabet or with dot segments", () => {
    const storage = svc.service.storage as LocalFileStorage;
    for (const key of [
      "../x",
      "a/../../x",
      "/etc/passwd",
      ".incoming/x",
      "a//b",
      "a/",
      "a\u0000b",
      "a\\..\\b",
      "a\nb",
      "..",
      ".",
      "",
      "a/.hidden",
    ]) {
      assert.throws(() => storage.pathOf(key), /invalid object key/, JSON.stringify(key));
    }
    assert.ok(storage.pathOf("a/b-1.h5").startsWith(storage.root));
  });
});

describe("on the machine", () => {
  test("a new data directory and the folders made in it are readable by their user alone", async () => {
    const parent = tempDir("emsim-private-");
    const fresh = await startService({ dataDir: join(parent, "data"), embeddedWorker: false });
    try {
      const src = join(parent, "upload.h5");
      writeFileSync(src, CONTENT);
      await fresh.service.storage.putFile("deep/obj.h5", src);
      const local = fresh.service.storage as LocalFileStorage;
      for (const dir of [fresh.config.dataDir, dirname(local.pathOf("deep/obj.h5"))]) {
        assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
      }
    } finally {
      await fresh.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });

  test("an existing data directory open to others is made private at start", async () => {
    // An operator's mkdir left it 0755, and the server kept it so: its SQLite file (0644)
    // and the key hashes in it were readable by every user of the machine (an outside audit).
    const dir = tempDir("emsim-open-");
    chmodSync(dir, 0o755);
    const svc = await startService({ dataDir: dir, embeddedWorker: false });
    try {
      assert.equal(statSync(dir).mode & 0o777, 0o700);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
