/**
 * Where the client commands find the server and the API key: `EMSIM_BASE_URL` and
 * `EMSIM_API_KEY`, else the profile `emsim login` stored, else the local default server.
 * The profile is `$EMSIM_CONFIG_DIR/profile.json`, or `$XDG_CONFIG_HOME/emsim/profile.json`,
 * or `~/.config/emsim/profile.json`, written with mode 0600 because it holds a key.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { EmsimClient } from "../client/index.js";
import { CliError, EXIT } from "./output.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

type Env = Record<string, string | undefined>;

export interface Profile {
  base_url: string;
  api_key: string;
  /** When `emsim login` wrote it (ISO 8601). */
  saved_at?: string;
}

export interface Connection {
  baseUrl: string;
  apiKey: string | null;
  /** Where each value came from, for messages. */
  baseUrlFrom: "EMSIM_BASE_URL" | "profile" | "default";
  apiKeyFrom: "EMSIM_API_KEY" | "profile" | null;
}

export function configDir(env: Env = process.env): string {
  if (env.EMSIM_CONFIG_DIR) return env.EMSIM_CONFIG_DIR;
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg ? xdg : join(homedir(), ".config"), "emsim");
}

export function profilePath(env: Env = process.env): string {
  return join(configDir(env), "profile.json");
}

/** The stored profile, or null if there is none; a damaged one is an error that says where. */
export async function readProfile(env: Env = process.env): Promise<Profile | null> {
  const path = profilePath(env);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CliError(`cannot read the profile ${path}: ${(err as Error).message}`, EXIT.failure);
  }
  try {
    const p = JSON.parse(text) as Partial<Profile>;
    if (typeof p.base_url !== "string" || typeof p.api_key !== "string") throw new Error();
    return p as Profile;
  } catch {
    throw new CliError(
      `the profile ${path} is damaged; run 'emsim login' again or delete it`,
      EXIT.failure,
    );
  }
}

/** Writes the profile atomically, readable by its owner only (0600, directory 0700). */
export async function writeProfile(profile: Profile, env: Env = process.env): Promise<string> {
  const path = profilePath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFile is subject to the umask and ignored for an existing file.
  await chmod(tmp, 0o600);
  await rename(tmp, path);
  return path;
}

export async function deleteProfile(env: Env = process.env): Promise<boolean> {
  const path = profilePath(env);
  try {
    await rm(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/** Environment over profile over default, separately for the address and the key. */
export async function resolveConnection(env: Env = process.env): Promise<Connection> {
  const profile = await readProfile(env);
  const envUrl = env.EMSIM_BASE_URL?.trim();
  const envKey = env.EMSIM_API_KEY?.trim();
  return {
    baseUrl: envUrl || profile?.base_url || DEFAULT_BASE_URL,
    baseUrlFrom: envUrl ? "EMSIM_BASE_URL" : profile ? "profile" : "default",
    apiKey: envKey || profile?.api_key || null,
    apiKeyFrom: envKey ? "EMSIM_API_KEY" : profile ? "profile" : null,
  };
}

/** Checks a base URL given by a user: an http(s) address without query or fragment. */
export function checkBaseUrl(raw: string, from: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`${from} is not a valid URL: '${raw}'`, EXIT.usage);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CliError(`${from} must be an http:// or https:// address, got '${raw}'`, EXIT.usage);
  }
  return url.href.replace(/\/+$/, "");
}

/** A client for the resolved connection; without a key, says how to provide one. */
export async function connect(env: Env = process.env): Promise<{
  client: EmsimClient;
  connection: Connection;
}> {
  const connection = await resolveConnection(env);
  const from = connection.baseUrlFrom === "EMSIM_BASE_URL" ? "EMSIM_BASE_URL" : "the base URL";
  const baseUrl = checkBaseUrl(connection.baseUrl, from);
  if (!connection.apiKey) {
    throw new CliError(
      "no API key: set EMSIM_API_KEY, or run 'emsim login' to store one (create a key with 'emsim keys create' on the server, or in the dashboard)",
      EXIT.auth,
      { error_code: "missing_api_key" },
    );
  }
  // Three retries (about 1–2 s in all) ride out a server restart without making a plain
  // "server is down" slow to report.
  return {
    client: new EmsimClient({ baseUrl, apiKey: connection.apiKey, retries: 3 }),
    connection,
  };
}
