/** Form markup the dashboard's pages share: errors, the CSRF field, passwords, copy rows. */
import { PASSWORD_MIN_LENGTH } from "../../auth/passwords.js";
import { html, type SafeHtml } from "../html.js";

/** A form's error message, announced to screen readers; nothing when there is none. */
export function formError(error: string | null | undefined): SafeHtml | string {
  return error ? html`<div class="form-error" role="alert" id="form-error">${error}</div>` : "";
}

/** The CSRF token every dashboard form posts (checked in plugin.ts). */
export function csrfField(csrf: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrf}" />`;
}

/**
 * The account's email as a hidden username field, so that password managers file the new
 * password under the right account on forms that do not ask for the email.
 */
export function hiddenUsername(email: string): SafeHtml {
  return html`<input
    type="email"
    name="email"
    value="${email}"
    autocomplete="username"
    hidden
    readonly
  />`;
}

/**
 * A new password and its repetition (`password`, `password2`), held to the length the server
 * checks (src/auth/passwords.ts); `hint` follows the minimum length in the hint under the first.
 */
export function newPasswordFields(labels: {
  password: string;
  repeat: string;
  hint: string;
}): SafeHtml {
  return html`<div class="field">
      <label for="password">${labels.password}</label>
      <input
        id="password"
        name="password"
        type="password"
        required
        minlength="${PASSWORD_MIN_LENGTH}"
        maxlength="512"
        autocomplete="new-password"
        aria-describedby="password-hint"
      />
      <p class="hint" id="password-hint">
        At least ${PASSWORD_MIN_LENGTH} characters. ${labels.hint}
      </p>
    </div>
    <div class="field">
      <label for="password2">${labels.repeat}</label>
      <input
        id="password2"
        name="password2"
        type="password"
        required
        minlength="${PASSWORD_MIN_LENGTH}"
        maxlength="512"
        autocomplete="new-password"
      />
    </div>`;
}

/**
 * A value shown once (a new API key, an invitation address) in a read-only field with a Copy
 * button; dashboard.js selects it on focus, copies it and reports in the status line.
 */
export function copyRow(field: { id: string; value: string; label: string }): SafeHtml {
  return html`<div class="copy-row">
      <input
        id="${field.id}"
        class="mono key-value"
        type="text"
        readonly
        value="${field.value}"
        aria-label="${field.label}"
        spellcheck="false"
        autocomplete="off"
        data-select-on-focus
      />
      <button type="button" class="btn btn-primary" data-copy="#${field.id}">Copy</button>
    </div>
    <p class="hint" aria-live="polite" data-copy-status></p>`;
}
