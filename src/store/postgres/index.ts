/** The stores of a scaled-out deployment: one PostgreSQL database for every concern. */
import type { Stores } from "../types.js";
import { PgAccountStore } from "./accounts.js";
import { PgBatchStore } from "./batches.js";
import { PgDatabase, type PgOptions } from "./database.js";
import { PgJobQueue } from "./jobs.js";
import { PgSessionStore } from "./sessions.js";

/** Connects, applies pending migrations (safe when several processes start at once), opens. */
export async function openPostgresStores(
  options: PgOptions,
): Promise<Stores & { database: PgDatabase }> {
  const database = new PgDatabase(options);
  try {
    await database.migrate();
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
  return {
    kind: "postgres",
    database,
    accounts: new PgAccountStore(database),
    sessions: new PgSessionStore(database),
    jobs: new PgJobQueue(database),
    batches: new PgBatchStore(database),
    async probeWrite(now: string) {
      await database.query(
        `INSERT INTO health_probe (id, checked_at) VALUES (1, $1)
           ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`,
        [now],
      );
    },
    close: () => database.close(),
  };
}
