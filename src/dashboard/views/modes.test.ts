/**
 * The Modes page's answer: the table and, when the answer has notes (a negative k_eff, a bend
 * without absorber), a list of them above it, escaped; none when there are none.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ModesResponse } from "../../modes/response.js";
import { modesBody, type ModesView } from "./modes.js";

function view(notes: string[]): ModesView {
  const answer: ModesResponse = {
    plane: { normal: "z", axes: ["x", "y"], position_m: 0, cells: [100, 50] },
    wavelengths_m: [1.55e-6],
    modes: [
      { wavelength_m: 1.55e-6, mode_index: 0, n_eff: 2.45068, k_eff: -8.6e-6, te_fraction: 0.98 },
    ],
    unknowns: 9850,
    solve_seconds: 0.9,
    notes,
  };
  return {
    csrf: "t",
    form: { request: "{}", plane: "z=0", wavelength_um: "1.55", num_modes: "1" },
    answer,
  };
}

test("the answer's notes are listed above the table, escaped", () => {
  const page = modesBody(view(["mode 0: k_eff < 0 … widen <the plane>"])).value;
  assert.match(page, /<ul class="warning-text modes-notes" id="modes-notes">/);
  assert.match(page, /<li>mode 0: k_eff &lt; 0 … widen &lt;the plane&gt;<\/li>/);
  assert.ok(page.indexOf("modes-notes") < page.indexOf("modes-table"));
  assert.match(page, /-8\.600e-6/);
});

test("no notes, no list", () => {
  assert.doesNotMatch(modesBody(view([])).value, /modes-notes/);
});
