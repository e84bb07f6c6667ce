// @ts-check
/* global document, fetch, FormData, URLSearchParams */
/**
 * The job page's Fabrication panel (views/fabrication.ts): fills the layer mapping from the
 * chosen kit, exports the layout as GDS II and draws it (fabrication-layout.js), runs the
 * design-rule check and marks each violation on the drawing and in a table, and lists the
 * kit's recipe. Requests are the dashboard's own session routes; POSTs are urlencoded forms
 * carrying the page's CSRF token.
 */
import { drawLayout, markViolation, removeViolationMarks, um } from "./fabrication-layout.js";

/**
 * @typedef {{key: string, name: string, description: string}} KitLayer
 * @typedef {{name: string, title: string, illustrative: boolean, layers: KitLayer[],
 *   suggested_mapping: Record<string, string | null>}} Kit
 * @typedef {{materials: string[], pdks: Kit[]}} Setup
 * @typedef {import("./fabrication-layout.js").Violation} Violation
 */

/**
 * @param {string} tag
 * @param {string} [text]
 * @param {string} [className]
 */
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** @param {HTMLElement} root the #fabrication section */
export async function initFabrication(root) {
  await new FabricationPanel(root).start();
}

class FabricationPanel {
  /** @param {HTMLElement} root the #fabrication section */
  constructor(root) {
    this.root = root;
    /** @param {string} selector */
    const find = (selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
    this.form = /** @type {HTMLFormElement} */ (find("#fab-form"));
    this.pdkSelect = /** @type {HTMLSelectElement} */ (find("#fab-pdk"));
    this.mappingBody = find("#fab-mapping");
    this.exportButton = /** @type {HTMLButtonElement} */ (find("#fab-export"));
    this.drcButton = /** @type {HTMLButtonElement} */ (find("#fab-drc"));
    this.recipeButton = /** @type {HTMLButtonElement} */ (find("#fab-recipe"));
    this.status = find("#fab-status");
    this.result = find("#fab-result");
    this.summary = find("#fab-summary");
    this.drawing = /** @type {SVGElement} */ (root.querySelector("#fab-layout"));
    this.legend = find("#fab-layout-caption");
    this.drcResult = find("#fab-drc-result");
    this.drcSummary = find("#fab-drc-summary");
    this.violationRows = find("#fab-violations tbody");
    this.recipeList = find("#fab-recipe-steps");
    /** What the panel offers: the job's materials and the kits. */
    /** @type {Setup} */
    this.setup = { materials: [], pdks: [] };
    /** @type {Map<string, Kit>} */
    this.kits = new Map();
    /** The exported file and the scale of its drawing. */
    /** @type {{gdsUrl: string, pdk: string, markerRadius: number} | null} */
    this.current = null;
  }

  async start() {
    const setup = await this.loadSetup();
    if (!setup) return;
    this.setup = setup;
    this.kits = new Map(setup.pdks.map((k) => [k.name, k]));
    for (const kit of setup.pdks) {
      const option = el("option", `${kit.name} — ${kit.title}`);
      /** @type {HTMLOptionElement} */ (option).value = kit.name;
      this.pdkSelect.append(option);
    }
    this.pdkSelect.addEventListener("change", () => this.onKit());
    this.pdkSelect.disabled = false;
    this.exportButton.disabled = false;
    this.fillMapping();
    this.say(
      setup.materials.length
        ? "Choose a layer for each material to export (empty: left out)."
        : "This job has no structures to export.",
    );
    this.form.addEventListener("submit", (event) => this.exportLayout(event));
    this.drcButton.addEventListener("click", () => this.checkDesignRules());
    this.recipeButton.addEventListener("click", () => this.showRecipe());
  }

  /**
   * @param {string} text
   * @param {boolean} [error]
   */
  say(text, error = false) {
    this.status.textContent = text;
    this.status.classList.toggle("error-note", error);
    this.status.setAttribute("role", error ? "alert" : "status");
  }

  /**
   * The job's materials and the kits, or null (said in the panel) if they could not be had.
   * @returns {Promise<Setup | null>}
   */
  async loadSetup() {
    try {
      const res = await fetch(this.root.dataset.setup ?? "", {
        headers: { accept: "application/json" },
        cache: "no-store",
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return /** @type {Setup} */ (await res.json());
    } catch (err) {
      this.say(
        `The fabrication panel could not load (${/** @type {Error} */ (err).message}).`,
        true,
      );
      return null;
    }
  }

  /**
   * POSTs the fields as a form with the page's CSRF token; the JSON answer, or an Error with
   * the server's `detail`.
   * @param {string} url
   * @param {URLSearchParams} fields
   */
  async post(url, fields) {
    const csrf = /** @type {HTMLInputElement} */ (this.form.querySelector('input[name="_csrf"]'));
    fields.set("_csrf", csrf.value);
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: fields.toString(),
      cache: "no-store",
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.detail ?? `HTTP ${res.status}`);
    return body;
  }

  /** Another kit: its layers in the mapping, and the last check's results gone. */
  onKit() {
    this.fillMapping();
    this.drcResult.hidden = true;
    this.recipeList.hidden = true;
    removeViolationMarks(this.drawing);
  }

  /** One row per material: a layer input prefilled with the kit's suggestion. */
  fillMapping() {
    const kit = this.kits.get(this.pdkSelect.value);
    this.mappingBody.replaceChildren();
    for (const [i, material] of this.setup.materials.entries()) {
      const suggested = kit?.suggested_mapping[material] ?? null;
      const row = el("tr");
      // A td, not a row header: the table's headers are set in capitals, material names not.
      const name = el("td", material, "mono");
      const cell = el("td");
      const input = /** @type {HTMLInputElement} */ (el("input"));
      input.type = "text";
      input.name = `map.${material}`;
      input.id = `fab-map-${i}`;
      input.value = suggested ?? "";
      input.placeholder = "left out";
      input.setAttribute("aria-label", `GDS layer for ${material}`);
      input.className = "fab-layer-input mono";
      cell.append(input);
      const layer = suggested ? kit?.layers.find((l) => l.key === suggested) : undefined;
      const note = el(
        "td",
        layer ? `${layer.name}: ${layer.description}` : `no ${kit?.name ?? ""} layer makes it`,
        "muted",
      );
      row.append(name, cell, note);
      this.mappingBody.append(row);
    }
  }

  /** @param {Event} event the form's submission */
  async exportLayout(event) {
    event.preventDefault();
    this.exportButton.disabled = true;
    this.drcButton.disabled = true;
    this.recipeButton.disabled = true;
    this.say("Exporting…");
    try {
      const fields = new URLSearchParams();
      for (const [k, v] of new FormData(this.form)) if (typeof v === "string") fields.append(k, v);
      const body = await this.post(this.root.dataset.export ?? "", fields);
      this.showExport(body);
      this.drcButton.disabled = false;
      this.recipeButton.disabled = false;
      this.say("Exported. Run the design-rule check against the chosen kit.");
    } catch (err) {
      this.say(`Export failed: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      this.exportButton.disabled = false;
    }
  }

  /**
   * The export's drawing and summary, the previous check's and recipe's results hidden.
   * @param {any} body the export route's answer
   */
  showExport(body) {
    const e = body.export;
    this.result.hidden = false;
    this.drcResult.hidden = true;
    this.recipeList.hidden = true;
    const size = drawLayout(this.drawing, this.legend, body.layout) ?? 1000;
    this.current = { gdsUrl: e.gds_url, pdk: this.pdkSelect.value, markerRadius: size * 0.04 };
    this.summary.replaceChildren();
    const link = /** @type {HTMLAnchorElement} */ (el("a", "Download GDS", "btn btn-small"));
    link.id = "fab-download";
    link.href = e.gds_url;
    link.setAttribute("download", "");
    const bbox = e.bbox_um ? `[${e.bbox_um.map(um).join(", ")}] µm` : "empty";
    this.summary.append(
      link,
      ` ${e.polygon_count} polygons on ${e.layer_details.map((/** @type {{key: string}} */ l) => l.key).join(", ") || "no layers"}; box ${bbox}` +
        (e.unmapped_materials.length ? `; left out: ${e.unmapped_materials.join(", ")}` : "") +
        (e.skipped.length ? `; ${e.skipped.length} structure(s) skipped` : ""),
    );
  }

  async checkDesignRules() {
    if (!this.current) return;
    this.drcButton.disabled = true;
    this.say("Checking…");
    try {
      const drc = await this.post(
        this.root.dataset.drc ?? "",
        new URLSearchParams({ gds_url: this.current.gdsUrl, pdk: this.pdkSelect.value }),
      );
      this.markViolations(drc.violations);
      this.drcSummary.textContent = drc.summary;
      this.drcSummary.className = drc.passed ? "fab-passed" : "fab-failed";
      this.drcResult.hidden = false;
      this.root
        .querySelector("#fab-violations")
        ?.toggleAttribute("hidden", drc.violations.length === 0);
      this.say(drc.passed ? "DRC passed." : `DRC failed: ${drc.violations.length} violation(s).`);
    } catch (err) {
      this.say(`DRC failed to run: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      this.drcButton.disabled = false;
    }
  }

  /**
   * Each violation marked on the drawing and listed in the table; hovering its row highlights
   * its mark.
   * @param {Violation[]} violations
   */
  markViolations(violations) {
    removeViolationMarks(this.drawing);
    this.violationRows.replaceChildren();
    const r = this.current?.markerRadius ?? 10;
    for (const [i, v] of violations.entries()) {
      const mark = markViolation(this.drawing, v, i, r);
      const row = el("tr");
      row.dataset.index = String(i);
      for (const text of [
        String(i + 1),
        v.rule,
        v.layer,
        `(${v.location.map(um).join(", ")})`,
        String(v.actual_nm),
        String(v.required_nm),
        v.severity,
      ]) {
        row.append(el("td", text));
      }
      row.addEventListener("mouseenter", () => mark.classList.add("fab-violation-active"));
      row.addEventListener("mouseleave", () => mark.classList.remove("fab-violation-active"));
      this.violationRows.append(row);
    }
  }

  async showRecipe() {
    if (!this.current) return;
    this.recipeButton.disabled = true;
    try {
      const recipe = await this.post(
        this.root.dataset.recipe ?? "",
        new URLSearchParams({ gds_url: this.current.gdsUrl, pdk: this.pdkSelect.value }),
      );
      this.recipeList.replaceChildren();
      for (const step of recipe.steps) {
        this.recipeList.append(el("li", `${step.step}: ${step.description}`));
      }
      for (const w of recipe.warnings) {
        this.recipeList.append(el("li", `Warning: ${w}`, "warning-text"));
      }
      this.recipeList.hidden = false;
    } catch (err) {
      this.say(`Recipe failed: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      this.recipeButton.disabled = false;
    }
  }
}
