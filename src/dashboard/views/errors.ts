/** Error pages of the dashboard (HTML, never a JSON body or a stack trace). */
import { html, type SafeHtml } from "../html.js";

const TITLES: Record<number, string> = {
  400: "That request could not be understood",
  403: "Not allowed",
  404: "Page not found",
  409: "Not possible right now",
  413: "That was too large",
  415: "Unsupported form",
  429: "Too many attempts",
  500: "Something went wrong",
  503: "Temporarily unavailable",
};

export function errorTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? TITLES[500]! : TITLES[400]!);
}

export function errorBody(options: {
  status: number;
  title?: string;
  message: string;
  requestId?: string;
  signedIn: boolean;
}): SafeHtml {
  return html`<section class="card error-card" aria-labelledby="error-title">
    <p class="error-code">Error ${options.status}</p>
    <h1 id="error-title">${options.title ?? errorTitle(options.status)}</h1>
    <p>${options.message}</p>
    ${options.requestId && options.status >= 500 ? html`<p class="hint">Request id: <code>${options.requestId}</code></p>` : ""}
    <p>
      <a
        class="btn btn-primary"
        href="${options.signedIn ? "/dashboard/jobs" : "/dashboard/sign-in"}"
        >${options.signedIn ? "Back to your jobs" : "Go to sign-in"}</a
      >
    </p>
  </section>`;
}
