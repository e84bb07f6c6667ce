// @ts-check
/* global document, fetch, history, HTMLElement, HTMLImageElement, HTMLOptionElement, HTMLSelectElement, URLSearchParams, FormData */
/**
 * A batch page's sweep plot controls (views/batch-plot.ts renders them as a plain GET form):
 * each change redraws in place — the image, its caption and its numbers, fetched as JSON from
 * /dashboard/api/batches/{id}/plot — so focus stays on the control being changed, and the
 * address follows the choice so a reload keeps it. Without this script the form's Plot button
 * reloads the page with the choice.
 */

/**
 * @typedef {{value: string, text: string, selected: boolean, metres?: number}} Option
 * @typedef {{image_url: string, page_url: string, caption: string, numbers_html: string,
 *   wavelengths: Option[]}} PlotParts
 */

/**
 * @param {string} id
 * @returns {HTMLElement | null}
 */
const byId = (id) => document.getElementById(id);

/**
 * Rebuilds the wavelength choices for the quantity shown (another quantity may have recorded
 * other wavelengths); with one there is nothing to choose, so the control is hidden.
 * @param {HTMLSelectElement} select
 * @param {Option[]} options
 */
function setWavelengths(select, options) {
  select.replaceChildren(
    ...options.map((o) => {
      const option = document.createElement("option");
      option.value = o.value;
      option.textContent = o.text;
      option.selected = o.selected;
      if (o.metres !== undefined) option.dataset.metres = String(o.metres);
      return option;
    }),
  );
  const field = select.closest(".field");
  if (field instanceof HTMLElement) field.hidden = options.length <= 1;
}

/** @param {HTMLFormElement} form */
export function initSweepPlot(form) {
  const url = form.dataset.sweepPlot;
  const image = byId("sweep-image");
  const caption = byId("sweep-caption");
  const numbers = byId("sweep-numbers");
  const wavelength = form.querySelector('select[name="wavelength"]');
  if (!url || !(image instanceof HTMLImageElement) || !caption || !numbers) return;
  const submit = form.querySelector("[data-sweep-submit]");
  if (submit instanceof HTMLElement) submit.hidden = true;
  let latest = 0;

  /** @param {boolean} quantityChanged */
  const redraw = async (quantityChanged) => {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) query.set(name, String(value));
    if (quantityChanged && wavelength instanceof HTMLSelectElement) {
      // The new quantity's wavelength nearest the one shown (its list may differ).
      query.delete("wavelength");
      const shown = wavelength.selectedOptions[0];
      if (shown instanceof HTMLOptionElement && shown.dataset.metres) {
        query.set("near_m", shown.dataset.metres);
      }
    }
    const request = ++latest;
    form.setAttribute("aria-busy", "true");
    try {
      const res = await fetch(`${url}?${query}`, {
        headers: { accept: "application/json" },
        cache: "no-store",
      });
      if (request !== latest) return;
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      /** @type {PlotParts} */
      const parts = await res.json();
      if (request !== latest) return;
      image.src = parts.image_url;
      image.alt = parts.caption;
      caption.textContent = parts.caption;
      numbers.innerHTML = parts.numbers_html;
      if (wavelength instanceof HTMLSelectElement) setWavelengths(wavelength, parts.wavelengths);
      history.replaceState(null, "", parts.page_url + "#sweep-plot");
    } catch {
      // The form still works: fall back to loading the page with the choice.
      if (request === latest) form.submit();
    } finally {
      if (request === latest) form.removeAttribute("aria-busy");
    }
  };

  form.addEventListener("change", (event) => {
    const target = event.target;
    redraw(target instanceof HTMLSelectElement && target.name === "quantity");
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    redraw(false);
  });
  // Marks the controls as live: a change from now on redraws in place.
  form.dataset.sweepLive = "true";
}
