/**
 * Local storage's put from another disk (a batch's file is built in the system's temporary
 * folder): the file is copied in under a dotted name of its own and renamed onto its key, so a
 * copy that stops half-way never leaves a short file under the key (audit F4). Here the two
 * disks are real: /dev/shm (a tmpfs) and the temporary folder, where they differ.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalFileStorage } from "./local.js";

const SHM = "/dev/shm";
const OTHER_DISK =
  existsSync(SHM) && statSync(SHM).dev !== statSync(tmpdir()).dev
    ? false
    : "needs /dev/shm on another disk than the temporary folder";

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test(
  "a file from another disk is stored whole, under its key only",
  { skip: OTHER_DISK },
  async () => {
    const root = mkdtempSync(join(tmpdir(), "emsim-storage-"));
    const source = mkdtempSync(join(SHM, "emsim-storage-"));
    made.push(root, source);
    const storage = new LocalFileStorage(root, "http://127.0.0.1:1/storage", "secret");
    const bytes = randomBytes(3 << 20);
    const local = join(source, "batch.h5");
    await writeFile(local, bytes);

    const stored = await storage.putFile("batches/b-1.h5", local);
    assert.deepEqual(stored, { key: "batches/b-1.h5", bytes: bytes.length });
    assert.ok(readFileSync(join(root, "batches", "b-1.h5")).equals(bytes));
    assert.deepEqual(readdirSync(join(root, "batches")), ["b-1.h5"], "a partial copy was left");
    assert.equal(existsSync(local), false, "the source was not removed");
  },
);
