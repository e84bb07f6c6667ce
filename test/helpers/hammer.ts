/**
 * Pollers that never pause: `wrk` (Debian's) holding `clients` keep-alive connections to one
 * URL, each sending its next request as soon as the last is answered, for `seconds`. It runs
 * in its own process, in C, so that the crowd is not limited by a Node client's own event
 * loop. Figures: requests per second, latency percentiles and the slowest answer, and the
 * requests still unanswered after `timeoutS` (wrk counts them as time-outs).
 */
import { spawnSync } from "node:child_process";

export interface HammerFigures {
  clients: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  timeouts: number;
  /** Connect, read and write errors and non-2xx answers. */
  errors: number;
}

/** Whether `wrk` is on the PATH. */
export function haveWrk(): boolean {
  return spawnSync("wrk", ["--version"]).error === undefined;
}

/** wrk's "12.3ms", "1.02s", "850.00us" in milliseconds. */
function millis(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) throw new Error(`wrk printed a time it does not usually print: ${text}`);
  const scale = { us: 1e-3, ms: 1, s: 1e3, m: 6e4 }[m[2] as "us" | "ms" | "s" | "m"];
  return Math.round(Number(m[1]) * scale);
}

/** The figures in wrk's `--latency` report. */
export function parseWrk(out: string, clients: number): HammerFigures {
  const field = (re: RegExp) => {
    const m = re.exec(out);
    if (!m) throw new Error(`wrk's report lacks ${re}:\n${out}`);
    return m;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const [, connect, read, write, timeout] = socket ?? ["", "0", "0", "0", "0"];
  return {
    clients,
    requests: Number(field(/(\d+) requests in/)[1]),
    requestsPerSecond: Math.round(Number(field(/Requests\/sec:\s+([\d.]+)/)[1])),
    p50Ms: millis(field(/^\s+50%\s+(\S+)/m)[1]!),
    p99Ms: millis(field(/^\s+99%\s+(\S+)/m)[1]!),
    maxMs: millis(field(/Latency\s+\S+\s+\S+\s+(\S+)/)[1]!),
    timeouts: Number(timeout),
    errors: Number(connect) + Number(read) + Number(write) + Number(non2xx?.[1] ?? 0),
  };
}

/** Runs the crowd against `url` with `Authorization: Bearer key`. */
export function hammer(options: {
  url: string;
  key: string;
  clients: number;
  seconds: number;
  timeoutS: number;
}): HammerFigures {
  const res = spawnSync(
    "wrk",
    [
      "-t2",
      `-c${options.clients}`,
      `-d${options.seconds}s`,
      `--timeout`,
      `${options.timeoutS}s`,
      "--latency",
      "-H",
      `Authorization: Bearer ${options.key}`,
      options.url,
    ],
    { encoding: "utf8", timeout: (options.seconds + options.timeoutS + 30) * 1000 },
  );
  if (res.status !== 0) throw new Error(`wrk failed: ${res.stderr || res.error?.message}`);
  return parseWrk(res.stdout, options.clients);
}
