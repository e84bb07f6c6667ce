/**
 * Helpers for the security tests: requests with the path sent byte for byte (fetch and the URL
 * class resolve `..` and `%2e%2e` on the client, so they cannot test what the server does with
 * them), and signed-in dashboard clients.
 */
import http from "node:http";
import assert from "node:assert/strict";
import { hashPassword } from "../../src/auth/passwords.js";
import type { AccountStore } from "../../src/store/types.js";
import { HttpClient } from "../dashboard/helpers.js";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request with `path` exactly as given (no normalisation, no percent-decoding). */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string | string[]> } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

export const PASSWORD = "a long enough password";

export async function makeAccount(
  store: AccountStore,
  email: string,
  isAdmin = false,
): Promise<string> {
  const account = await store.createAccount({
    email,
    isAdmin,
    passwordHash: await hashPassword(PASSWORD),
  });
  return account.id;
}

export async function signedIn(baseUrl: string, email: string): Promise<HttpClient> {
  const client = new HttpClient(baseUrl);
  const page = await client.get("/dashboard/sign-in");
  const res = await client.post("/dashboard/sign-in", {
    _csrf: HttpClient.csrfIn(page.text),
    email,
    password: PASSWORD,
  });
  assert.equal(res.res.status, 303, res.text);
  return client;
}

/** Markers of a stack trace, SQL or a server path in a response body. */
export const INTERNALS = [
  /\bat [\w.<>]+ \(/, // a stack frame
  /\.(ts|js):\d+/,
  /SQLITE|SELECT |INSERT |UPDATE /,
  /\/(tmp|srv|home|work|secret)\//,
];

export function assertNoInternals(text: string, what: string): void {
  for (const pattern of INTERNALS) assert.doesNotMatch(text, pattern, `${what}: ${text}`);
}
