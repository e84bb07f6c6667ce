/**
 * `emsim login [--key K] [--base-url U]`: check an API key against the server and store it
 * with the address in the profile (mode 0600). `emsim logout` deletes the profile.
 */
import { EmsimClient } from "../../client/index.js";
import {
  CliError,
  defaultIo,
  EXIT,
  printJson,
  runClientCommand,
  type CommandIo,
} from "../output.js";
import {
  checkBaseUrl,
  DEFAULT_BASE_URL,
  deleteProfile,
  profilePath,
  readProfile,
  writeProfile,
} from "../profile.js";
import { parse, UsageError } from "../usage.js";

/** Reads a line from a terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    process.stderr.write(question);
    let value = "";
    const done = (err: Error | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return done(null);
        if (ch === "\u0003") {
          const err = new Error("interrupted");
          err.name = "AbortError";
          return done(err);
        }
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.resume();
  });
}

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? "";
}

export async function runLogin(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values } = parse(args, {
    key: { type: "string" },
    "base-url": { type: "string" },
    json: { type: "boolean" },
  });
  io = { ...io, json: values.json === true };
  return runClientCommand(io, async () => {
    const previous = await readProfile().catch(() => null);
    const rawUrl =
      values["base-url"] ?? process.env.EMSIM_BASE_URL ?? previous?.base_url ?? DEFAULT_BASE_URL;
    const baseUrl = checkBaseUrl(rawUrl, values["base-url"] ? "--base-url" : "the base URL");
    let key = values.key;
    if (key === undefined) {
      key = process.stdin.isTTY
        ? await promptHidden(`API key for ${baseUrl}: `)
        : await readStdin();
    }
    key = key.trim();
    if (!key) throw new UsageError("login needs an API key (--key, or type it when asked)");

    // An authenticated request that changes nothing: a wrong key is refused (401, exit 3)
    // before anything is written.
    const client = new EmsimClient({ baseUrl, apiKey: key, retries: 1 });
    await client.list({ limit: 1 });

    const path = await writeProfile({
      base_url: baseUrl,
      api_key: key,
      saved_at: new Date().toISOString(),
    });
    if (io.json) printJson(io, { base_url: baseUrl, profile: path });
    else {
      io.stdout.write(`Logged in to ${baseUrl}; profile written to ${path} (mode 0600).\n`);
    }
    const overriding = ["EMSIM_API_KEY", "EMSIM_BASE_URL"].filter((v) => process.env[v]);
    if (overriding.length > 0) {
      const which = overriding.join(" and ");
      const verb = overriding.length > 1 ? "are" : "is";
      io.stderr.write(
        `Note: ${which} ${verb} set in this shell and take${overriding.length > 1 ? "" : "s"} precedence over the profile.\n`,
      );
    }
    return EXIT.ok;
  });
}

export async function runLogout(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values } = parse(args, { json: { type: "boolean" } });
  io = { ...io, json: values.json === true };
  return runClientCommand(io, async () => {
    const path = profilePath();
    const removed = await deleteProfile().catch((err: Error) => {
      throw new CliError(`cannot delete ${path}: ${err.message}`, EXIT.failure);
    });
    if (io.json) printJson(io, { profile: path, removed });
    else io.stdout.write(removed ? `Deleted ${path}.\n` : `No profile at ${path}.\n`);
    return EXIT.ok;
  });
}
