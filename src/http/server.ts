/**
 * The Node HTTP(S) server under Fastify, with every time limit set: Node's defaults let a
 * body sent a byte a second stay open forever (Fastify sets requestTimeout to 0) and check
 * time-outs only every 30 s. With TLS configured it serves TLS 1.3 only; SIGHUP re-reads
 * the certificate and key (see reloadTls).
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { Config } from "../config.js";
import { refuseConnect, refuseExpectation } from "./error-handler.js";
import { inFairTurns, type RequestHandler } from "./fair-turns.js";

/** The certificate chain and key as Node's TLS layer takes them. */
export function readTlsFiles(tls: NonNullable<Config["tls"]>): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(tls.certPath), key: readFileSync(tls.keyPath) };
}

export function createHttpServer(config: Config, app: RequestHandler): http.Server {
  const handler = inFairTurns(app);
  const common: http.ServerOptions = {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // How often Node looks for requests past their time-outs (default 30 s).
    connectionsCheckingInterval: 1000,
    // A missing Host is answered by our own hook, in our error format (Node's answer is a
    // bare 400 with no body).
    requireHostHeader: false,
  };
  const server = config.tls
    ? (https.createServer(
        { ...common, ...readTlsFiles(config.tls), minVersion: "TLSv1.3" },
        handler,
      ) as unknown as http.Server)
    : http.createServer(common, handler);
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = config.headersTimeoutMs;
  // No byte either way for this long (a client that stopped reading a download): close.
  server.setTimeout(config.idleTimeoutMs);
  // Requests Node answers itself otherwise, with no body (417) or nothing at all (CONNECT).
  server.on("checkExpectation", refuseExpectation);
  server.on("connect", refuseConnect);
  return server;
}

/** Re-reads the certificate and key of a running HTTPS server; throws if they do not load. */
export function reloadTls(server: http.Server, tls: NonNullable<Config["tls"]>): void {
  (server as unknown as https.Server).setSecureContext({
    ...readTlsFiles(tls),
    minVersion: "TLSv1.3",
  });
}
