/**
 * Issue #10, defect 9: processes started together on an empty data directory race on the
 * schema migrations. Every one of them must succeed, round after round.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cli, cliCommand } from "../helpers/process.js";
import { tempDir } from "../helpers/service.js";

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, ...rest] = cliCommand(args);
  return new Promise((resolve) => {
    const child = spawn(command!, rest, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("four `emsim keys create` on an empty data directory all succeed, in every round", async () => {
  for (let round = 0; round < 3; round++) {
    const dataDir = tempDir();
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        run([
          "keys",
          "create",
          "--email",
          `same@example.com`,
          "--name",
          `k${i}`,
          "--data-dir",
          dataDir,
        ]),
      ),
    );
    for (const r of results) assert.equal(r.code, 0, `round ${round}: ${r.stderr}`);
    const keys = new Set(results.map((r) => r.stdout.trim()));
    assert.equal(keys.size, 4);
    const listed = cli(["keys", "list", "--json", "--data-dir", dataDir]);
    assert.equal(listed.status, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as { account_id: string }[];
    assert.equal(rows.length, 4);
    assert.equal(new Set(rows.map((r) => r.account_id)).size, 1, "one account for one email");
    // snake_case, as everything else the CLI prints.
    assert.deepEqual(Object.keys(rows[0]!).sort(), [
      "account_id",
      "created_at",
      "display_prefix",
      "id",
      "last_used_at",
      "name",
      "revoked_at",
    ]);
  }
});

test("three `emsim worker` started together on an empty data directory all come up", async () => {
  for (let round = 0; round < 3; round++) {
    const dataDir = tempDir();
    const children = [0, 1, 2].map(() => {
      const [command, ...rest] = cliCommand(["worker", "--data-dir", dataDir]);
      const child = spawn(command!, rest, { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const up = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start in 30 s: ${stderr}`)), 30_000);
        child.stderr.on("data", () => {
          if (/emsim worker \S+ polling/.test(stderr)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`round ${round}: worker exited ${code}: ${stderr}`));
        });
      });
      return { child, up };
    });
    try {
      await Promise.all(children.map((c) => c.up));
    } finally {
      for (const { child } of children) child.kill("SIGKILL");
    }
  }
});
