/** Sign-in, first-run setup and invitation pages (signed-out shell). */
import { PASSWORD_MAX_LENGTH } from "../../auth/passwords.js";
import { html, type SafeHtml } from "../html.js";
import {
  csrfField,
  emailField,
  formError,
  hiddenUsername,
  inputField,
  newPasswordFields,
} from "./forms.js";
import { LOGO } from "./layout.js";

function authCard(title: string, intro: SafeHtml | string, body: SafeHtml): SafeHtml {
  return html`<div class="auth">
    <section class="card auth-card" aria-labelledby="auth-title">
      <div class="auth-mark">${LOGO}</div>
      <h1 id="auth-title">${title}</h1>
      ${intro ? html`<p class="muted">${intro}</p>` : ""} ${body}
    </section>
  </div>`;
}

/** The new-password fields of setup and invitations. */
function choosePasswordFields(): SafeHtml {
  return newPasswordFields({
    password: "Password",
    repeat: "Repeat the password",
    hint: "A passphrase of a few unrelated words is easy to remember and hard to guess.",
  });
}

export function signInBody(options: {
  csrf: string;
  email?: string;
  next?: string;
  error?: string | null;
}): SafeHtml {
  return authCard(
    "Sign in to emsim",
    "Manage your API keys and follow your simulations.",
    html`${formError(options.error)}
      <form method="post" action="/dashboard/sign-in" class="form">
        ${csrfField(options.csrf)}
        ${options.next ? html`<input type="hidden" name="next" value="${options.next}" />` : ""}
        ${emailField({ value: options.email ?? "", autofocus: !options.email })}
        ${inputField({
          id: "password",
          label: "Password",
          type: "password",
          maxLength: PASSWORD_MAX_LENGTH,
          autocomplete: "current-password",
          autofocus: Boolean(options.email),
        })}
        <button type="submit" class="btn btn-primary btn-block">Sign in</button>
      </form>
      <p class="hint">No account? Ask an administrator of this service for an invitation.</p>`,
  );
}

export function setupBody(options: {
  csrf: string;
  token: string;
  email?: string;
  error?: string | null;
}): SafeHtml {
  return authCard(
    "Set up emsim",
    "Create the first account. It is an administrator account: it can invite other people.",
    html`${formError(options.error)}
      <form method="post" action="/dashboard/setup/${options.token}" class="form">
        ${csrfField(options.csrf)} ${emailField({ value: options.email ?? "", autofocus: true })}
        ${choosePasswordFields()}
        <button type="submit" class="btn btn-primary btn-block">
          Create administrator account
        </button>
      </form>`,
  );
}

export function inviteBody(options: {
  csrf: string;
  token: string;
  email: string;
  hasPassword: boolean;
  error?: string | null;
}): SafeHtml {
  return authCard(
    options.hasPassword ? "Choose a new password" : "Welcome to emsim",
    html`Choose a password for
      <strong>${options.email}</strong
      >.${options.hasPassword ? " Your old password stops working, and every device signed in to this account is signed out." : ""}`,
    html`${formError(options.error)}
      <form method="post" action="/dashboard/invite/${options.token}" class="form">
        ${csrfField(options.csrf)} ${hiddenUsername(options.email)} ${choosePasswordFields()}
        <button type="submit" class="btn btn-primary btn-block">Set password and sign in</button>
      </form>`,
  );
}

export function linkInvalidBody(what: "setup" | "invitation"): SafeHtml {
  return authCard(
    what === "setup"
      ? "This setup address is no longer valid"
      : "This invitation is no longer valid",
    what === "setup"
      ? "It has been used already (setup happens once), or the server was set up in another way. Sign in instead, or restart the server without any administrator account to get a new address."
      : "It has been used already or has expired. Ask an administrator for a new one.",
    html`<a class="btn btn-primary btn-block" href="/dashboard/sign-in">Go to sign-in</a>`,
  );
}
