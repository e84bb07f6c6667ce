/** The embedded stores: one SQLite file (in the data directory) for every concern. */
import type { Stores } from "../types.js";
import { SqliteAccountStore } from "./accounts.js";
import { SqliteBatchStore } from "./batches.js";
import { SqliteDatabase } from "./database.js";
import { SqliteJobQueue } from "./jobs.js";
import { SqliteSessionStore } from "./sessions.js";

export function openSqliteStores(path: string): Stores & { database: SqliteDatabase } {
  const database = new SqliteDatabase(path);
  const jobs = new SqliteJobQueue(database);
  return {
    kind: "sqlite",
    database,
    accounts: new SqliteAccountStore(database),
    sessions: new SqliteSessionStore(database),
    jobs,
    batches: new SqliteBatchStore(database, jobs),
    async probeWrite(now: string) {
      database
        .sql(
          `INSERT INTO health_probe (id, checked_at) VALUES (1, ?)
             ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`,
        )
        .run(now);
    },
    async close() {
      database.close();
    },
  };
}
