/**
 * Dashboard test helpers: a headless Debian Chromium driven by playwright-core (never a
 * downloaded browser; flags from NOTES.md so it stays off the closed network), HTTP helpers
 * that keep cookies like a browser for form posts, and the simulations the tests run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.EMSIM_TEST_CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh headless Chromium with its own new user-data directory. */
export async function launchBrowser(viewport = { width: 1280, height: 900 }): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), "emsim-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal cookie jar over fetch, for form posts outside a browser. */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async get(path: string, headers: Record<string, string> = {}) {
    const res = await fetch(this.baseUrl + path, {
      headers: { cookie: this.cookieHeader(), ...headers },
      redirect: "manual",
    });
    this.remember(res);
    return { res, text: await res.text() };
  }

  /** A form post; `signal` hangs up, as a browser leaving the page does. */
  async post(
    path: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ) {
    const res = await fetch(this.baseUrl + path, {
      method: "POST",
      headers: {
        cookie: this.cookieHeader(),
        "content-type": "application/x-www-form-urlencoded",
        ...headers,
      },
      body: new URLSearchParams(form).toString(),
      redirect: "manual",
      signal,
    });
    this.remember(res);
    return { res, text: await res.text() };
  }

  /** The CSRF token of the first form in a page. */
  static csrfIn(html: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!m) throw new Error("no CSRF token in the page");
    return m[1]!;
  }

  static formIdIn(html: string): string {
    const m = /name="form_id" value="([^"]+)"/.exec(html);
    if (!m) throw new Error("no form id in the page");
    return m[1]!;
  }
}

/** Waits until `read()` returns a line matching `pattern`, or throws after `timeoutMs`. */
export async function waitForMatch(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<RegExpExecArray> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(read());
    if (m) return m;
    if (Date.now() > end) throw new Error(`no match for ${pattern} in:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Signs `page` in through the dashboard's sign-in form, as a user does. */
export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
}

/**
 * Waits until a script expression is true in the page. Evaluated from here each time: the
 * dashboard's CSP has no 'unsafe-eval', which Playwright's in-page polling of a string needs.
 */
export async function until(
  page: Page,
  expression: string,
  timeoutMs = 15_000,
  pollMs = 50,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    if (Date.now() > end) throw new Error(`still false: ${expression}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
