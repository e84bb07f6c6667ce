import { join } from "node:path";
import type { Config } from "../config.js";
import { SqliteStore } from "./sqlite.js";
import type { Store } from "./types.js";

/** The job store for a configuration: the embedded SQLite file in the data directory. */
export function openStore(config: Config): Store {
  return new SqliteStore(join(config.dataDir, "emsim.sqlite"));
}
