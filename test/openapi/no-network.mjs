// Preloaded (`node --import`) into the third-party OpenAPI tools the tests run. Any attempt to
// reach the network (a DNS lookup, a TCP connection other than a local socket, a UDP packet,
// fetch) is written to stderr as "NETWORK ATTEMPT: …" and refused. The tests fail on that
// line, so a tool that phones home (telemetry, update checks, remote $refs) is caught here,
// not on CI's closed network where it would hang or fail for reasons no one could see.
import dgram from "node:dgram";
import dns from "node:dns";
import net from "node:net";

function refuse(what) {
  process.stderr.write(`NETWORK ATTEMPT: ${what}\n`);
  return new Error(`network access is refused in this test process (${what})`);
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // Node calls connect with (options), (port, host), (path) or, internally, ([options, cb]).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = typeof first === "object" && first !== null ? first : {};
  const path = typeof first === "string" && !/^\d+$/.test(first) ? first : options.path;
  if (path) return connect.apply(this, args); // a local (Unix) socket
  const host = options.host ?? (typeof args[1] === "string" ? args[1] : "localhost");
  const port = options.port ?? first;
  throw refuse(`tcp ${host}:${port}`);
};

for (const name of ["lookup", "resolve", "resolve4", "resolve6", "resolveAny"]) {
  dns[name] = (host) => {
    throw refuse(`dns ${host}`);
  };
  dns.promises[name] = async (host) => {
    throw refuse(`dns ${host}`);
  };
}

dgram.Socket.prototype.send = function () {
  throw refuse("udp");
};

globalThis.fetch = async (input) => {
  throw refuse(`fetch ${typeof input === "string" ? input : String(input?.url ?? input)}`);
};
