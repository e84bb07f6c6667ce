/**
 * The composition root's choice of database: EMSIM_DATABASE_URL unset (or a `sqlite:` path)
 * opens the embedded SQLite file in the data directory; `postgres://…` opens PostgreSQL, whose
 * driver is loaded only then.
 */
import { join, resolve } from "node:path";
import type { Config } from "../config.js";
import { openSqliteStores } from "./sqlite/index.js";
import type { Stores } from "./types.js";

export async function openStores(
  config: Config,
  onBackgroundError: (err: Error) => void = () => undefined,
): Promise<Stores> {
  const url = config.databaseUrl;
  if (url === null) return openSqliteStores(join(config.dataDir, "emsim.sqlite"));
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgresStores } = await import("./postgres/index.js");
    return openPostgresStores({
      connectionString: url,
      poolMax: config.databasePoolMax,
      connectTimeoutMs: 5000,
      statementTimeoutMs: 15_000,
      onBackgroundError,
    });
  }
  return openSqliteStores(resolve(url.replace(/^sqlite:(\/\/)?/, "")));
}
