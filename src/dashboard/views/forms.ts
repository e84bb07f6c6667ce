/** Form markup the dashboard's pages share: errors, the CSRF field, passwords, copy rows. */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../auth/passwords.js";
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

/** A labelled text, email or password input of a dashboard form. */
export interface InputField {
  id: string;
  /** The form field's name; default the id. */
  name?: string;
  label: string;
  type: "text" | "email" | "password";
  minLength?: number;
  maxLength: number;
  autocomplete?: string;
  placeholder?: string;
  /** The value to show again (after a refused post); absent for passwords. */
  value?: string;
  autofocus?: boolean;
  /** A hint under the input, which screen readers read with it (`<id>-hint`). */
  hint?: SafeHtml | string;
  /** Takes the free width of an inline form. */
  grow?: boolean;
}

export function inputField(f: InputField): SafeHtml {
  const hintId = `${f.id}-hint`;
  return html`<div class="field${f.grow ? " field-grow" : ""}">
    <label for="${f.id}">${f.label}</label>
    <input
      id="${f.id}"
      name="${f.name ?? f.id}"
      type="${f.type}"
      required
      ${f.minLength !== undefined ? html`minlength="${f.minLength}"` : ""}
      maxlength="${f.maxLength}"
      ${f.autocomplete ? html`autocomplete="${f.autocomplete}"` : ""}
      ${f.placeholder ? html`placeholder="${f.placeholder}"` : ""}
      ${f.value !== undefined ? html`value="${f.value}"` : ""}
      ${f.autofocus ? html`autofocus` : ""}
      ${f.hint ? html`aria-describedby="${hintId}"` : ""}
    />
    ${f.hint ? html`<p class="hint" id="${hintId}">${f.hint}</p>` : ""}
  </div>`;
}

/** The longest email the forms and their routes take (what fits in an SMTP path). */
export const EMAIL_MAX_LENGTH = 254;

/** An account's email, the username password managers file passwords under. */
export function emailField(options: {
  id?: string;
  value: string;
  autofocus?: boolean;
  autocomplete?: string;
  grow?: boolean;
}): SafeHtml {
  return inputField({
    id: options.id ?? "email",
    name: "email",
    label: "Email",
    type: "email",
    maxLength: EMAIL_MAX_LENGTH,
    autocomplete: options.autocomplete ?? "username",
    value: options.value,
    autofocus: options.autofocus ?? false,
    grow: options.grow ?? false,
  });
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
  const common = {
    type: "password",
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    autocomplete: "new-password",
  } as const;
  return html`${inputField({
    ...common,
    id: "password",
    label: labels.password,
    hint: `At least ${PASSWORD_MIN_LENGTH} characters. ${labels.hint}`,
  })}
  ${inputField({ ...common, id: "password2", label: labels.repeat })}`;
}

/**
 * A value shown once (a new API key, an invitation address) in a read-only field with a Copy
 * button; dashboard.js selects it on focus, copies it and reports in the status line.
 */
/**
 * A value to copy, selected on focus, and a Copy button that the page's script shows: without
 * scripts a button would do nothing.
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
      <button type="button" class="btn btn-primary" data-copy="#${field.id}" hidden>Copy</button>
    </div>
    <p class="hint" aria-live="polite" data-copy-status></p>`;
}
