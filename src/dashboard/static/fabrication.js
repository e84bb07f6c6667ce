// @ts-check
/* global document, fetch, FormData, URLSearchParams */
/**
 * The job page's Fabrication panel (views/fabrication.ts): fills the layer mapping from the
 * chosen kit, exports the layout as GDS II, draws its merged polygons as SVG (one colour per
 * layer, y up, in nanometres), runs the design-rule check and marks each violation on the
 * drawing (its two edges and a ring at its location) and in a table. Requests are the
 * dashboard's own session routes; POSTs are urlencoded forms carrying the page's CSRF token.
 */

const SVG_NS = "http://www.w3.org/2000/svg";
/** Fill colours by layer, in order of the layers in the file (readable on light and dark). */
const LAYER_COLOURS = ["#3a56d4", "#0d9488", "#c2410c", "#7c3aed", "#b45309", "#0e7490"];

/**
 * @typedef {{key: string, name: string, description: string}} KitLayer
 * @typedef {{name: string, title: string, illustrative: boolean, layers: KitLayer[],
 *   suggested_mapping: Record<string, string | null>}} Kit
 * @typedef {{outline: number[], holes: number[][]}} Polygon
 * @typedef {{layers: Record<string, Polygon[]>, bbox_nm: number[] | null, polygon_count: number,
 *   too_large: boolean}} Layout
 * @typedef {{rule: string, severity: string, location: number[], actual_nm: number,
 *   required_nm: number, layer: string, edges_nm: number[][]}} Violation
 */

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

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

/** A flat ring [x0, y0, x1, y1, …] (nm) as an SVG path, y flipped so that up is up. */
/** @param {number[]} ring */
function ringPath(ring) {
  let d = "";
  for (let i = 0; i < ring.length; i += 2) {
    d += `${i === 0 ? "M" : "L"}${ring[i]},${-(ring[i + 1] ?? 0)}`;
  }
  return `${d}Z`;
}

/** @param {number} v µm */
const um = (v) => `${Number(v.toFixed(4))}`;

/** @param {HTMLElement} root the #fabrication section */
// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
export async function initFabrication(root) {
  const form = /** @type {HTMLFormElement} */ (root.querySelector("#fab-form"));
  const pdkSelect = /** @type {HTMLSelectElement} */ (root.querySelector("#fab-pdk"));
  const mappingBody = /** @type {HTMLElement} */ (root.querySelector("#fab-mapping"));
  const exportButton = /** @type {HTMLButtonElement} */ (root.querySelector("#fab-export"));
  const drcButton = /** @type {HTMLButtonElement} */ (root.querySelector("#fab-drc"));
  const recipeButton = /** @type {HTMLButtonElement} */ (root.querySelector("#fab-recipe"));
  const status = /** @type {HTMLElement} */ (root.querySelector("#fab-status"));
  const result = /** @type {HTMLElement} */ (root.querySelector("#fab-result"));
  const summary = /** @type {HTMLElement} */ (root.querySelector("#fab-summary"));
  const drawing = /** @type {SVGElement} */ (root.querySelector("#fab-layout"));
  const legend = /** @type {HTMLElement} */ (root.querySelector("#fab-layout-caption"));
  const drcResult = /** @type {HTMLElement} */ (root.querySelector("#fab-drc-result"));
  const drcSummary = /** @type {HTMLElement} */ (root.querySelector("#fab-drc-summary"));
  const violationRows = /** @type {HTMLElement} */ (root.querySelector("#fab-violations tbody"));
  const recipeList = /** @type {HTMLElement} */ (root.querySelector("#fab-recipe-steps"));

  /** The exported file and the scale of its drawing. */
  /** @type {{gdsUrl: string, pdk: string, markerRadius: number} | null} */
  let current = null;

  /**
   * @param {string} text
   * @param {boolean} [error]
   */
  function say(text, error = false) {
    status.textContent = text;
    status.classList.toggle("error-note", error);
    status.setAttribute("role", error ? "alert" : "status");
  }

  /**
   * POSTs the fields as a form with the page's CSRF token; the JSON answer, or an Error with
   * the server's `detail`.
   * @param {string} url
   * @param {URLSearchParams} fields
   */
  async function post(url, fields) {
    const csrf = /** @type {HTMLInputElement} */ (form.querySelector('input[name="_csrf"]'));
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

  /** @type {{materials: string[], pdks: Kit[]}} */
  let setup;
  try {
    const res = await fetch(root.dataset.setup ?? "", {
      headers: { accept: "application/json" },
      cache: "no-store",
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    setup = /** @type {{materials: string[], pdks: Kit[]}} */ (await res.json());
  } catch (err) {
    say(`The fabrication panel could not load (${/** @type {Error} */ (err).message}).`, true);
    return;
  }
  const kits = new Map(setup.pdks.map((k) => [k.name, k]));
  for (const kit of setup.pdks) {
    const option = el("option", `${kit.name} — ${kit.title}`);
    /** @type {HTMLOptionElement} */ (option).value = kit.name;
    pdkSelect.append(option);
  }

  /** One row per material: a layer input prefilled with the kit's suggestion. */
  function fillMapping() {
    const kit = kits.get(pdkSelect.value);
    mappingBody.replaceChildren();
    for (const [i, material] of setup.materials.entries()) {
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
      mappingBody.append(row);
    }
  }

  pdkSelect.addEventListener("change", () => {
    fillMapping();
    drcResult.hidden = true;
    recipeList.hidden = true;
    for (const mark of drawing.querySelectorAll(".fab-violation")) mark.remove();
  });
  pdkSelect.disabled = false;
  exportButton.disabled = false;
  fillMapping();
  say(
    setup.materials.length
      ? "Choose a layer for each material to export (empty: left out)."
      : "This job has no structures to export.",
  );

  /** @param {Layout} layout */
  function draw(layout) {
    drawing.replaceChildren();
    legend.replaceChildren();
    const box = layout.bbox_nm;
    if (!box || layout.too_large) {
      drawing.setAttribute("hidden", "");
      legend.textContent = layout.too_large
        ? `${layout.polygon_count} polygons: too many to draw here; download the file.`
        : "The layout is empty.";
      return;
    }
    drawing.removeAttribute("hidden");
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = box;
    const w = Math.max(x1 - x0, 1);
    const h = Math.max(y1 - y0, 1);
    const pad = 0.06 * Math.max(w, h);
    drawing.setAttribute("viewBox", `${x0 - pad} ${-y1 - pad} ${w + 2 * pad} ${h + 2 * pad}`);
    const keys = Object.keys(layout.layers).sort();
    for (const [i, key] of keys.entries()) {
      const colour = LAYER_COLOURS[i % LAYER_COLOURS.length] ?? "#3a56d4";
      const group = svg("g", { "data-layer": key, fill: colour, "fill-opacity": 0.55 });
      for (const polygon of layout.layers[key] ?? []) {
        const d = [polygon.outline, ...polygon.holes].map(ringPath).join("");
        group.append(
          svg("path", {
            d,
            class: "fab-poly",
            "fill-rule": "evenodd",
            stroke: colour,
            "stroke-width": 1.5,
            "vector-effect": "non-scaling-stroke",
          }),
        );
      }
      drawing.append(group);
      const item = el("span", "", "fab-legend-item");
      const sw = svg("svg", { width: 12, height: 12, "aria-hidden": "true" });
      sw.append(svg("rect", { width: 12, height: 12, fill: colour, "fill-opacity": 0.7 }));
      item.append(sw, ` ${key} (${layout.layers[key]?.length ?? 0})`);
      legend.append(item);
    }
    legend.append(
      el("span", `${um(w / 1000)} × ${um(h / 1000)} µm, y up`, "fab-legend-item muted"),
    );
    return Math.max(w, h);
  }

  /** @param {Violation[]} violations */
  function markViolations(violations) {
    for (const mark of drawing.querySelectorAll(".fab-violation")) mark.remove();
    violationRows.replaceChildren();
    const r = current?.markerRadius ?? 10;
    for (const [i, v] of violations.entries()) {
      const mark = svg("g", {
        class: "fab-violation",
        "data-index": i,
        "data-rule": v.rule,
        stroke: v.severity === "error" ? "#c42a3d" : "#8f5b00",
        fill: "none",
      });
      const title = svg("title");
      title.textContent = `${v.rule} on ${v.layer}: ${v.actual_nm} nm < ${v.required_nm} nm`;
      mark.append(title);
      for (const e of v.edges_nm) {
        mark.append(
          svg("line", {
            x1: e[0] ?? 0,
            y1: -(e[1] ?? 0),
            x2: e[2] ?? 0,
            y2: -(e[3] ?? 0),
            "stroke-width": 3,
            "vector-effect": "non-scaling-stroke",
          }),
        );
      }
      mark.append(
        svg("circle", {
          class: "fab-violation-ring",
          cx: (v.location[0] ?? 0) * 1000,
          cy: -(v.location[1] ?? 0) * 1000,
          r,
          "stroke-width": 2,
          "vector-effect": "non-scaling-stroke",
        }),
      );
      drawing.append(mark);

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
      violationRows.append(row);
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    exportButton.disabled = true;
    drcButton.disabled = true;
    recipeButton.disabled = true;
    say("Exporting…");
    try {
      const fields = new URLSearchParams();
      for (const [k, v] of new FormData(form)) if (typeof v === "string") fields.append(k, v);
      const body = await post(root.dataset.export ?? "", fields);
      const e = body.export;
      result.hidden = false;
      drcResult.hidden = true;
      recipeList.hidden = true;
      const size = draw(body.layout) ?? 1000;
      current = { gdsUrl: e.gds_url, pdk: pdkSelect.value, markerRadius: size * 0.04 };
      summary.replaceChildren();
      const link = /** @type {HTMLAnchorElement} */ (el("a", "Download GDS", "btn btn-small"));
      link.id = "fab-download";
      link.href = e.gds_url;
      link.setAttribute("download", "");
      const bbox = e.bbox_um ? `[${e.bbox_um.map(um).join(", ")}] µm` : "empty";
      summary.append(
        link,
        ` ${e.polygon_count} polygons on ${e.layer_details.map((/** @type {{key: string}} */ l) => l.key).join(", ") || "no layers"}; box ${bbox}` +
          (e.unmapped_materials.length ? `; left out: ${e.unmapped_materials.join(", ")}` : "") +
          (e.skipped.length ? `; ${e.skipped.length} structure(s) skipped` : ""),
      );
      drcButton.disabled = false;
      recipeButton.disabled = false;
      say("Exported. Run the design-rule check against the chosen kit.");
    } catch (err) {
      say(`Export failed: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      exportButton.disabled = false;
    }
  });

  drcButton.addEventListener("click", async () => {
    if (!current) return;
    drcButton.disabled = true;
    say("Checking…");
    try {
      const drc = await post(
        root.dataset.drc ?? "",
        new URLSearchParams({ gds_url: current.gdsUrl, pdk: pdkSelect.value }),
      );
      markViolations(drc.violations);
      drcSummary.textContent = drc.summary;
      drcSummary.className = drc.passed ? "fab-passed" : "fab-failed";
      drcResult.hidden = false;
      root.querySelector("#fab-violations")?.toggleAttribute("hidden", drc.violations.length === 0);
      say(drc.passed ? "DRC passed." : `DRC failed: ${drc.violations.length} violation(s).`);
    } catch (err) {
      say(`DRC failed to run: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      drcButton.disabled = false;
    }
  });

  recipeButton.addEventListener("click", async () => {
    if (!current) return;
    recipeButton.disabled = true;
    try {
      const recipe = await post(
        root.dataset.recipe ?? "",
        new URLSearchParams({ gds_url: current.gdsUrl, pdk: pdkSelect.value }),
      );
      recipeList.replaceChildren();
      for (const step of recipe.steps) {
        recipeList.append(el("li", `${step.step}: ${step.description}`));
      }
      for (const w of recipe.warnings) recipeList.append(el("li", `Warning: ${w}`, "warning-text"));
      recipeList.hidden = false;
    } catch (err) {
      say(`Recipe failed: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      recipeButton.disabled = false;
    }
  });
}
