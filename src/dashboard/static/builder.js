// @ts-check
/* global document, window, fetch, location, performance, setTimeout, clearTimeout, requestAnimationFrame, AbortController, URLSearchParams, HTMLElement, HTMLInputElement, HTMLButtonElement, HTMLCanvasElement, FormData, btoa */
/**
 * The New simulation page (views/builder.ts): the form and the JSON editor kept in step both
 * ways, and after each change the set-up previewed — the request posted to
 * /dashboard/api/simulations/preview 25 ms after the last keystroke (an answer to an
 * older request is dropped, and its fetch aborted), its three planes drawn (builder-draw.js),
 * its warnings, estimate and problems shown (builder-panels.js), and the 3-D view, a module of
 * its own loaded when the page names it, updated. Submit posts the JSON with the page's CSRF
 * token and opens the new job's page; the form's plain post is the fallback without scripts.
 */
import { attachCompletion } from "./builder-complete.js";
import { drawPlane, epsScale, KIND_STYLE, planeWords } from "./builder-draw.js";
import { addItem, formProblem, keptFields, readForm, writeForm } from "./builder-form.js";
import { clearEstimate, showEstimate, showProblems, showWarnings } from "./builder-panels.js";

/** Quiet time after a change before the preview is asked for: typing sends one, not ten. */
const DEBOUNCE_MS = 25;

/**
 * @typedef {import("./builder-form.js").Request} Request
 * @typedef {import("./builder-form.js").Material} Material
 * @typedef {import("./builder-draw.js").Answer & {warnings: import("./builder-panels.js").Warning[],
 *   estimate: import("./builder-panels.js").Estimate, scene?: unknown}} PreviewAnswer
 * @typedef {{update(scene: unknown): void, dispose(): void}} SetupView
 */

/** @param {string} id */
function byId(id) {
  const node = document.getElementById(id);
  if (!(node instanceof HTMLElement)) throw new Error(`the builder page has no #${id}`);
  return node;
}

/** @param {Uint8Array} bytes */
function base64url(bytes) {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let k = 0; k < bytes.length; k += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The request as the editor shows it: indented, with lists of numbers or names on one line
 * (`"size": [3e-6, 2.5e-8, 3e-6]`) as people write them, not a number a line. The server's
 * first rendering does the same (routes/builder.ts).
 * @param {unknown} request
 */
function requestText(request) {
  return JSON.stringify(request, null, 2).replace(
    /\[\s+([^[\]{}]*?)\s+\]/g,
    (_all, items) => `[${items.replace(/\s*\n\s*/g, " ")}]`,
  );
}

/** The outlines' legend: each kind's line (solid or dashed, in its colour) and its words. */
function legendItems() {
  return Object.values(KIND_STYLE).map((style) => {
    const item = document.createElement("span");
    item.className = "builder-legend-item";
    const line = document.createElement("span");
    line.className = "builder-legend-line";
    // Through the CSSOM, which the page's style-src 'self' allows (a style attribute it would not).
    line.style.borderTopColor = style.colour;
    line.style.borderTopStyle = style.dash ? "dashed" : "solid";
    item.append(line, style.words);
    return item;
  });
}

class Builder {
  /** @param {HTMLFormElement} form */
  constructor(form) {
    this.form = form;
    this.fields = byId("form-fields");
    this.editor = /** @type {HTMLTextAreaElement} */ (byId("builder-json"));
    this.csrf = String(new FormData(form).get("_csrf") ?? "");
    /** @type {Material[]} */
    this.materials = JSON.parse(form.dataset.materials ?? "[]");
    /** @type {Request | null} */
    this.request = null;
    /** @type {PreviewAnswer | null} */
    this.answer = null;
    this.latest = 0;
    this.drawn = 0;
    this.changedAt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {AbortController | null} */
    this.inFlight = null;
    /** @type {Promise<SetupView | null> | null} */
    this.view3d = null;
    this.problems = {
      list: byId("builder-errors"),
      none: byId("builder-errors-none"),
      fields: this.fields,
      editor: this.editor,
    };
  }

  start() {
    // Text, choices and check boxes all send `input` (a `change` after it would ask again).
    this.fields.addEventListener("input", () => this.onFormEdit());
    this.fields.addEventListener("click", (event) => this.onListClick(event));
    this.editor.addEventListener("input", () => this.onJsonEdit());
    for (const input of document.querySelectorAll("input[data-plane]")) {
      input.addEventListener("input", () => this.changed());
    }
    byId("gds-upload").addEventListener("click", () => this.uploadGds());
    this.form.addEventListener("submit", (event) => this.submit(event));
    const table = JSON.parse(this.form.dataset.completion ?? "{}");
    attachCompletion(this.editor, byId("json-complete"), table, () => this.onJsonEdit());
    let resizing = false;
    window.addEventListener("resize", () => {
      if (resizing) return;
      resizing = true;
      requestAnimationFrame(() => {
        resizing = false;
        this.draw();
      });
    });
    window.addEventListener("pagehide", () => this.view3d?.then((v) => v?.dispose()));
    byId("builder-form").hidden = false;
    byId("planes-legend").replaceChildren(...legendItems());
    this.onJsonEdit();
  }

  // ---------- the two editors ----------

  /** The JSON was edited: the form follows, or goes read-only if it cannot show the request. */
  onJsonEdit() {
    let parsed;
    try {
      parsed = JSON.parse(this.editor.value);
    } catch (err) {
      this.request = null;
      this.setFormState(
        `the JSON does not parse (${String(err instanceof Error ? err.message : err)})`,
      );
      showProblems(this.problems, [
        { path: "JSON", message: String(err instanceof Error ? err.message : err) },
      ]);
      byId("builder-planes").classList.add("stale");
      return;
    }
    this.request = parsed;
    const problem = formProblem(parsed);
    if (!problem) writeForm(this.fields, parsed, this.materials);
    this.setFormState(problem);
    this.changed();
  }

  /** A form control changed: the request and its JSON follow. */
  onFormEdit() {
    if (!this.request || /** @type {HTMLFieldSetElement} */ (this.fields).disabled) return;
    this.request = readForm(this.fields, this.request);
    this.writeJson();
    this.changed();
  }

  /** @param {Event} event */
  onListClick(event) {
    const button = event.target instanceof HTMLElement ? event.target.closest("button") : null;
    if (!(button instanceof HTMLButtonElement) || !this.request) return;
    const add = button.dataset.add;
    const remove = button.dataset.remove;
    if (!add && !remove) return;
    const request = readForm(this.fields, this.request);
    let focus = "";
    if (add === "box" || add === "field") {
      const i = addItem(request, add, this.materials.find((m) => m.name === "Si")?.name ?? "SiO2");
      focus = add === "box" ? `structure-${i}-material` : `monitor-${i}-name`;
    } else if (remove === "structures" || remove === "monitors") {
      request[remove].splice(Number(button.dataset.index), 1);
    }
    this.request = request;
    writeForm(this.fields, request, this.materials);
    this.writeJson();
    // Focus goes to the new row, or after a removal to the list's Add button.
    const next = focus
      ? document.getElementById(focus)
      : this.fields.querySelector(`[data-add="${remove === "structures" ? "box" : "field"}"]`);
    if (next instanceof HTMLElement) next.focus();
    this.changed();
  }

  /** @param {string | null} problem why the form cannot show the request, or null */
  setFormState(problem) {
    const note = byId("form-note");
    const fieldset = /** @type {HTMLFieldSetElement} */ (this.fields);
    fieldset.disabled = problem !== null;
    const kept = problem === null && this.request ? keptFields(this.request) : [];
    note.hidden = problem === null && kept.length === 0;
    note.classList.toggle("builder-note-warning", problem !== null);
    note.textContent =
      problem !== null
        ? `The form is read-only: ${problem}. Edit the JSON; the form follows again once it can show the request.`
        : `Kept from the JSON, edit them there: ${kept.join(", ")}.`;
  }

  writeJson() {
    this.editor.value = `${requestText(this.request)}\n`;
  }

  // ---------- the preview ----------

  changed() {
    this.changedAt = performance.now();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.preview(), DEBOUNCE_MS);
  }

  /** The planes asked for: x, y and z through the positions typed (µm, 0 if not a number). */
  planes() {
    return [...document.querySelectorAll("input[data-plane]")].map((input) => {
      const typed = input instanceof HTMLInputElement ? Number(input.value.trim() || "0") : 0;
      if (Number.isFinite(typed)) input.removeAttribute("aria-invalid");
      else input.setAttribute("aria-invalid", "true");
      const position = Number.isFinite(typed) ? Number((typed * 1e-6).toPrecision(12)) : 0;
      return { normal: input instanceof HTMLElement ? input.dataset.plane : "x", position };
    });
  }

  async preview() {
    if (!this.request) return;
    const request = ++this.latest;
    const since = this.changedAt;
    this.inFlight?.abort();
    const controller = (this.inFlight = new AbortController());
    const body = new URLSearchParams({
      _csrf: this.csrf,
      simulation: JSON.stringify(this.request),
      planes: JSON.stringify(this.planes()),
      max_samples: this.form.dataset.maxSamples ?? "300",
    });
    let res;
    let data;
    const asked = performance.now();
    try {
      res = await fetch(this.form.dataset.preview ?? "", {
        method: "POST",
        headers: { accept: "application/json" },
        body,
        signal: controller.signal,
      });
      data = await res.json();
    } catch {
      // Aborted for a newer change (nothing to say), or no answer: the next change asks again.
      if (request === this.latest) {
        showProblems(this.problems, [
          {
            path: "",
            message: "The preview did not answer; it is asked again at the next change.",
          },
        ]);
      }
      return;
    }
    if (request !== this.latest) return;
    if (res.status === 401) location.reload();
    this.form.dataset.answerMs = (performance.now() - asked).toFixed(1);
    this.answered(res.status, data, since);
  }

  /**
   * @param {number} status @param {any} data @param {number} since when the change was made
   */
  answered(status, data, since) {
    const planes = byId("builder-planes");
    if (status === 200) {
      this.answer = data;
      const drawing = performance.now();
      this.draw();
      this.form.dataset.drawMs = (performance.now() - drawing).toFixed(1);
      showProblems(this.problems, []);
      showWarnings(byId("builder-warnings"), byId("builder-warnings-none"), data.warnings);
      showEstimate(byId("builder-estimate"), byId("estimate-notes"), data.estimate);
      planes.classList.remove("stale");
      byId("setup-3d").classList.remove("stale");
      this.show3d(data.scene);
    } else {
      /** @type {{path: string, message: string}[]} */
      const errors = data.errors ?? [{ path: "", message: data.detail ?? `HTTP ${status}` }];
      showProblems(this.problems, errors);
      planes.classList.add("stale");
      // A plane outside the grid is the planes' problem: the simulation's estimate and its
      // 3-D view stand, and the plane's position is marked.
      const planeIndex = (/** @type {{path: string}} */ e) =>
        /^planes\[(\d+)\]/.exec(e.path ?? "")?.[1];
      if (errors.length > 0 && errors.every((e) => planeIndex(e) !== undefined)) {
        const inputs = document.querySelectorAll("input[data-plane]");
        for (const e of errors) inputs[Number(planeIndex(e))]?.setAttribute("aria-invalid", "true");
      } else {
        clearEstimate(byId("builder-estimate"), byId("estimate-notes"));
        byId("setup-3d").classList.add("stale");
      }
    }
    // Read by the tests (a log line, not a limit): from the change to its answer drawn, and
    // of that the server's answer (answerMs, fetch and parse) and the drawing (drawMs).
    this.form.dataset.redrawMs = (performance.now() - since).toFixed(1);
    this.form.dataset.previews = String(++this.drawn);
  }

  draw() {
    const answer = this.answer;
    if (!answer) return;
    const scale = epsScale(answer);
    for (const plane of answer.planes) {
      const canvas = document.getElementById(`plane-${plane.normal}`);
      if (!(canvas instanceof HTMLCanvasElement)) continue;
      const stretched = drawPlane(canvas, answer, plane, scale);
      const words = planeWords(plane, stretched);
      canvas.setAttribute("aria-label", words.label);
      byId(`plane-${plane.normal}-caption`).textContent = words.caption;
      canvas.dataset.drawn = String(this.drawn + 1);
    }
    byId("planes-scale").textContent =
      `Re ε from ${scale.lo.toPrecision(3)} (white) to ${scale.hi.toPrecision(3)} (darkest); metals gold, perfect conductors grey.`;
  }

  /**
   * The 3-D view, loaded on the first scene; the page works on without it if it fails to load.
   * @param {unknown} scene
   */
  async show3d(scene) {
    const url = this.form.dataset.setupView;
    if (!url || !scene) return;
    this.view3d ??= import(url)
      .then((m) => /** @type {SetupView} */ (m.mountSetupView(byId("setup-3d"))))
      .catch(() => null);
    (await this.view3d)?.update(scene);
  }

  // ---------- submission and upload ----------

  /** @param {SubmitEvent} event */
  async submit(event) {
    event.preventDefault();
    const button = byId("builder-submit");
    const status = byId("submit-status");
    button.setAttribute("disabled", "");
    status.textContent = "Submitting…";
    try {
      const res = await fetch(this.form.action, {
        method: "POST",
        headers: { accept: "application/json" },
        body: new URLSearchParams({ _csrf: this.csrf, simulation: this.editor.value }),
      });
      if (res.status === 401) return location.reload();
      const data = res.status === 403 ? {} : await res.json().catch(() => ({}));
      if (res.ok && typeof data.job_url === "string") return location.assign(data.job_url);
      status.textContent =
        res.status === 403
          ? "The page has expired (signed out elsewhere?): copy the JSON, reload the page and try again."
          : (data.detail ?? `The server answered ${res.status}.`);
      if (Array.isArray(data.errors)) showProblems(this.problems, data.errors);
    } catch {
      status.textContent = "The server could not be reached; try again.";
    } finally {
      button.removeAttribute("disabled");
    }
  }

  /** Uploads the chosen GDS II file and adds it as a structure (its first layer, on Si). */
  async uploadGds() {
    const input = /** @type {HTMLInputElement} */ (byId("gds-file"));
    const status = byId("gds-status");
    const file = input.files?.[0];
    if (!file || !this.request) {
      status.textContent = file ? "Fix the JSON first." : "Choose a GDS II file first.";
      return;
    }
    status.textContent = `Uploading ${file.name}…`;
    const body = new URLSearchParams({
      _csrf: this.csrf,
      file: base64url(new Uint8Array(await file.arrayBuffer())),
    });
    let res;
    try {
      res = await fetch(this.form.dataset.gds ?? "", {
        method: "POST",
        headers: { accept: "application/json" },
        body,
      });
    } catch {
      status.textContent = "The server could not be reached; try the upload again.";
      return;
    }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      status.textContent = data.detail ?? `The upload was refused (${res.status}).`;
      return;
    }
    const [layer = "1", datatype = "0"] = String(data.layer_keys?.[0] ?? "1/0").split("/");
    const request = readForm(this.fields, this.request);
    request.structures = [
      ...(request.structures ?? []),
      {
        type: "gds",
        gds_url: data.gds_url,
        layers: [
          {
            layer: Number(layer),
            datatype: Number(datatype),
            material: "Si",
            z_min: 0,
            z_max: 0.22e-6,
          },
        ],
      },
    ];
    this.request = request;
    writeForm(this.fields, request, this.materials);
    this.writeJson();
    this.changed();
    status.textContent = `${file.name}: layers ${(data.layer_keys ?? []).join(", ")}; added as structure ${request.structures.length} (layer ${layer}/${datatype}, 0 to 0.22 µm).`;
  }
}

/** @param {HTMLFormElement} form */
export function initBuilder(form) {
  new Builder(form).start();
  // Marks the page as live: the tests wait for it before they type.
  form.dataset.builderLive = "true";
}
