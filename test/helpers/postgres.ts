/**
 * PostgreSQL for tests, never a mock: a fresh database on the machine's shared cluster
 * (EMSIM_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres, as .ci/run sets it
 * up), dropped afterwards; and for fault tests a private cluster of their own (initdb + pg_ctl
 * in a temporary directory, run as the postgres system user), which they may stop and start
 * without disturbing anything else.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";

export const PG_ADMIN_URL =
  process.env.EMSIM_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh database; `drop` removes it (ending its other sessions first). */
export async function freshPgDatabase(
  adminUrl = PG_ADMIN_URL,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `emsim_test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<v>/bin). */
function pgBin(tool: string): string {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  return join("/usr/lib/postgresql", versions[0]!, "bin", tool);
}

/** Runs a PostgreSQL tool as the postgres user (it refuses to run as root). */
function asPostgres(args: string[]): { status: number | null; output: string } {
  const argv = userInfo().uid === 0 ? ["runuser", "-u", "postgres", "--", ...args] : args;
  const res = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8" });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

export interface PrivateCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  start(): void;
  /** `pg_ctl stop -m fast`: connections are cut, as in a restart. */
  stop(): void;
  destroy(): void;
}

/** A private cluster on `port`, trust authentication on 127.0.0.1, started. */
export function privateCluster(port: number): PrivateCluster {
  const dir = mkdtempSync(join(tmpdir(), "emsim-pg-"));
  if (userInfo().uid === 0) {
    const pw = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    chownSync(dir, Number(pw.stdout.trim()), Number(gid.stdout.trim()));
  }
  const data = join(dir, "data");
  const init = asPostgres([pgBin("initdb"), "-D", data, "-A", "trust", "-U", "postgres"]);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.output}`);
  const ctl = (...args: string[]) => {
    const res = asPostgres([pgBin("pg_ctl"), "-D", data, ...args]);
    if (res.status !== 0) throw new Error(`pg_ctl ${args[0]} failed: ${res.output}`);
  };
  const cluster: PrivateCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () =>
      ctl(
        "start",
        "-w",
        "-l",
        join(dir, "log"),
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      ),
    stop: () => ctl("stop", "-w", "-m", "fast"),
    destroy() {
      asPostgres([pgBin("pg_ctl"), "-D", data, "stop", "-m", "immediate"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
