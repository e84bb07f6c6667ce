/**
 * The Fabrication panel of a completed job's page: choose a GDS layer for each material and a
 * process design kit, export the layout as GDS II, check it against the kit's design rules
 * and see the violations drawn on the layout. The form is filled and driven by
 * src/dashboard/static/fabrication.js through the routes of src/dashboard/routes/fabrication.ts.
 */
import { html, type SafeHtml } from "../html.js";
import { csrfField } from "./forms.js";

export function fabricationSection(jobId: string, csrf: string): SafeHtml {
  const api = `/dashboard/api/jobs/${jobId}/fabrication`;
  return html`<section
    class="card fab"
    id="fabrication"
    aria-labelledby="fab-title"
    data-setup="${api}"
    data-export="${api}/export"
    data-drc="${api}/drc"
    data-recipe="${api}/recipe"
  >
    <h2 id="fab-title">Fabrication</h2>
    <p class="hint">
      The structures cut at the centre of their height, as a GDS II mask layout (database unit 1
      nm), checked against a process design kit's rules.
    </p>
    ${exportForm(api, csrf)}
    <p class="fab-status" id="fab-status" role="status">Loading…</p>
    ${results()}
    <noscript><p class="hint">The fabrication panel needs JavaScript.</p></noscript>
  </section>`;
}

/** The kit, grid and cut height, a layer for each material (filled by the script), the actions. */
function exportForm(api: string, csrf: string): SafeHtml {
  return html`<form id="fab-form" class="fab-form" method="post" action="${api}/export">
    ${csrfField(csrf)}
    <div class="fab-controls">
      <div class="field">
        <label for="fab-pdk">Process design kit</label
        ><select id="fab-pdk" name="pdk" disabled></select>
      </div>
      <div class="field">
        <label for="fab-grid">Grid (nm)</label
        ><input id="fab-grid" name="grid_nm" type="text" inputmode="numeric" value="1" />
      </div>
      <div class="field">
        <label for="fab-z">Cut height (µm, optional)</label
        ><input id="fab-z" name="z_um" type="text" inputmode="decimal" placeholder="centre" />
      </div>
    </div>
    <div class="table-wrap">
      <table class="table fab-mapping">
        <caption class="sr-only">
          GDS layer for each material (empty: left out)
        </caption>
        <thead>
          <tr>
            <th scope="col">Material</th>
            <th scope="col">GDS layer/datatype</th>
            <th scope="col">Kit layer</th>
          </tr>
        </thead>
        <tbody id="fab-mapping"></tbody>
      </table>
    </div>
    <div class="actions-row">
      <button type="submit" class="btn btn-primary" id="fab-export" disabled>Export GDS</button>
      <button type="button" class="btn" id="fab-drc" disabled>Run DRC</button>
      <button type="button" class="btn btn-quiet" id="fab-recipe" disabled>Recipe</button>
    </div>
  </form>`;
}

/** What an export shows (its summary and drawing), and the DRC's violations and the recipe. */
function results(): SafeHtml {
  return html`<div id="fab-result" hidden>
    <p class="fab-summary" id="fab-summary"></p>
    <figure class="fab-figure">
      <svg
        id="fab-layout"
        class="fab-layout"
        role="img"
        aria-labelledby="fab-layout-caption"
        xmlns="http://www.w3.org/2000/svg"
      ></svg>
      <figcaption id="fab-layout-caption" class="fab-legend"></figcaption>
    </figure>
    ${drcResult()}
    <ol class="fab-recipe" id="fab-recipe-steps" hidden></ol>
  </div>`;
}

/** The check's verdict and its violations, one row each (filled by the script). */
function drcResult(): SafeHtml {
  return html`<div id="fab-drc-result" hidden>
    <p id="fab-drc-summary"></p>
    <div class="table-wrap">
      <table class="table fab-violations" id="fab-violations">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Rule</th>
            <th scope="col">Layer</th>
            <th scope="col">Location (µm)</th>
            <th scope="col">Actual (nm)</th>
            <th scope="col">Required (nm)</th>
            <th scope="col">Severity</th>
          </tr>
        </thead>
        <tbody></tbody>
      </table>
    </div>
  </div>`;
}
