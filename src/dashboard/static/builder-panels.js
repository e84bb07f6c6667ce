// @ts-check
/* global document, CSS, HTMLElement, HTMLInputElement, HTMLSelectElement */
/**
 * What the New simulation page tells beside the request: the problems the preview's check
 * found, each listed and put next to the form control of the field it names; the set-up's
 * warnings; the estimate (cells, grid, memory, time, result size, notes).
 */

/**
 * @typedef {{path: string, message: string}} Problem
 * @typedef {{code: string, path: string, message: string}} Warning
 * @typedef {{grid: number[], cells: number, memory_bytes: number, result_bytes: number,
 *   estimated_seconds: number, expected_seconds: number, expected_steps: number,
 *   time_steps: number, notes: string[]}} Estimate
 */

/**
 * A path as the request has it: the preview names fields under `simulation.`, the API's
 * submission under `body.` at the root.
 * @param {string} path
 */
export const requestPath = (path) => path.replace(/^(simulation|body)(\.|$)/, "");

/**
 * @param {string} tag @param {string} className @param {string} text
 */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

/**
 * The control (or group of controls) for a field, or the nearest enclosing one that the form
 * has: `monitors[0].size[2]` is an input; `monitors[0]` is the monitor's row.
 * @param {HTMLElement} fields @param {string} path
 */
function targetOf(fields, path) {
  for (let p = path; p !== ""; p = p.replace(/(\.[^.[\]]+|\[\d+\])$/, "")) {
    const control = fields.querySelector(`[data-path="${CSS.escape(p)}"]`);
    if (control instanceof HTMLElement) return { control, box: control.closest(".field") };
    const group = fields.querySelector(`[data-field-for="${CSS.escape(p)}"]`);
    if (group instanceof HTMLElement) return { control: null, box: group };
    if (!/[.[]/.test(p)) break;
  }
  return null;
}

/**
 * Lists the problems and puts each next to its control; an empty list clears them.
 * @param {{list: HTMLElement, none: HTMLElement, fields: HTMLElement, editor: HTMLElement}} where
 * @param {Problem[]} problems
 */
export function showProblems(where, problems) {
  const { list, none, fields, editor } = where;
  for (const old of fields.querySelectorAll(".field-error")) old.remove();
  for (const old of fields.querySelectorAll("[aria-invalid]")) {
    old.removeAttribute("aria-invalid");
    old.removeAttribute("aria-errormessage");
  }
  list.replaceChildren();
  problems.forEach((problem, k) => {
    const path = requestPath(problem.path);
    const target = targetOf(fields, path);
    const id = `field-error-${k}`;
    if (target?.box) {
      const note = el("p", "field-error", problem.message);
      note.id = id;
      target.box.append(note);
      target.control?.setAttribute("aria-invalid", "true");
      target.control?.setAttribute("aria-errormessage", id);
    }
    const item = document.createElement("li");
    const name = el("button", "link-button mono", path || "request");
    name.setAttribute("type", "button");
    name.addEventListener("click", () => {
      const control = target?.control;
      const usable =
        (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) &&
        !control.disabled;
      (usable ? control : editor).focus();
    });
    item.append(name, ` ${problem.message}`);
    list.append(item);
  });
  none.hidden = problems.length > 0;
}

/**
 * @param {HTMLElement} list @param {HTMLElement} none @param {Warning[]} warnings
 */
export function showWarnings(list, none, warnings) {
  list.replaceChildren(
    ...warnings.map((w) => {
      const item = el("li", `warning-${w.code}`, "");
      item.append(el("span", "mono", requestPath(w.path)), ` ${w.message}`);
      return item;
    }),
  );
  none.hidden = warnings.length > 0;
}

/** @param {number} bytes */
function bytesText(bytes) {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** @param {number} seconds */
function secondsText(seconds) {
  if (seconds < 1) return "under a second";
  if (seconds < 90) return `about ${Math.round(seconds)} s`;
  if (seconds < 5400) return `about ${Math.round(seconds / 60)} min`;
  return `about ${(seconds / 3600).toFixed(1)} h`;
}

/**
 * Fills the estimate's facts (views/builder.ts names them with data-estimate) and its notes.
 * @param {HTMLElement} facts @param {HTMLElement} notes @param {Estimate} e
 */
export function showEstimate(facts, notes, e) {
  const converges = e.expected_steps < e.time_steps;
  /** @type {Record<string, string>} */
  const text = {
    cells: e.cells.toLocaleString("en"),
    grid: e.grid.join(" × "),
    memory: bytesText(e.memory_bytes),
    time: converges
      ? `${secondsText(e.expected_seconds)} (${secondsText(e.estimated_seconds)} if it runs all ${e.time_steps.toLocaleString("en")} steps)`
      : `${secondsText(e.estimated_seconds)} for ${e.time_steps.toLocaleString("en")} steps`,
    result: bytesText(e.result_bytes),
  };
  for (const dd of facts.querySelectorAll("[data-estimate]")) {
    if (dd instanceof HTMLElement) dd.textContent = text[dd.dataset.estimate ?? ""] ?? "—";
  }
  facts.classList.remove("stale");
  notes.replaceChildren(...e.notes.map((n) => el("li", "", n)));
}

/**
 * Empties the estimate when the set-up has problems: the figures of the last set-up that had
 * none would be read as this one's.
 * @param {HTMLElement} facts @param {HTMLElement} notes
 */
export function clearEstimate(facts, notes) {
  for (const dd of facts.querySelectorAll("[data-estimate]")) {
    if (dd instanceof HTMLElement) dd.textContent = "—";
  }
  facts.classList.add("stale");
  notes.replaceChildren(el("li", "", "No estimate until the problems above are fixed."));
}
