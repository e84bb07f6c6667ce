/**
 * The methods each route path answers, so that a request whose path exists under another
 * method gets 405 with an `Allow` header (RFC 9110 §15.5.6) instead of a 404 that would say
 * nothing is there: `DELETE /v1/simulations/{id}` is refused as a method, not as a path.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";

interface Route {
  pattern: RegExp;
  methods: Set<string>;
}

/** A route's path as a pattern over request paths: `:name` one segment, `*` the rest. */
function pathPattern(url: string): RegExp {
  const escaped = url
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) return "[^/]+";
      return segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
    })
    .join("/");
  return new RegExp(`^${escaped}$`);
}

export class RouteMethods {
  private readonly routes = new Map<string, Route>();

  add(method: string | string[], url: string): void {
    let route = this.routes.get(url);
    if (!route) {
      route = { pattern: pathPattern(url), methods: new Set() };
      this.routes.set(url, route);
    }
    for (const m of Array.isArray(method) ? method : [method]) route.methods.add(m.toUpperCase());
  }

  /** The methods some route answers at `path` (no query), sorted; empty: no such path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes.values()) {
      if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    }
    return [...methods].sort();
  }
}

/** Records every route the app registers from now on (call before registering them). */
export function trackRouteMethods(app: FastifyInstance): RouteMethods {
  const table = new RouteMethods();
  app.addHook("onRoute", (route) => table.add(route.method, route.url));
  return table;
}

/** The request's path without its query string. */
export function requestPath(req: FastifyRequest): string {
  return req.url.split("?")[0]!;
}
