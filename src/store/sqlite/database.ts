/**
 * The embedded database: one SQLite file in WAL mode, shared by the account, session and job
 * stores of a process (and by every process using the same data directory). Writes that read
 * first run in `BEGIN IMMEDIATE` transactions, which take SQLite's write lock before reading,
 * so two processes sharing the file serialise on check-then-write (admission, claims) and
 * cannot both pass; the busy timeout makes the second one wait rather than fail.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { SQLITE_MIGRATIONS } from "./migrations.js";
import { SqliteReadCache } from "./read-cache.js";
import type { Row } from "./rows.js";

export class SqliteDatabase {
  readonly db: Database.Database;
  /** Key lookups and jobs by id, kept until the database changes (read-cache.ts). */
  readonly readCache: SqliteReadCache;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.db = new Database(path);
    // The busy timeout first: switching to WAL takes a lock another process may hold.
    this.db.pragma("busy_timeout = 10000");
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    // FULL: a 202 promises the job is stored; WAL + FULL syncs the log at every commit.
    this.db.pragma("synchronous = FULL");
    this.migrate();
    this.readCache = new SqliteReadCache(this.db);
  }

  /** A prepared statement, prepared once per SQL text (preparing costs more than running). */
  sql(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      stmt = this.db.prepare(text);
      this.statements.set(text, stmt);
    }
    return stmt;
  }

  /** Runs `fn` in a `BEGIN IMMEDIATE` transaction (the write lock taken before any read). */
  immediate<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * The first row an `INSERT/UPDATE … RETURNING` gives back, once its write is committed; use
   * it for every such statement outside `immediate`. Not `.get()` alone: in autocommit SQLite
   * commits when the statement finishes, and `.get()` finishes it by a reset after the first
   * row, whose error better-sqlite3 drops, so a commit the disk refused (SQLITE_FULL) read as
   * success and returned a row that was never stored (durability audit F1). In a transaction
   * the COMMIT is a statement of its own, whose error is raised.
   */
  returning(text: string, ...params: unknown[]): Row | undefined {
    return this.immediate(() => this.sql(text).get(...params) as Row | undefined);
  }

  private migrate(): void {
    // The version is read inside the write transaction: processes starting together on an
    // empty data directory each wait for the lock and then see what the first one applied.
    this.immediate(() => {
      const current = this.db.pragma("user_version", { simple: true }) as number;
      for (let v = current; v < SQLITE_MIGRATIONS.length; v++) {
        this.db.exec(SQLITE_MIGRATIONS[v]!);
        this.db.pragma(`user_version = ${v + 1}`);
      }
    });
  }

  close(): void {
    this.db.close();
  }
}
