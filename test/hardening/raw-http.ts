/**
 * A raw HTTP/1.1 client over a TCP socket, for requests no well-behaved client library will
 * send: malformed framing, duplicate headers, slow bodies, missing Host.
 */
import { connect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The JSON body, or null when it is not JSON. */
  json: Record<string, unknown> | null;
  /** Milliseconds from connecting to the end of the response (or the close). */
  elapsedMs: number;
}

export function parseResponse(raw: string, elapsedMs: number): RawResponse | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = raw.slice(0, end).split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = raw.slice(end + 4);
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(body) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status, headers, body, json, elapsedMs };
}

export interface RawOptions {
  /** Chunks written one after another, `delayMs` apart (a slow client). */
  chunks: (string | Buffer)[];
  delayMs?: number;
  /** Give up (and fail) after this long. */
  timeoutMs?: number;
  tls?: boolean;
}

/** Sends the chunks and resolves with the first response (the socket closes after it). */
export function rawRequest(port: number, opts: RawOptions): Promise<RawResponse> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const socket: Socket = opts.tls
      ? tlsConnect({ port, host: "127.0.0.1", rejectUnauthorized: false })
      : connect(port, "127.0.0.1");
    let data = "";
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) return reject(err);
      const res = parseResponse(data, Date.now() - start);
      if (res) resolve(res);
      else reject(new Error(`no HTTP response (got ${JSON.stringify(data.slice(0, 200))})`));
    };
    const timer = setTimeout(
      () => finish(new Error(`no response within ${opts.timeoutMs ?? 10_000} ms`)),
      opts.timeoutMs ?? 10_000,
    );
    socket.on("data", (d: Buffer) => {
      data += d.toString("latin1");
      const res = parseResponse(data, 0);
      const length = Number(res?.headers["content-length"] ?? NaN);
      if (res && Number.isFinite(length) && Buffer.byteLength(res.body, "latin1") >= length) {
        finish();
      }
    });
    socket.on("close", () => finish());
    socket.on("error", (err) => (data ? finish() : finish(err)));
    let i = 0;
    const writeNext = () => {
      if (settled || i >= opts.chunks.length) return;
      socket.write(opts.chunks[i++]!);
      if (i < opts.chunks.length) setTimeout(writeNext, opts.delayMs ?? 0);
    };
    socket.once(opts.tls ? "secureConnect" : "connect", writeNext);
  });
}
