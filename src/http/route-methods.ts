/**
 * The methods each route path answers, so that a request whose path exists under another
 * method gets 405 with an `Allow` header (RFC 9110 §15.5.6) instead of a 404 that would say
 * nothing is there: `DELETE /v1/simulations/{id}` is refused as a method, not as a path.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { errors, type ApiError } from "../errors.js";

interface Route {
  pattern: RegExp;
  methods: Set<string>;
  /** No `:name` or `*`: the path is this route's alone, whatever a pattern also matches. */
  fixed: boolean;
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
      route = { pattern: pathPattern(url), methods: new Set(), fixed: !/[:*]/.test(url) };
      this.routes.set(url, route);
    }
    for (const m of Array.isArray(method) ? method : [method]) route.methods.add(m.toUpperCase());
  }

  /**
   * The methods some route answers at `path` (no query), sorted; empty: no such path. A fixed
   * path's own methods only: `/v1/simulations/estimate` is no job id to GET.
   */
  allowed(path: string): string[] {
    const fixed = this.routes.get(path);
    if (fixed?.fixed) return [...fixed.methods].sort();
    const methods = new Set<string>();
    for (const route of this.routes.values()) {
      if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    }
    return [...methods].sort();
  }

  /**
   * The error for a request the router gave a route with parameters that its path does not
   * mean: a fixed path under another method (`GET /v1/simulations/estimate`: 405, it answers
   * POST), or an empty parameter (`GET /v1/simulations/`, `…//results`: no such path). Null
   * for every other request.
   */
  misrouted(req: FastifyRequest): ApiError | null {
    const url = req.routeOptions.url;
    if (url === undefined || !/[:*]/.test(url)) return null;
    const path = requestPath(req);
    const fixed = this.routes.get(path);
    if (fixed?.fixed) return errors.methodNotAllowed(req.method, path, this.allowed(path));
    const params = Object.values((req.params ?? {}) as Record<string, unknown>);
    if (!url.endsWith("*") && params.some((v) => v === "")) return notFound(req.method, path, this);
    return null;
  }
}

/** 404 for a path no route has, naming the path without a trailing slash where that is one. */
export function notFound(method: string, path: string, routes: RouteMethods): ApiError {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") : null;
  const hint = trimmed && routes.allowed(trimmed).length > 0 ? trimmed : undefined;
  return errors.routeNotFound(method, path, hint);
}

/**
 * Records every route the app registers from now on (call before registering them), and
 * refuses the requests routed to a parameter their path does not mean (`misrouted`).
 */
export function trackRouteMethods(app: FastifyInstance): RouteMethods {
  const table = new RouteMethods();
  app.addHook("onRoute", (route) => table.add(route.method, route.url));
  app.addHook("onRequest", async (req) => {
    const refused = table.misrouted(req);
    if (refused) throw refused;
  });
  return table;
}

/** The request's path without its query string. */
export function requestPath(req: FastifyRequest): string {
  return req.url.split("?")[0]!;
}
