/**
 * The New simulation page (issue #31): a form for the common fields of a request, the request
 * as JSON beside it (the two kept in step by static/builder.js), the problems the preview
 * finds, and on the right the set-up as the run sees it — the 3-D view, the estimate, the
 * warnings and ε on three planes — redrawn as the request changes.
 *
 * Without scripts the page is the JSON editor and a Submit button: the form below is a plain
 * post of the textarea to /dashboard/simulations, and the form fields, which only a script can
 * keep in step with it, stay hidden.
 */
import { html, raw, type SafeHtml } from "../html.js";
import type { CompletionTable } from "./builder-schema.js";
import { csrfField, formError } from "./forms.js";
import { shortId } from "./format.js";

export interface BuilderMaterial {
  name: string;
  kind: string;
}

export interface BuilderView {
  csrf: string;
  /** The request to start from, as the editor shows it (pretty JSON). */
  requestJson: string;
  /** The job whose request this is ("Edit and run again"), or null. */
  fromJobId: string | null;
  materials: BuilderMaterial[];
  completion: CompletionTable;
  /** Where the 3-D view's module is served. */
  setup3dUrl: string;
  /** Samples per axis the page asks of each plane. */
  maxSamples: number;
  /** Why a submission without scripts was refused: its detail and field errors. */
  refusal?: { detail: string; errors: { path: string; message: string }[] } | null;
}

const AXES = ["x", "y", "z"] as const;
const BOUNDARIES = ["pml", "periodic", "pec", "pmc"] as const;

/** A labelled text input for one number; `path` names the request field it edits. */
function numberField(id: string, path: string, label: string, hint = ""): SafeHtml {
  return html`<div class="field" data-field-for="${path}">
    <label for="${id}">${label}</label>
    <input
      id="${id}"
      type="text"
      inputmode="decimal"
      autocomplete="off"
      spellcheck="false"
      data-path="${path}"
      ${hint ? html`aria-describedby="${id}-hint"` : ""}
    />
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ""}
  </div>`;
}

/** Three inputs for a vector (x, y, z), named in full for screen readers ("Domain size x (µm)"). */
function vectorField(id: string, path: string, legend: string, unit: string): SafeHtml {
  const words = unit ? ` (${unit})` : "";
  return html`<fieldset class="builder-vector" data-field-for="${path}">
    <legend>${legend}${words}</legend>
    ${AXES.map(
      (axis, i) =>
        html`<div class="field">
          <label for="${id}-${axis}"
            ><span class="sr-only">${legend} </span>${axis}<span class="sr-only"
              >${words}</span
            ></label
          >
          <input
            id="${id}-${axis}"
            type="text"
            inputmode="decimal"
            autocomplete="off"
            spellcheck="false"
            data-path="${path}[${i}]"
          />
        </div>`,
    )}
  </fieldset>`;
}

function boundarySelects(): SafeHtml {
  return html`<fieldset class="builder-vector" data-field-for="domain.boundary_conditions">
    <legend>Boundaries</legend>
    ${AXES.map(
      (axis, i) =>
        html`<div class="field">
          <label for="domain-boundary-${axis}"><span class="sr-only">Boundary </span>${axis}</label>
          <select id="domain-boundary-${axis}" data-path="domain.boundary_conditions[${i}]">
            ${BOUNDARIES.map((b) => html`<option value="${b}">${b}</option>`)}
          </select>
        </div>`,
    )}
  </fieldset>`;
}

function domainGroup(): SafeHtml {
  return html`<fieldset class="builder-group">
    <legend>Domain</legend>
    ${vectorField("domain-size", "domain.size", "Domain size", "µm")}
    <div class="builder-row">
      ${numberField("domain-step", "domain.resolution", "Grid step (µm)")}
      ${numberField("domain-pml", "domain.pml_layers", "PML layers", "Empty: the default.")}
    </div>
    ${boundarySelects()}
  </fieldset>`;
}

function sourceGroup(): SafeHtml {
  return html`<fieldset class="builder-group">
    <legend>Source: plane wave</legend>
    <div class="builder-row">
      ${numberField("source-wavelength", "source.wavelength", "Wavelength (µm)")}
      <div class="field" data-field-for="source.polarization">
        <label for="source-polarization">Polarization</label>
        <select id="source-polarization" data-path="source.polarization">
          <option value="te">te (s)</option>
          <option value="tm">tm (p)</option>
        </select>
      </div>
    </div>
    ${vectorField("source-direction", "source.direction", "Direction", "")}
  </fieldset>`;
}

/** The structures' and monitors' rows are drawn by the script (they come and go). */
function listGroup(kind: "structures" | "monitors"): SafeHtml {
  const structures = kind === "structures";
  return html`<fieldset class="builder-group" data-field-for="${kind}">
    <legend>${structures ? "Structures" : "Monitors"}</legend>
    <ol class="builder-list" id="${kind}-list"></ol>
    <div class="actions-row">
      <button type="button" class="btn btn-small" data-add="${structures ? "box" : "field"}">
        ${structures ? "Add box" : "Add field monitor"}
      </button>
    </div>
    ${structures ? gdsUpload() : ""}
  </fieldset>`;
}

function gdsUpload(): SafeHtml {
  return html`<div class="builder-gds">
    <div class="field">
      <label for="gds-file">GDS II layout</label>
      <input id="gds-file" type="file" accept=".gds,.gds2,.gdsii,application/octet-stream" />
    </div>
    <button type="button" class="btn btn-small btn-quiet" id="gds-upload">
      Upload as a structure
    </button>
    <p class="hint" id="gds-status" role="status"></p>
  </div>`;
}

function runGroup(): SafeHtml {
  return html`<fieldset class="builder-group">
    <legend>Run</legend>
    <div class="builder-row">
      ${numberField("run-steps", "fdtd_settings.time_steps", "Time steps")}
      ${numberField("run-threshold", "fdtd_settings.convergence_threshold", "Convergence threshold")}
      ${numberField("run-check", "fdtd_settings.check_every_n", "Check every (steps)")}
    </div>
    <p class="hint">Empty: the default.</p>
  </fieldset>`;
}

function formCard(): SafeHtml {
  return html`<section
    class="card builder-form"
    id="builder-form"
    aria-labelledby="form-title"
    hidden
  >
    <h2 id="form-title">Set-up</h2>
    <p class="builder-note" id="form-note" hidden></p>
    <p class="hint">Lengths in µm here; the JSON holds metres.</p>
    <fieldset class="builder-fields" id="form-fields">
      <legend class="sr-only">The request's common fields</legend>
      ${domainGroup()} ${sourceGroup()} ${listGroup("structures")} ${listGroup("monitors")}
      ${runGroup()}
    </fieldset>
  </section>`;
}

function jsonCard(view: BuilderView): SafeHtml {
  return html`<section class="card builder-json" aria-labelledby="json-title">
    <h2 id="json-title"><label for="builder-json">Request (JSON)</label></h2>
    <div class="json-editor">
      <textarea
        id="builder-json"
        name="simulation"
        rows="22"
        spellcheck="false"
        autocomplete="off"
        autocapitalize="off"
        aria-describedby="json-hint"
        aria-autocomplete="list"
        aria-controls="json-complete"
      >
${view.requestJson}</textarea>
      <ul
        class="json-complete"
        id="json-complete"
        role="listbox"
        aria-label="Field names"
        hidden
      ></ul>
    </div>
    <p class="hint" id="json-hint">
      Lengths in metres. Field names are offered as you type one: ↑ ↓ to choose, Enter or Tab to
      take it, Esc to close.
    </p>
  </section>`;
}

function problemsCard(view: BuilderView): SafeHtml {
  const refusal = view.refusal;
  return html`<section class="card builder-problems" aria-labelledby="problems-title">
    <h2 id="problems-title">Problems</h2>
    ${formError(refusal ? refusal.detail : null)}
    <ul class="builder-errors" id="builder-errors" aria-live="polite">
      ${(refusal?.errors ?? []).map(
        (e) => html`<li><span class="mono">${e.path}</span> ${e.message}</li>`,
      )}
    </ul>
    <p class="empty" id="builder-errors-none" ${refusal ? raw("hidden") : ""}>None found.</p>
  </section>`;
}

/** The estimate's facts, filled in by the script from the preview's answer. */
function estimateCard(): SafeHtml {
  const fact = (key: string, label: string) =>
    html`<div>
      <dt>${label}</dt>
      <dd data-estimate="${key}">—</dd>
    </div>`;
  return html`<section class="card builder-estimate" aria-labelledby="estimate-title">
    <h2 id="estimate-title">Estimate</h2>
    <dl class="facts" id="builder-estimate">
      ${fact("cells", "Cells")} ${fact("grid", "Grid")} ${fact("memory", "Memory")}
      ${fact("time", "Time")} ${fact("result", "Result file")}
    </dl>
    <ul class="builder-notes" id="estimate-notes"></ul>
  </section>`;
}

function planeFigure(axis: (typeof AXES)[number]): SafeHtml {
  return html`<figure class="builder-plane">
    <div class="builder-plane-stage">
      <canvas
        id="plane-${axis}"
        data-normal="${axis}"
        role="img"
        aria-label="The plane ${axis} = 0 (not drawn yet)"
      ></canvas>
    </div>
    <figcaption>
      <span id="plane-${axis}-caption">${axis} = 0</span>
      <label class="builder-plane-position"
        >${axis} (µm)
        <input
          type="text"
          inputmode="decimal"
          id="plane-${axis}-position"
          data-plane="${axis}"
          value="0"
          autocomplete="off"
          aria-label="Position of the ${axis} plane (µm)"
      /></label>
    </figcaption>
  </figure>`;
}

function viewColumn(): SafeHtml {
  return html`<div class="builder-view">
    <section class="card builder-3d-card" aria-labelledby="view-3d-title">
      <h2 id="view-3d-title">Set-up</h2>
      <div id="setup-3d" class="setup-3d" aria-label="The set-up in 3-D"></div>
    </section>
    <section class="card builder-warnings-card" aria-labelledby="warnings-title">
      <h2 id="warnings-title">Warnings</h2>
      <ul class="builder-warnings" id="builder-warnings" aria-live="polite"></ul>
      <p class="empty" id="builder-warnings-none">None.</p>
    </section>
    ${estimateCard()}
    <section class="card builder-planes" id="builder-planes" aria-labelledby="planes-title">
      <h2 id="planes-title">Re ε on three planes</h2>
      <p class="hint" id="planes-scale"></p>
      <div class="builder-plane-grid">${AXES.map(planeFigure)}</div>
      <p class="builder-legend" id="planes-legend" aria-hidden="true"></p>
    </section>
  </div>`;
}

function pageHead(view: BuilderView): SafeHtml {
  const from = view.fromJobId;
  return html`<div class="page-head">
    <h1>New simulation</h1>
    <p class="muted">
      Build the request in the form or as JSON: the set-up, its warnings and the estimate are
      redrawn as it changes. Submit runs it as your account.
    </p>
    ${
      from
        ? html`<p class="muted" id="builder-from">
            Starting from job <a class="mono" href="/dashboard/jobs/${from}">${shortId(from)}</a>.
          </p>`
        : ""
    }
    <noscript
      ><p class="hint">
        Without JavaScript, edit the JSON and submit; the form and the previews need it.
      </p></noscript
    >
  </div>`;
}

export function builderBody(view: BuilderView): SafeHtml {
  return html`${pageHead(view)}
    <form
      method="post"
      action="/dashboard/simulations"
      class="builder"
      id="builder"
      novalidate
      data-preview="/dashboard/api/simulations/preview"
      data-gds="/dashboard/api/gds"
      data-max-samples="${view.maxSamples}"
      data-materials="${JSON.stringify(view.materials)}"
      data-completion="${JSON.stringify(view.completion)}"
      data-setup-view="${view.setup3dUrl}"
    >
      ${csrfField(view.csrf)}
      <div class="builder-grid">
        <div class="builder-edit">
          ${formCard()} ${jsonCard(view)} ${problemsCard(view)}
          <div class="builder-actions">
            <button type="submit" class="btn btn-primary" id="builder-submit">Submit</button>
            <p class="hint" id="submit-status" role="status"></p>
          </div>
        </div>
        ${viewColumn()}
      </div>
    </form>`;
}
