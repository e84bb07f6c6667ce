/**
 * The PostgreSQL database of a scaled-out deployment: a connection pool shared by the
 * account, session and job stores of a process, migrations that are safe when several
 * processes start at once, and one listening connection for LISTEN/NOTIFY.
 *
 * Every query has a deadline: a pool that cannot connect in `connectTimeoutMs`, or a
 * statement that runs past `statementTimeoutMs`, fails — and a failure that means "the
 * database is not there" becomes a StoreUnavailableError, which the API answers with 503
 * (src/store/errors.ts). Requests never hang on a restarting database.
 */
import { createHash } from "node:crypto";
import pg from "pg";
import { pgDriverUnavailability, StoreUnavailableError } from "../errors.js";
import { PG_MIGRATIONS } from "./migrations.js";

export interface PgOptions {
  connectionString: string;
  /** Connections at most in this process's pool. */
  poolMax: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Called with driver errors that reach no query (an idle connection dropped). */
  onBackgroundError?: (err: Error) => void;
}

/** Advisory-lock key under which migrations run: one process migrates, the others wait. */
const MIGRATION_LOCK = 0x656d7369; // "emsi"

/** Channels the job queue notifies on. */
export const CHANNELS = { queued: "emsim_job_queued", cancel: "emsim_job_cancel" } as const;

/** What the stores run SQL through: a pooled connection, or one inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

/**
 * Every statement runs as a named prepared statement: PostgreSQL parses and plans it once per
 * connection instead of on every request (a status GET is two statements).
 */
const statementNames = new Map<string, string>();
function named(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (!name) {
    name = `emsim_${createHash("sha1").update(text).digest("base64url").slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

function prepared(client: pg.PoolClient): Queryable {
  return { query: (text, values = []) => client.query(named(text, values)) };
}

/**
 * The pool's error without the client pg-pool hangs on it (`err.client`): a log serialising
 * it would write the whole connection, its settings and every prepared statement.
 */
function withoutClient(err: Error): Error {
  if (!("client" in err)) return err;
  const { client: _client, ...fields } = err as Error & Record<string, unknown>;
  return Object.assign(new Error(err.message), fields, { name: err.name, stack: err.stack });
}

function wrap(err: unknown): unknown {
  const reason = pgDriverUnavailability(err);
  return reason ? new StoreUnavailableError(reason, err) : err;
}

export class PgDatabase {
  readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private listenerRetry: NodeJS.Timeout | null = null;
  private readonly channelListeners = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(private readonly options: PgOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolMax,
      connectionTimeoutMillis: options.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: options.statementTimeoutMs,
      query_timeout: options.statementTimeoutMs + 1000,
      application_name: "emsim",
    });
    // An idle client whose server went away emits here; without a handler the process dies.
    this.pool.on("error", (err) => options.onBackgroundError?.(withoutClient(err)));
  }

  /** One statement on any pooled connection. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(named(text, values));
    } catch (err) {
      throw wrap(err);
    }
  }

  /** Runs `fn` in a transaction on one connection; rolled back if it throws. */
  async tx<T>(fn: (client: Queryable) => Promise<T>): Promise<T> {
    const { client, release } = await this.checkOut();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const out = await fn(prepared(client));
      await client.query("COMMIT");
      return out;
    } catch (err) {
      broken = err as Error;
      await client.query("ROLLBACK").catch(() => undefined);
      throw wrap(err);
    } finally {
      // A connection that failed mid-transaction may be dead: release it for disposal then.
      release(broken && pgDriverUnavailability(broken) ? broken : undefined);
    }
  }

  /**
   * Applies pending migrations. `pg_advisory_lock` serialises processes starting together; the
   * version is read only once the lock is held, so each later process sees what the first did.
   */
  async migrate(): Promise<void> {
    const { client, release } = await this.checkOut();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      try {
        await client.query(
          "CREATE TABLE IF NOT EXISTS emsim_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)",
        );
        const row = await client.query<{ version: number }>(
          "SELECT version FROM emsim_schema WHERE id = 1",
        );
        const current = row.rows[0]?.version ?? 0;
        for (let v = current; v < PG_MIGRATIONS.length; v++) {
          await client.query("BEGIN");
          try {
            await client.query(PG_MIGRATIONS[v]!);
            await client.query(
              `INSERT INTO emsim_schema (id, version) VALUES (1, $1)
                 ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
              [v + 1],
            );
            await client.query("COMMIT");
          } catch (err) {
            await client.query("ROLLBACK").catch(() => undefined);
            throw err;
          }
        }
      } finally {
        await client
          .query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK])
          .catch(() => undefined);
      }
    } catch (err) {
      throw wrap(err);
    } finally {
      release();
    }
  }

  /**
   * A connection of the pool, for several statements. The driver reports a connection the
   * server cut (a restart) as an 'error' event on its client too, not only to the statement
   * running; the pool hears that event only while the client is idle in it, and an unheard
   * 'error' ends the process. So a checked-out client is listened to until it goes back, and a
   * client that broke goes back to be discarded. A cut is reported once: the driver emits it
   * again as "Connection terminated unexpectedly" when the socket then closes.
   */
  private async checkOut(): Promise<{ client: pg.PoolClient; release(err?: Error): void }> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw wrap(err);
    }
    let cut: Error | undefined;
    const onError = (err: Error) => {
      if (cut) return;
      cut = err;
      this.options.onBackgroundError?.(err);
    };
    client.on("error", onError);
    const release = (err?: Error) => {
      client.removeListener("error", onError);
      client.release(err ?? cut);
    };
    return { client, release };
  }

  /**
   * Calls `fn` with the payload of every notification on `channel`, from any process. The
   * listening connection reconnects by itself; after a reconnect every listener is called
   * once with an empty payload, since notifications sent meanwhile were lost.
   */
  listen(channel: string, fn: (payload: string) => void): () => void {
    let set = this.channelListeners.get(channel);
    if (!set) {
      set = new Set();
      this.channelListeners.set(channel, set);
      if (this.listener) {
        this.listener.query(`LISTEN ${channel}`).catch(() => undefined);
      }
    }
    set.add(fn);
    if (!this.listener && !this.listenerRetry) void this.connectListener(0);
    return () => set.delete(fn);
  }

  private async connectListener(attempt: number): Promise<void> {
    this.listenerRetry = null;
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      application_name: "emsim-listen",
    });
    const retry = () => {
      if (this.closed || this.listenerRetry) return;
      this.listener = null;
      client.end().catch(() => undefined);
      const delay = Math.min(5000, 100 * 2 ** attempt);
      this.listenerRetry = setTimeout(() => void this.connectListener(attempt + 1), delay);
      this.listenerRetry.unref();
    };
    client.on("error", (err) => {
      this.options.onBackgroundError?.(err);
      retry();
    });
    client.on("end", retry);
    client.on("notification", (msg) => {
      for (const fn of this.channelListeners.get(msg.channel) ?? []) fn(msg.payload ?? "");
    });
    try {
      await client.connect();
      for (const channel of this.channelListeners.keys()) await client.query(`LISTEN ${channel}`);
      this.listener = client;
      if (attempt > 0) {
        for (const set of this.channelListeners.values()) for (const fn of set) fn("");
      }
    } catch (err) {
      this.options.onBackgroundError?.(err as Error);
      retry();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.listenerRetry) clearTimeout(this.listenerRetry);
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}
