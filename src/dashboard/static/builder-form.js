// @ts-check
/* global document, structuredClone, HTMLInputElement, HTMLSelectElement */
/**
 * The New simulation page's form and the request it edits (builder.js keeps the JSON editor in
 * step with both). Each control names the request field it edits in `data-path`
 * (`structures[1].size[0]`); reading the form writes those fields into a copy of the request,
 * so whatever the form does not show (metadata, mesh overrides, a monitor's wavelengths) is kept
 * as it was. Lengths are µm in the form and metres in the request.
 *
 * The form shows plane-wave sources, boxes, one-layer GDS layouts and field monitors. A request
 * with anything else in those places (a sphere, a flux monitor, a dipole) cannot be shown
 * without losing it, so `formProblem` says why and the page leaves the form read-only.
 */

/** @typedef {Record<string, any>} Request */
/** @typedef {{name: string, kind: string}} Material */

const AXES = ["x", "y", "z"];
const COMPONENTS = ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"];
const BOUNDARIES = ["pml", "periodic", "pec", "pmc"];

/** The fields in metres, shown in µm. */
const LENGTH =
  /^(domain\.(size|resolution)|source\.wavelength|(structures|monitors)\[\d+\]\.(center|size)|structures\[\d+\]\.layers\[0\]\.z_(min|max))\b/;

/**
 * µm as typed → metres, rounded to 12 significant digits so that 0.22 becomes 2.2e-7 (as a
 * request written by hand has it) rather than 2.2000000000000002e-7.
 * @param {number} um
 */
export const metresOf = (um) => Number((um * 1e-6).toPrecision(12));

/** @param {number} metres */
export const micronsOf = (metres) => Number((metres * 1e6).toPrecision(12));

/**
 * A path's steps: `structures[1].size[0]` → ["structures", 1, "size", 0].
 * @param {string} path
 * @returns {(string | number)[]}
 */
function stepsOf(path) {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
    m[2] !== undefined ? Number(m[2]) : String(m[1]),
  );
}

/**
 * @param {any} value
 * @param {string} path
 * @returns {any}
 */
export function getPath(value, path) {
  let at = value;
  for (const step of stepsOf(path)) {
    if (at === null || typeof at !== "object") return undefined;
    at = at[step];
  }
  return at;
}

/**
 * Sets a field, making the objects and lists on the way; `undefined` removes an object's field
 * (an empty optional field takes its default) and leaves a list's place null.
 * @param {Request} request @param {string} path @param {unknown} value
 */
export function setPath(request, path, value) {
  const steps = stepsOf(path);
  /** @type {any} */
  let at = request;
  steps.slice(0, -1).forEach((step, i) => {
    if (at[step] === null || typeof at[step] !== "object") {
      at[step] = typeof steps[i + 1] === "number" ? [] : {};
    }
    at = at[step];
  });
  const last = /** @type {string | number} */ (steps[steps.length - 1]);
  if (value === undefined && !Array.isArray(at)) delete at[last];
  else at[last] = value === undefined ? null : value;
}

/**
 * A control's value for the request: text as typed for names and choices; numbers as numbers
 * (µm → metres for lengths); text that is not a number kept as text, so that the server's check
 * names the field; nothing for an empty field.
 * @param {HTMLInputElement | HTMLSelectElement} control
 */
function valueOf(control) {
  const text = control.value.trim();
  if (text === "") return undefined;
  if (control instanceof HTMLSelectElement || control.dataset.type === "text") return text;
  const number = Number(text);
  if (!Number.isFinite(number)) return text;
  return LENGTH.test(control.dataset.path ?? "") ? metresOf(number) : number;
}

/**
 * What a control shows of a value.
 * @param {unknown} value @param {string} path
 */
function shown(value, path) {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") return String(LENGTH.test(path) ? micronsOf(value) : value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** @param {unknown} v */
const isVector = (v) => Array.isArray(v) && v.length === 3;
/** @param {unknown} v */
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Why the form cannot show a structure, or null.
 * @param {any} s @param {number} i
 */
function structureProblem(s, i) {
  if (isObject(s) && s.type === "box" && isVector(s.center) && isVector(s.size)) return null;
  if (isObject(s) && s.type === "gds" && Array.isArray(s.layers) && s.layers.length === 1) {
    return null;
  }
  const what = isObject(s) && s.type === "gds" ? "a GDS layout of several layers" : s?.type;
  return `structures[${i}] is ${what ? `a ${what}` : "not a structure"}; the form shows boxes and one-layer GDS layouts`;
}

/**
 * Why the form cannot show a monitor, or null.
 * @param {any} m @param {number} i
 */
function monitorProblem(m, i) {
  if (isObject(m) && m.monitor_type === "field" && isVector(m.center) && isVector(m.size)) {
    const c = m.components;
    const shown = c === undefined || (Array.isArray(c) && c.every((x) => COMPONENTS.includes(x)));
    return shown ? null : `monitors[${i}].components holds what the form has no box for`;
  }
  const what = isObject(m) ? m.monitor_type : null;
  return `monitors[${i}] is ${what ? `a ${what} monitor` : "not a monitor"}; the form shows field monitors`;
}

/**
 * Why the form cannot show a request without losing part of it, or null when it can.
 * @param {unknown} request
 * @returns {string | null}
 */
export function formProblem(request) {
  if (!isObject(request)) return "the request is not a JSON object";
  const r = /** @type {Request} */ (request);
  if (!isObject(r.domain) || !isVector(r.domain.size)) return "domain.size is not three numbers";
  const bc = r.domain.boundary_conditions;
  if (
    bc !== undefined &&
    !(isVector(bc) && bc.every((/** @type {any} */ b) => BOUNDARIES.includes(b)))
  ) {
    return "domain.boundary_conditions is not three of pml, periodic, pec, pmc";
  }
  if (!isObject(r.source) || r.source.source_type !== "plane_wave") {
    const kind = isObject(r.source) ? `source_type "${r.source.source_type}"` : "no source";
    return `the request has ${kind}; the form shows plane-wave sources only`;
  }
  if (!isVector(r.source.direction)) return "source.direction is not three numbers";
  if (r.source.polarization !== undefined && !["te", "tm"].includes(r.source.polarization)) {
    return "source.polarization is neither te nor tm";
  }
  for (const [name, check] of /** @type {const} */ ([
    ["structures", structureProblem],
    ["monitors", monitorProblem],
  ])) {
    const list = r[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return `${name} is not a list`;
    for (const [i, item] of list.entries()) {
      const problem = check(item, i);
      if (problem) return problem;
    }
  }
  if (r.fdtd_settings !== undefined && !isObject(r.fdtd_settings)) {
    return "fdtd_settings is not an object";
  }
  // A number field shows numbers only: anything else there would be rewritten by the form.
  for (const [at, names] of Object.entries(NUMBERS)) {
    const object = /** @type {Record<string, unknown>} */ (r[/** @type {"domain"} */ (at)] ?? {});
    const bad = names.find((k) => object[k] !== undefined && typeof object[k] !== "number");
    if (bad) return `${at}.${bad} is not a number`;
  }
  return null;
}

/** The number fields the form shows, per object of the request. */
const NUMBERS = {
  domain: ["resolution", "pml_layers"],
  source: ["wavelength"],
  fdtd_settings: ["time_steps", "convergence_threshold", "check_every_n"],
};

/** The fields the form edits; any other is kept from the JSON as it is. */
const SHOWN = {
  "": ["solver", "domain", "source", "structures", "monitors", "fdtd_settings"],
  domain: ["size", "resolution", "boundary_conditions", "pml_layers"],
  source: ["source_type", "wavelength", "direction", "polarization"],
  fdtd_settings: ["time_steps", "convergence_threshold", "check_every_n"],
};

/** The fields a row of the form edits, per kind of structure, monitor or GDS layer. */
const SHOWN_IN_ROW = {
  box: ["type", "center", "size", "material"],
  gds: ["type", "gds_url", "layers"],
  layer: ["layer", "datatype", "material", "z_min", "z_max"],
  field: ["monitor_type", "name", "center", "size", "components"],
};

/**
 * The request's fields the form does not show (they are kept): "metadata, domain.symmetry,
 * monitors[0].wavelengths". Call only where formProblem is null (the rows are of the kinds the
 * form shows).
 * @param {Request} request
 */
export function keptFields(request) {
  const top = Object.entries(SHOWN).flatMap(([at, names]) => {
    const object = at === "" ? request : request[at];
    return unshown(object, names, at === "" ? "" : `${at}.`);
  });
  const structures = (request.structures ?? []).flatMap(
    (/** @type {any} */ s, /** @type {number} */ i) =>
      s.type === "gds"
        ? [
            ...unshown(s, SHOWN_IN_ROW.gds, `structures[${i}].`),
            ...unshown(s.layers[0], SHOWN_IN_ROW.layer, `structures[${i}].layers[0].`),
          ]
        : unshown(s, SHOWN_IN_ROW.box, `structures[${i}].`),
  );
  const monitors = (request.monitors ?? []).flatMap(
    (/** @type {any} */ m, /** @type {number} */ i) =>
      unshown(m, SHOWN_IN_ROW.field, `monitors[${i}].`),
  );
  return [...top, ...structures, ...monitors];
}

/**
 * An object's keys that are not among `names`, each after `prefix`.
 * @param {any} object @param {readonly string[]} names @param {string} prefix
 */
function unshown(object, names, prefix) {
  if (!isObject(object)) return [];
  return Object.keys(object)
    .filter((k) => !names.includes(k))
    .map((k) => `${prefix}${k}`);
}

// ---------- the structures' and monitors' rows ----------

/**
 * @param {string} tag
 * @param {Record<string, string>} attributes
 * @param {(Node | string)[]} children
 */
function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/**
 * A label whose words for screen readers name the row too ("Structure 2 size x (µm)"), while
 * the eye sees only "x" under the row's heading.
 * @param {string} id @param {string} seen @param {string} prefix @param {string} suffix
 */
function label(id, seen, prefix, suffix = "") {
  return el("label", { for: id }, [
    el("span", { class: "sr-only" }, [`${prefix} `]),
    seen,
    ...(suffix ? [el("span", { class: "sr-only" }, [suffix])] : []),
  ]);
}

/**
 * @param {string} id @param {string} path @param {string} seen @param {string} prefix
 * @param {string} [suffix] @param {"text" | "number"} [type]
 */
function textField(id, path, seen, prefix, suffix = "", type = "number") {
  const input = el("input", {
    id,
    type: "text",
    autocomplete: "off",
    spellcheck: "false",
    "data-path": path,
    "data-type": type,
    ...(type === "number" ? { inputmode: "decimal" } : {}),
  });
  return el("div", { class: "field" }, [label(id, seen, prefix, suffix), input]);
}

/** @param {string} id @param {string} path @param {string} legend @param {string} prefix */
function vectorRow(id, path, legend, prefix) {
  return el("fieldset", { class: "builder-vector", "data-field-for": path }, [
    el("legend", {}, [`${legend} (µm)`]),
    ...AXES.map((axis, k) =>
      textField(
        `${id}-${axis}`,
        `${path}[${k}]`,
        axis,
        `${prefix} ${legend.toLowerCase()}`,
        " (µm)",
      ),
    ),
  ]);
}

/**
 * @param {string} id @param {string} path @param {string} prefix @param {Material[]} materials
 * @param {unknown} current
 */
function materialSelect(id, path, prefix, materials, current) {
  const names = materials.map((m) => m.name);
  // A material of the request's own `materials` (or a typo) stays a choice until changed.
  if (typeof current === "string" && !names.includes(current)) names.unshift(current);
  const select = el(
    "select",
    { id, "data-path": path },
    names.map((n) => el("option", { value: n }, [n])),
  );
  return el("div", { class: "field" }, [label(id, "Material", prefix), select]);
}

/**
 * @param {string} what "structure" | "monitor" @param {number} i @param {string} title
 * @param {Node[]} fields
 */
function row(what, i, title, fields) {
  const list = what === "structure" ? "structures" : "monitors";
  const name = `${what[0]?.toUpperCase()}${what.slice(1)} ${i + 1}`;
  return el("li", { class: "builder-item", "data-field-for": `${list}[${i}]` }, [
    el("div", { class: "builder-item-head" }, [
      el("span", { class: "builder-item-title" }, [`${name}: ${title}`]),
      el(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-danger-quiet",
          "data-remove": list,
          "data-index": String(i),
          "aria-label": `Remove ${name.toLowerCase()}`,
        },
        ["Remove"],
      ),
    ]),
    ...fields,
  ]);
}

/** @param {any} s @param {number} i @param {Material[]} materials */
function structureRow(s, i, materials) {
  const at = `structures[${i}]`;
  const prefix = `Structure ${i + 1}`;
  if (s.type === "gds") {
    const layer = `${at}.layers[0]`;
    const file = String(s.gds_url).split("?")[0]?.split("/").pop() ?? "";
    return row("structure", i, `GDS layout ${file}`, [
      el("div", { class: "builder-row" }, [
        textField(`structure-${i}-layer`, `${layer}.layer`, "Layer", prefix),
        textField(`structure-${i}-datatype`, `${layer}.datatype`, "Datatype", prefix),
        materialSelect(
          `structure-${i}-material`,
          `${layer}.material`,
          prefix,
          materials,
          s.layers[0]?.material,
        ),
      ]),
      el("div", { class: "builder-row" }, [
        textField(`structure-${i}-zmin`, `${layer}.z_min`, "z from (µm)", prefix),
        textField(`structure-${i}-zmax`, `${layer}.z_max`, "z to (µm)", prefix),
      ]),
    ]);
  }
  return row("structure", i, "box", [
    materialSelect(`structure-${i}-material`, `${at}.material`, prefix, materials, s.material),
    vectorRow(`structure-${i}-center`, `${at}.center`, "Centre", prefix),
    vectorRow(`structure-${i}-size`, `${at}.size`, "Size", prefix),
  ]);
}

/** @param {any} m @param {number} i */
function monitorRow(m, i) {
  const at = `monitors[${i}]`;
  const prefix = `Monitor ${i + 1}`;
  const chosen = Array.isArray(m.components) ? m.components : ["Ex", "Ey", "Ez"];
  const boxes = COMPONENTS.map((c) => {
    const id = `monitor-${i}-${c}`;
    const box = el("input", { type: "checkbox", id, value: c, "data-components-for": at });
    if (chosen.includes(c)) box.setAttribute("checked", "");
    return el("span", { class: "builder-check" }, [box, label(id, c, `${prefix} component`)]);
  });
  return row("monitor", i, "field", [
    textField(`monitor-${i}-name`, `${at}.name`, "Name", prefix, "", "text"),
    vectorRow(`monitor-${i}-center`, `${at}.center`, "Centre", prefix),
    vectorRow(`monitor-${i}-size`, `${at}.size`, "Size", prefix),
    el("fieldset", { class: "builder-components", "data-field-for": `${at}.components` }, [
      el("legend", {}, [el("span", { class: "sr-only" }, [`${prefix} `]), "Components"]),
      ...boxes,
    ]),
  ]);
}

// ---------- reading and writing the whole form ----------

/**
 * Shows a request the form can show (formProblem is null): every control's field, and the
 * structures' and monitors' rows drawn anew.
 * @param {HTMLElement} fields the form's controls @param {Request} request
 * @param {Material[]} materials
 */
export function writeForm(fields, request, materials) {
  const structures = fields.querySelector("#structures-list");
  const monitors = fields.querySelector("#monitors-list");
  structures?.replaceChildren(
    ...(request.structures ?? []).map((/** @type {any} */ s, /** @type {number} */ i) =>
      structureRow(s, i, materials),
    ),
  );
  monitors?.replaceChildren(
    ...(request.monitors ?? []).map((/** @type {any} */ m, /** @type {number} */ i) =>
      monitorRow(m, i),
    ),
  );
  for (const control of fields.querySelectorAll("[data-path]")) {
    if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement)) continue;
    const path = control.dataset.path ?? "";
    const value = getPath(request, path);
    // A choice left to its default shows the default (the first option).
    if (control instanceof HTMLSelectElement && value === undefined) control.selectedIndex = 0;
    else control.value = shown(value, path);
  }
}

/**
 * The request as the form has it: a copy of `base` with every control's field written.
 * @param {HTMLElement} fields @param {Request} base
 * @returns {Request}
 */
export function readForm(fields, base) {
  const request = structuredClone(base);
  for (const control of fields.querySelectorAll("[data-path]")) {
    if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) {
      setPath(request, control.dataset.path ?? "", valueOf(control));
    }
  }
  /** @type {Map<string, string[]>} */
  const components = new Map();
  for (const box of fields.querySelectorAll("input[data-components-for]")) {
    if (!(box instanceof HTMLInputElement)) continue;
    const at = box.dataset.componentsFor ?? "";
    if (!components.has(at)) components.set(at, []);
    if (box.checked) components.get(at)?.push(box.value);
  }
  for (const [at, chosen] of components) setPath(request, `${at}.components`, chosen);
  if (isObject(request.fdtd_settings) && Object.keys(request.fdtd_settings).length === 0) {
    delete request.fdtd_settings;
  }
  return request;
}

/**
 * A new box or field monitor, placed at the origin and sized to a third of the domain, so that
 * it shows on the planes at once.
 * @param {Request} request @param {"box" | "field"} kind @param {string} material
 */
export function addItem(request, kind, material) {
  const size = isVector(request.domain?.size) ? request.domain.size : [1e-6, 1e-6, 1e-6];
  const third = size.map((/** @type {unknown} */ v) =>
    typeof v === "number" ? metresOf(micronsOf(v) / 3) : 1e-6,
  );
  if (kind === "box") {
    request.structures = [
      ...(request.structures ?? []),
      { type: "box", center: [0, 0, 0], size: third, material },
    ];
    return request.structures.length - 1;
  }
  const names = new Set((request.monitors ?? []).map((/** @type {any} */ m) => m?.name));
  let n = (request.monitors ?? []).length + 1;
  while (names.has(`field${n}`)) n++;
  request.monitors = [
    ...(request.monitors ?? []),
    {
      name: `field${n}`,
      monitor_type: "field",
      center: [0, 0, 0],
      size: [third[0], 0, third[2]],
      components: ["Ex", "Ey", "Ez"],
    },
  ];
  return request.monitors.length - 1;
}
