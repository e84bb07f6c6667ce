/**
 * The page shell: head (one stylesheet, one module script, both served from this folder), the
 * top bar with navigation and sign-out, a notice line, and the main content. No inline script
 * or style anywhere, so the Content-Security-Policy can forbid them.
 */
import type { Account } from "../../store/types.js";
import { html, raw, type SafeHtml } from "../html.js";
import { csrfField } from "./forms.js";

export type Section = "jobs" | "new" | "batches" | "modes" | "keys" | "accounts" | "account" | null;

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** The signed-in account; null renders the signed-out shell. */
  account?: Account | null;
  /** CSRF token for the sign-out form (signed-in pages). */
  csrf?: string;
  section?: Section;
  notice?: { kind: "info" | "success" | "warning"; text: string } | null;
  /** Wider main column (plots). */
  wide?: boolean;
}

/** The emsim mark: a Yee cell's edge arrows in a rounded square. */
export const LOGO = raw(
  `<svg class="logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="currentColor" class="logo-bg"/><path d="M9 23V11l7-4 7 4v12l-7 4z" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/><path d="M16 7v8m0 0 7 4m-7-4-7 4" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" opacity=".75"/></svg>`,
);

function navLink(href: string, label: string, here: boolean): SafeHtml {
  return html`<a href="${href}" ${here ? raw(' aria-current="page"') : ""}>${label}</a>`;
}

export function renderPage(options: PageOptions): string {
  const { account, section = null } = options;
  const header = account
    ? html`<header class="topbar">
        <a class="brand" href="/dashboard/jobs">${LOGO}<span>emsim</span></a>
        <nav class="mainnav" aria-label="Main">
          ${navLink("/dashboard/jobs", "Jobs", section === "jobs")}
          ${navLink("/dashboard/simulations/new", "New simulation", section === "new")}
          ${navLink("/dashboard/batches", "Batches", section === "batches")}
          ${navLink("/dashboard/modes", "Modes", section === "modes")}
          ${navLink("/dashboard/keys", "API keys", section === "keys")}
          ${account.isAdmin ? navLink("/dashboard/accounts", "Accounts", section === "accounts") : ""}
        </nav>
        <div class="who">
          <a
            class="who-email"
            href="/dashboard/account"
            title="Your account"
            ${section === "account" ? raw(' aria-current="page"') : ""}
            >${account.email}</a
          >
          <form method="post" action="/dashboard/sign-out">
            ${csrfField(options.csrf ?? "")}
            <button type="submit" class="btn btn-quiet btn-small">Sign out</button>
          </form>
        </div>
      </header>`
    : html`<header class="topbar topbar-plain">
        <a class="brand" href="/dashboard">${LOGO}<span>emsim</span></a>
      </header>`;
  const notice = options.notice
    ? html`<div class="notice notice-${options.notice.kind}" role="status">
        ${options.notice.text}
      </div>`
    : "";
  return `<!doctype html>${html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <meta name="referrer" content="same-origin" />
      <title>${options.title} · emsim</title>
      <link rel="icon" href="/dashboard/static/icon.svg" type="image/svg+xml" />
      <link rel="stylesheet" href="/dashboard/static/dashboard.css" />
      <script type="module" src="/dashboard/static/dashboard.js"></script>
    </head>
    <body>
      <a class="skip" href="#main">Skip to content</a>
      ${header}
      <main id="main" class="${options.wide ? "main main-wide" : "main"}" tabindex="-1">
        ${notice} ${options.body}
      </main>
      <footer class="footer"><span>emsim</span> · <a href="/docs">API reference</a></footer>
    </body>
  </html>`}`;
}
