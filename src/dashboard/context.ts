/**
 * What every dashboard route shares: the session manager, CSRF key, sign-in throttle and cookie
 * names, the per-request state (who is signed in), and the helpers that render a page or send a
 * signed-out visitor to sign-in.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  csrfKeyFrom,
  csrfToken,
  csrfTokenMatches,
  isOpaqueToken,
  newOpaqueToken,
  SessionManager,
  type ActiveSession,
} from "../auth/sessions.js";
import type { AccountService } from "../accounts/service.js";
import type { BatchService } from "../batches/service.js";
import type { Config } from "../config.js";
import type { FabricationService } from "../fabrication/service.js";
import type { JobService } from "../jobs/service.js";
import type { ModeService } from "../modes/service.js";
import type { StorageBackend } from "../storage/types.js";
import type { Account, Stores } from "../store/types.js";
import {
  appendCookie,
  cookieNamesFor,
  readCookie,
  serializeCookie,
  type CookieNames,
} from "./cookies.js";
import type { SafeHtml } from "./html.js";
import { SignInThrottle, type ThrottlePolicy } from "./throttle.js";
import { renderPage, type PageOptions } from "./views/layout.js";

export interface DashboardOptions {
  /** Sign-in throttling limits (tests lower them). */
  throttle?: ThrottlePolicy;
}

export interface RequestState {
  session: ActiveSession | null;
  account: Account | null;
}

declare module "fastify" {
  interface FastifyRequest {
    dashboard: RequestState | null;
  }
}

/** A dashboard failure with a status and a message for people (rendered as an HTML page). */
export class DashboardError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly title?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "DashboardError";
  }
}

/** Thrown by `requireAccount` for a visitor who is not signed in. */
export class SignInRequired extends Error {
  constructor() {
    super("sign-in required");
    this.name = "SignInRequired";
  }
}

/** What the dashboard is built from (the composition root mounts it beside the API). */
export interface DashboardDeps {
  config: Config;
  stores: Stores;
  accountService: AccountService;
  jobs: JobService;
  /** Sweeps (issue #30): the Batches pages. */
  batches: BatchService;
  storage: StorageBackend;
  /** GDS export, design-rule checks and recipes for the job page's Fabrication panel. */
  fabrication: FabricationService;
  /** The mode solver, for the Modes page. */
  modes: ModeService;
  /** Keys the CSRF tokens (the service's signing secret). */
  signingSecret: string;
}

/** Fixed notices shown after a redirect (`?notice=`), so no text is reflected from the URL. */
export const NOTICES: Record<string, PageOptions["notice"]> = {
  "signed-out": { kind: "info", text: "You are signed out." },
  "session-ended": { kind: "info", text: "Please sign in to continue." },
  welcome: { kind: "success", text: "Your password is set and you are signed in." },
  "key-revoked": {
    kind: "success",
    text: "The key is revoked: requests with it are refused from now on.",
  },
  "key-shown-once": {
    kind: "warning",
    text: "That form was already submitted, and a new key is shown only once. If you did not copy it, revoke it below and generate another.",
  },
  "job-cancelled": { kind: "success", text: "Cancellation requested." },
  "batch-cancelled": {
    kind: "success",
    text: "Batch cancelled: its queued jobs ended, its running ones are stopping.",
  },
  "lock-lifted": {
    kind: "success",
    text: "The sign-in lock is lifted: the account can try its password again now.",
  },
  "password-changed": {
    kind: "success",
    text: "Your password is changed. Other devices were signed out.",
  },
};

export class Dashboard {
  readonly sessions: SessionManager;
  readonly throttle: SignInThrottle;
  readonly csrfKey: Buffer;
  readonly cookies: CookieNames;
  readonly secure: boolean;

  constructor(
    readonly deps: DashboardDeps,
    options: DashboardOptions = {},
  ) {
    this.sessions = new SessionManager(deps.stores.sessions);
    this.throttle = new SignInThrottle(deps.stores.sessions, options.throttle);
    this.csrfKey = csrfKeyFrom(deps.signingSecret);
    // Served over TLS here, or behind a proxy that terminates it (an https base URL).
    this.secure = deps.config.tls !== null || deps.config.baseUrl.startsWith("https:");
    this.cookies = cookieNamesFor(this.secure);
  }

  /** Reads the session cookie and loads the account (an onRequest hook). */
  async loadState(req: FastifyRequest): Promise<RequestState> {
    // The scripts' JSON polling keeps a page current; it is not the user being active.
    const active = !req.url.startsWith("/dashboard/api/");
    const session = await this.sessions.resume(readCookie(req, this.cookies.session), active);
    const account = session ? await this.deps.stores.accounts.getAccount(session.accountId) : null;
    const state = { session: account ? session : null, account };
    req.dashboard = state;
    return state;
  }

  state(req: FastifyRequest): RequestState {
    return req.dashboard ?? { session: null, account: null };
  }

  /** The signed-in account, or SignInRequired (→ redirect to sign-in, or 401 for JSON). */
  requireAccount(req: FastifyRequest): { account: Account; session: ActiveSession } {
    const { account, session } = this.state(req);
    if (!account || !session) throw new SignInRequired();
    return { account, session };
  }

  requireAdmin(req: FastifyRequest): { account: Account; session: ActiveSession } {
    const signedIn = this.requireAccount(req);
    if (!signedIn.account.isAdmin) {
      throw new DashboardError(403, "Only administrators can manage accounts.");
    }
    return signedIn;
  }

  /**
   * The CSRF token for forms on this response: bound to the session when signed in, otherwise
   * to a pre-session cookie, which is created here when the browser has none.
   */
  csrfFor(req: FastifyRequest, reply: FastifyReply): string {
    const { session } = this.state(req);
    if (session) return csrfToken(this.csrfKey, session.token);
    let pre = readCookie(req, this.cookies.preSession);
    if (!isOpaqueToken(pre)) {
      pre = newOpaqueToken();
      appendCookie(reply, serializeCookie(this.cookies.preSession, pre, { secure: this.secure }));
      // Later reads in this request see the new cookie.
      req.headers.cookie = `${this.cookies.preSession}=${pre}; ${req.headers.cookie ?? ""}`;
    }
    return csrfToken(this.csrfKey, `pre:${pre}`);
  }

  /** True when the submitted token matches the session or pre-session of this request. */
  csrfValid(req: FastifyRequest, given: unknown): boolean {
    const { session } = this.state(req);
    if (session) return csrfTokenMatches(this.csrfKey, session.token, given);
    const pre = readCookie(req, this.cookies.preSession);
    return isOpaqueToken(pre) && csrfTokenMatches(this.csrfKey, `pre:${pre}`, given);
  }

  /** Signs the account in on this reply: a new session (never a reused id) and its cookie. */
  async signIn(reply: FastifyReply, accountId: string): Promise<void> {
    const session = await this.sessions.start(accountId);
    const maxAge = (Date.parse(session.expiresAt) - Date.now()) / 1000;
    appendCookie(
      reply,
      serializeCookie(this.cookies.session, session.token, {
        secure: this.secure,
        maxAgeSeconds: maxAge,
      }),
    );
    appendCookie(
      reply,
      serializeCookie(this.cookies.preSession, "", { secure: this.secure, maxAgeSeconds: 0 }),
    );
  }

  clearSessionCookie(reply: FastifyReply): void {
    appendCookie(
      reply,
      serializeCookie(this.cookies.session, "", { secure: this.secure, maxAgeSeconds: 0 }),
    );
  }

  /** Sends a full page (HTML, not cached: pages show private data). */
  sendPage(
    reply: FastifyReply,
    req: FastifyRequest,
    options: Omit<PageOptions, "account" | "csrf" | "body"> & { body: SafeHtml; status?: number },
  ): FastifyReply {
    const { account } = this.state(req);
    const notice =
      options.notice ?? NOTICES[String((req.query as Record<string, unknown>)?.notice ?? "")];
    const page = renderPage({
      ...options,
      notice: notice ?? null,
      account,
      csrf: account ? this.csrfFor(req, reply) : "",
    });
    return reply
      .code(options.status ?? 200)
      .type("text/html; charset=utf-8")
      .send(page);
  }
}

/** Only same-site dashboard paths may be a post-sign-in destination (no open redirect). */
export function safeNext(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 500) return null;
  if (
    !/^\/dashboard(\/[A-Za-z0-9._~\-/%]*)?(\?[A-Za-z0-9._~\-=&%]*)?(#[A-Za-z0-9_-]*)?$/.test(value)
  ) {
    return null;
  }
  if (value.includes("//") || value.startsWith("/dashboard/sign-")) return null;
  // Dot segments (also percent-encoded) would climb out of /dashboard once resolved.
  if (/\/(\.|%2e){1,2}(\/|\?|#|$)/i.test(value)) return null;
  return value;
}

/** A form field as a string ("" when absent or not a string). */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === "string" ? value : "";
}
