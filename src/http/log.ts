/**
 * What the request log may say about a request. Addresses that are credentials — the
 * signature of a pre-signed download, one-time setup and invitation tokens, an API key a client
 * put in the address — are logged with the secret part replaced, so that whoever can read the
 * log cannot replay them.
 */
import type { FastifyRequest, FastifyServerOptions } from "fastify";

const SECRET_QUERY = /([?&](?:signature|token|sig)=)[^&#]*/gi;
const SECRET_PATH = /^(\/dashboard\/(?:setup|invite)\/)[^/?#]+/;
/** Anything shaped like an API key, wherever in the address a client put it by mistake. */
const API_KEY = /(emsim_)[0-9A-Za-z]+/g;

/** `url` with signatures and one-time tokens replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url
    .replace(SECRET_PATH, "$1[redacted]")
    .replace(SECRET_QUERY, "$1[redacted]")
    .replace(API_KEY, "$1[redacted]");
}

/** The logger options with our request serializer; `false` stays off. */
export function withRedactingSerializers(
  logger: FastifyServerOptions["logger"],
): FastifyServerOptions["logger"] {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : (logger as Record<string, unknown>);
  return {
    ...base,
    serializers: {
      ...((base.serializers as Record<string, unknown> | undefined) ?? {}),
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  } as FastifyServerOptions["logger"];
}
