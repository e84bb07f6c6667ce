/** Accounts (administrators): list, create with an invitation address, new sign-in address. */
import type { Account, AccountSummary } from "../../store/types.js";
import { PASSWORD_MAX_LENGTH } from "../../auth/passwords.js";
import { html, type SafeHtml } from "../html.js";
import { timeElement } from "./format.js";
import {
  copyRow,
  csrfField,
  emailField,
  formError,
  hiddenUsername,
  inputField,
  newPasswordFields,
} from "./forms.js";

export interface AccountsView {
  accounts: AccountSummary[];
  /** Emails (lower-cased) locked out of sign-in now, with the seconds until they are not. */
  lockouts: Map<string, number>;
  /** Client addresses locked out of sign-in now (every email from them), likewise. */
  addressLockouts: Map<string, number>;
  csrf: string;
  self: Account;
  invitation?: { email: string; url: string; expiresAt: string; isNew: boolean } | null;
  error?: string | null;
  email?: string;
}

function invitationPanel(inv: NonNullable<AccountsView["invitation"]>): SafeHtml {
  return html`<section class="card new-key" aria-labelledby="invite-title">
    <h2 id="invite-title">
      ${inv.isNew ? "Account created" : "New sign-in address"} for ${inv.email}
    </h2>
    <p class="warning-text" role="alert">
      <strong>Send this address to ${inv.email} yourself — it is shown only once.</strong> Whoever
      opens it can choose the account's password. It works once and expires
      ${timeElement(inv.expiresAt)}.
    </p>
    ${copyRow({ id: "invite-url", value: inv.url, label: "Invitation address" })}
  </section>`;
}

/** "Locked" with the time left, for an account whose sign-in is refused after failures. */
function lockBadge(seconds: number | undefined): SafeHtml | string {
  if (seconds === undefined) return "";
  const left = seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
  return html`<span
    class="badge badge-warning"
    title="Too many failed sign-ins; refused for ${left} more unless lifted"
    >Locked · ${left}</span
  >`;
}

export function accountsBody(view: AccountsView): SafeHtml {
  return html`<div class="page-head">
      <h1>Accounts</h1>
      <p class="muted">
        Everyone who can sign in to this dashboard. Each account has its own jobs and API keys.
      </p>
    </div>
    ${view.invitation ? invitationPanel(view.invitation) : ""} ${createAccountCard(view)}
    ${accountsCard(view)} ${view.addressLockouts.size > 0 ? addressLocksCard(view) : ""}`;
}

/**
 * Client addresses refused sign-in after too many failures from them, whatever the email:
 * behind a proxy everyone shares one, so the lock is everyone's until lifted here.
 */
function addressLocksCard(view: AccountsView): SafeHtml {
  return html`<section class="card" aria-labelledby="address-locks-title">
    <h2 id="address-locks-title">Locked client addresses</h2>
    <p class="hint">
      Too many failed sign-ins came from these addresses; every sign-in from them is refused until
      the lock ends or is lifted.
    </p>
    <div class="table-wrap">
      <table class="table responsive" id="address-locks-table">
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Sign-in</th>
            <th scope="col"><span class="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${[...view.addressLockouts].map(
            ([address, seconds]) =>
              html`<tr>
                <td data-label="Address" class="mono">${address}</td>
                <td data-label="Sign-in">${lockBadge(seconds)}</td>
                <td class="actions">
                  <form
                    method="post"
                    action="/dashboard/accounts/address-locks/unlock"
                    class="inline-form"
                  >
                    ${csrfField(view.csrf)}
                    <input type="hidden" name="address" value="${address}" />
                    <button type="submit" class="btn btn-quiet btn-small">
                      Lift lock<span class="sr-only"> for ${address}</span>
                    </button>
                  </form>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

function createAccountCard(view: AccountsView): SafeHtml {
  return html`<section class="card" aria-labelledby="create-title">
    <h2 id="create-title">Create an account</h2>
    ${formError(view.error)}
    <form method="post" action="/dashboard/accounts" class="form form-inline">
      ${csrfField(view.csrf)}
      ${emailField({
        id: "new-email",
        value: view.email ?? "",
        autocomplete: "off",
        grow: true,
      })}
      <div class="field field-check">
        <input id="new-admin" name="is_admin" type="checkbox" value="yes" />
        <label for="new-admin">Administrator</label>
      </div>
      <button type="submit" class="btn btn-primary">Create and get invitation</button>
    </form>
    <p class="hint">
      You get a one-time address to send to the person; they choose their own password there.
    </p>
  </section>`;
}

function accountsCard(view: AccountsView): SafeHtml {
  return html`<section class="card" aria-labelledby="accounts-title">
    <h2 id="accounts-title">All accounts <span class="count">${view.accounts.length}</span></h2>
    <div class="table-wrap">
      <table class="table responsive" id="accounts-table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
            <th scope="col">Sign-in</th>
            <th scope="col"><span class="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${view.accounts.map((a) => accountRow(a, view))}
        </tbody>
      </table>
    </div>
  </section>`;
}

function accountRow(a: AccountSummary, view: AccountsView): SafeHtml {
  const locked = view.lockouts.has(a.email.toLowerCase());
  const isSelf = a.id === view.self.id;
  return html`<tr>
    <td data-label="Email">
      <strong>${a.email}</strong>${isSelf ? html` <span class="muted small">(you)</span>` : ""}
    </td>
    <td data-label="Role">
      ${a.isAdmin ? html`<span class="badge badge-admin">Admin</span>` : "User"}
    </td>
    <td data-label="Created">${timeElement(a.createdAt)}</td>
    <td data-label="Sign-in">
      ${a.hasPassword ? "Password set" : html`<span class="muted">No password yet</span>`}
      ${lockBadge(view.lockouts.get(a.email.toLowerCase()))}
    </td>
    <td class="actions">
      ${locked ? liftLockForm(a, view.csrf) : ""} ${isSelf ? "" : signInAddressForm(a, view.csrf)}
    </td>
  </tr>`;
}

function liftLockForm(a: AccountSummary, csrf: string): SafeHtml {
  return html`<form method="post" action="/dashboard/accounts/${a.id}/unlock" class="inline-form">
    ${csrfField(csrf)}
    <button type="submit" class="btn btn-quiet btn-small">Lift lock</button>
  </form>`;
}

/**
 * An invitation address for an account without a password; for one with a password, a new
 * sign-in address, confirmed first since it lets whoever opens it replace the password.
 */
function signInAddressForm(a: AccountSummary, csrf: string): SafeHtml {
  const confirm = a.hasPassword
    ? html`data-confirm="Make a new sign-in address for ${a.email}? Whoever opens it can replace the
      account's password; the current password keeps working until then." data-confirm-button="Make
      address"`
    : "";
  return html`<form
    method="post"
    action="/dashboard/accounts/${a.id}/invitation"
    class="inline-form"
    ${confirm}
  >
    ${csrfField(csrf)}
    <button type="submit" class="btn btn-quiet btn-small">
      ${a.hasPassword ? "New sign-in address" : "Invitation address"}
    </button>
  </form>`;
}

export function accountBody(options: {
  account: Account;
  csrf: string;
  error?: string | null;
}): SafeHtml {
  return html`<div class="page-head">
      <h1>Your account</h1>
      <p class="muted">
        ${options.account.email}${options.account.isAdmin ? " · administrator" : ""} · since
        ${timeElement(options.account.createdAt)}
      </p>
    </div>
    <section class="card narrow" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      ${formError(options.error)}
      <form method="post" action="/dashboard/account/password" class="form">
        ${csrfField(options.csrf)} ${hiddenUsername(options.account.email)}
        ${inputField({
          id: "current",
          label: "Current password",
          type: "password",
          maxLength: PASSWORD_MAX_LENGTH,
          autocomplete: "current-password",
        })}
        ${newPasswordFields({
          password: "New password",
          repeat: "Repeat the new password",
          hint: "Other devices signed in to this account are signed out.",
        })}
        <button type="submit" class="btn btn-primary">Change password</button>
      </form>
    </section>`;
}
