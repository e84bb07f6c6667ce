/**
 * A request's correlation id: the client's `X-Correlation-ID` where it is a short token of
 * safe characters (it is echoed in a header and written to the log), else a new UUID.
 */
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

const CORRELATION_HEADER = "x-correlation-id";
const CORRELATION_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function correlationIdOf(headers: IncomingHttpHeaders): string {
  const given = headers[CORRELATION_HEADER];
  return typeof given === "string" && CORRELATION_PATTERN.test(given) ? given : randomUUID();
}
