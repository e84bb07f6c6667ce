/**
 * Issue #10: with EMSIM_TLS_CERT and EMSIM_TLS_KEY the service speaks TLS 1.3 only (a TLS 1.2
 * handshake is refused, checked with `openssl s_client`), sends HSTS and Secure cookies, and
 * re-reads its certificate on SIGHUP.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:tls";
import { startServerProcess, type ServerProcess } from "../helpers/process.js";
import { freePort, tempDir } from "../helpers/service.js";
import { rawRequest } from "./raw-http.js";

// The test's certificates are self-signed: let fetch (used to wait for the server) accept them.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";

const dir = tempDir("emsim-tls-");
const certPath = join(dir, "cert.pem");
const keyPath = join(dir, "key.pem");
let server: ServerProcess;
let port: number;

/** A self-signed certificate for 127.0.0.1 with the given common name. */
function makeCertificate(commonName: string, cert = certPath, key = keyPath): void {
  const res = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "2",
      "-subj",
      `/CN=${commonName}`,
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { encoding: "utf8" },
  );
  assert.equal(res.status, 0, res.stderr);
}

/** The certificate the server presents on a fresh connection, and the protocol agreed. */
function handshake(): Promise<{ subject: string; protocol: string | null }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () => {
      const peer = socket.getPeerX509Certificate();
      resolve({ subject: peer?.subject ?? "", protocol: socket.getProtocol() });
      socket.end();
    });
    socket.on("error", reject);
  });
}

function sClient(flag: string): { ok: boolean; output: string } {
  const res = spawnSync(
    "openssl",
    ["s_client", "-connect", `127.0.0.1:${port}`, flag, "-servername", "localhost"],
    { input: "", encoding: "utf8", timeout: 20_000 },
  );
  const output = `${res.stdout}\n${res.stderr}`;
  return { ok: res.status === 0 && /Protocol\s*:\s*TLSv1\.3|New, TLSv1\.3/.test(output), output };
}

before(async () => {
  makeCertificate("emsim-first");
  port = await freePort();
  server = await startServerProcess(
    port,
    tempDir(),
    {
      EMSIM_TLS_CERT: certPath,
      EMSIM_TLS_KEY: keyPath,
      EMSIM_EMBEDDED_WORKER: "false",
    },
    { tls: true },
  );
});
after(async () => server?.kill("SIGKILL"));

test("HTTPS with TLS 1.3; a TLS 1.2 handshake is refused", async () => {
  const first = await handshake();
  assert.equal(first.protocol, "TLSv1.3");
  assert.match(first.subject, /CN=emsim-first/);
  const tls13 = sClient("-tls1_3");
  assert.ok(tls13.ok, tls13.output);
  const tls12 = sClient("-tls1_2");
  assert.ok(!tls12.ok, `TLS 1.2 was accepted:\n${tls12.output}`);
  assert.match(tls12.output, /alert|handshake failure|no protocols available|wrong version/i);
  // The address it says it listens on is the one that answers (it said http://).
  assert.match(server.stderr(), new RegExp(`emsim listening on https://127\\.0\\.0\\.1:${port}`));
});

test("HSTS on every response, Secure cookies, https result addresses", async () => {
  const health = await rawRequest(port, {
    tls: true,
    chunks: ["GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
  });
  assert.equal(health.status, 200);
  assert.match(health.headers["strict-transport-security"] ?? "", /max-age=\d+/);
  const page = await rawRequest(port, {
    tls: true,
    chunks: ["GET /dashboard/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
  });
  assert.equal(page.status, 200);
  const cookie = page.headers["set-cookie"] ?? "";
  assert.match(cookie, /; Secure/, cookie);
  assert.match(page.headers["strict-transport-security"] ?? "", /max-age=\d+/);
  assert.match(server.baseUrl, /^https:/);
});

test("SIGHUP re-reads the certificate; a broken pair keeps the old one", async () => {
  makeCertificate("emsim-second", join(dir, "next-cert.pem"), join(dir, "next-key.pem"));
  renameSync(join(dir, "next-cert.pem"), certPath);
  renameSync(join(dir, "next-key.pem"), keyPath);
  server.child.kill("SIGHUP");
  let subject = "";
  for (let i = 0; i < 50 && !/emsim-second/.test(subject); i++) {
    await new Promise((r) => setTimeout(r, 100));
    subject = (await handshake()).subject;
  }
  assert.match(subject, /CN=emsim-second/);
  assert.ok(new X509Certificate(readFileSync(certPath)).subject.includes("emsim-second"));
  // A certificate without its key: the reload fails, the server keeps serving the last pair.
  makeCertificate("emsim-broken", certPath, join(dir, "unused-key.pem"));
  server.child.kill("SIGHUP");
  await new Promise((r) => setTimeout(r, 500));
  assert.match((await handshake()).subject, /CN=emsim-second/);
  assert.match(server.stderr(), /could not reload the TLS certificate/);
});
