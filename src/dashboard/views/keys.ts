/** API Keys: list, Generate New Key (plaintext shown once), revoke with confirmation. */
import type { ApiKeyRecord } from "../../store/types.js";
import { html, type SafeHtml } from "../html.js";
import { timeElement } from "./format.js";
import { copyRow, csrfField, formError, inputField } from "./forms.js";

export interface KeysView {
  csrf: string;
  keys: ApiKeyRecord[];
  /** One-time form id, so a reload of the POST cannot make a second key. */
  formId: string;
  baseUrl: string;
  /** Only in the response to the POST that made it. */
  newKey?: { name: string; plaintext: string } | null;
  error?: string | null;
  name?: string;
}

function keyStatus(key: ApiKeyRecord): SafeHtml {
  return key.revokedAt
    ? html`<span class="badge badge-revoked">Revoked</span>
        <span class="muted small">${timeElement(key.revokedAt)}</span>`
    : html`<span class="badge badge-active">Active</span>`;
}

function revokeForm(key: ApiKeyRecord, csrf: string): SafeHtml {
  return html`<form
    method="post"
    action="/dashboard/keys/${key.id}/revoke"
    class="inline-form"
    data-confirm="Revoke the key “${key.name}” (${key.displayPrefix}…)? Programs using it are refused with 401 from their next request. This cannot be undone."
    data-confirm-button="Revoke key"
  >
    ${csrfField(csrf)}
    <button
      type="submit"
      class="btn btn-danger-quiet btn-small"
      aria-label="Revoke key ${key.name}"
    >
      Revoke
    </button>
  </form>`;
}

function newKeyPanel(newKey: { name: string; plaintext: string }, baseUrl: string): SafeHtml {
  return html`<section class="card new-key" aria-labelledby="new-key-title">
    <h2 id="new-key-title">Your new key “${newKey.name}”</h2>
    <p class="warning-text" role="alert">
      <strong>Copy this key now — it is shown only once.</strong> emsim stores only a hash of it, so
      it can never be displayed again, not even to you. If you lose it, revoke it and generate a new
      one.
    </p>
    ${copyRow({ id: "new-key-value", value: newKey.plaintext, label: "Your new API key" })}
    <details class="usage">
      <summary>How to use it</summary>
      <pre class="code"><code>export EMSIM_API_KEY='${newKey.plaintext}'
curl -H "Authorization: Bearer $EMSIM_API_KEY" ${baseUrl}/v1/simulations</code></pre>
    </details>
  </section>`;
}

export function keysBody(view: KeysView): SafeHtml {
  const active = view.keys.filter((k) => !k.revokedAt).length;
  return html`<div class="page-head">
      <h1>API keys</h1>
      <p class="muted">
        Programs authenticate with a key in the header
        <code>Authorization: Bearer &lt;API_KEY&gt;</code>. Each key acts for your account; revoke a
        key you no longer use.
      </p>
    </div>
    ${view.newKey ? newKeyPanel(view.newKey, view.baseUrl) : ""}
    <section class="card" aria-labelledby="generate-title">
      <h2 id="generate-title">Generate New Key</h2>
      ${formError(view.error)}
      <form method="post" action="/dashboard/keys" class="form form-inline">
        ${csrfField(view.csrf)}
        <input type="hidden" name="form_id" value="${view.formId}" />
        ${inputField({
          id: "key-name",
          name: "name",
          label: "Name",
          type: "text",
          maxLength: 100,
          placeholder: "e.g. laptop, CI pipeline",
          value: view.name ?? "",
          hint: "A name that tells you where the key is used.",
          grow: true,
        })}
        <button type="submit" class="btn btn-primary">Generate New Key</button>
      </form>
    </section>
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">Your keys <span class="count">${active} active</span></h2>
      ${
        view.keys.length === 0
          ? html`<p class="empty">No keys yet. Generate one above to call the API.</p>`
          : html`<div class="table-wrap">
              <table class="table responsive" id="keys-table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Key</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Status</th>
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${view.keys.map(
                    (k) =>
                      html`<tr data-key-id="${k.id}" ${k.revokedAt ? html` class="row-muted"` : ""}>
                        <td data-label="Name"><strong>${k.name}</strong></td>
                        <td data-label="Key"><code class="mono">${k.displayPrefix}…</code></td>
                        <td data-label="Created">${timeElement(k.createdAt)}</td>
                        <td data-label="Last used">${timeElement(k.lastUsedAt, "never")}</td>
                        <td data-label="Status">${keyStatus(k)}</td>
                        <td class="actions">${k.revokedAt ? "" : revokeForm(k, view.csrf)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>`;
}

export function revokeConfirmBody(key: ApiKeyRecord, csrf: string): SafeHtml {
  return html`<section class="card confirm-card" aria-labelledby="confirm-title">
    <h1 id="confirm-title">Revoke the key “${key.name}”?</h1>
    <p>
      Key <code>${key.displayPrefix}…</code>, created ${timeElement(key.createdAt)}, last used
      ${timeElement(key.lastUsedAt, "never")}.
    </p>
    <p>
      Programs using it are refused with <strong>401</strong> from their next request. This cannot
      be undone.
    </p>
    <form method="post" action="/dashboard/keys/${key.id}/revoke" class="actions-row">
      ${csrfField(csrf)}
      <input type="hidden" name="confirm" value="yes" />
      <button type="submit" class="btn btn-danger">Revoke key</button>
      <a class="btn btn-quiet" href="/dashboard/keys">Cancel</a>
    </form>
  </section>`;
}
