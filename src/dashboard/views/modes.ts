/**
 * The Modes page: paste a simulation request, name a plane as `emsim modes --plane` does, and
 * see the plane's modes (the table `emsim modes` prints, with the answer's notes) and each
 * mode's |E| over the plane with the structures outlined (the PNG `emsim modes --png` writes,
 * src/plot/mode-plot.ts, inlined as a data: address). A plain form: no script is needed.
 */
import type { ModesResponse } from "../../modes/response.js";
import { NEGLIGIBLE_K_EFF } from "../../plot/mode-plot.js";
import { PLANE_SYNTAX } from "../../schema/plane-spec.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField, formError } from "./forms.js";

/** The form as posted (shown again after an answer or a refusal). */
export interface ModesForm {
  request: string;
  plane: string;
  wavelength_um: string;
  num_modes: string;
}

export interface ModesView {
  csrf: string;
  form: ModesForm;
  /** Why the request was refused, one line per problem. */
  errors?: string[];
  answer?: ModesResponse;
  /** One PNG per mode at the first wavelength: its index and the image as base64. */
  pictures?: { modeIndex: number; pngBase64: string }[];
}

export const EMPTY_MODES_FORM: ModesForm = {
  request: "",
  plane: "",
  wavelength_um: "",
  num_modes: "2",
};

export function modesBody(view: ModesView): SafeHtml {
  return html`<div class="page-head">
      <h1>Modes</h1>
    </div>
    <section class="card" aria-labelledby="modes-form-title">
      <h2 id="modes-form-title">A plane of a simulation</h2>
      <p class="hint">
        The waveguide modes of a cross-section of the request's domain and structures, on the grid a
        run would use (the API's POST /v1/modes). At most 40 000 grid cells.
      </p>
      ${formError(view.errors?.length ? "The modes could not be solved:" : null)}
      ${
        view.errors?.length
          ? html`<ul class="form-error-list" id="modes-errors">
              ${view.errors.map((e) => html`<li>${e}</li>`)}
            </ul>`
          : ""
      }
      ${modesForm(view)}
    </section>
    ${view.answer ? answerSection(view.answer, view.pictures ?? []) : ""}`;
}

function modesForm(view: ModesView): SafeHtml {
  const f = view.form;
  return html`<form method="post" action="/dashboard/modes" class="modes-form">
    ${csrfField(view.csrf)}
    <div class="field">
      <label for="modes-request">Simulation request (JSON)</label>
      <textarea
        id="modes-request"
        name="request"
        rows="12"
        required
        spellcheck="false"
        aria-describedby="modes-request-hint"
      >
${f.request}</textarea>
      <p class="hint" id="modes-request-hint">
        Its domain, structures and materials are used; the source's wavelength is the default.
      </p>
    </div>
    <div class="field">
      <label for="modes-plane">Plane</label>
      <input
        id="modes-plane"
        name="plane"
        type="text"
        required
        maxlength="200"
        value="${f.plane}"
        placeholder="y=0,x=-0.8um:0.8um,z=-0.7um:0.9um"
        aria-describedby="modes-plane-hint"
      />
      <p class="hint" id="modes-plane-hint">${PLANE_SYNTAX}.</p>
    </div>
    <div class="form-inline">
      <div class="field">
        <label for="modes-wavelength">Wavelength (µm, optional)</label>
        <input
          id="modes-wavelength"
          name="wavelength_um"
          type="text"
          inputmode="decimal"
          maxlength="20"
          value="${f.wavelength_um}"
          placeholder="the source's"
        />
      </div>
      <div class="field">
        <label for="modes-count">Modes</label>
        <input
          id="modes-count"
          name="num_modes"
          type="text"
          inputmode="numeric"
          maxlength="2"
          value="${f.num_modes}"
        />
      </div>
      <button type="submit" class="btn btn-primary">Solve</button>
    </div>
  </form>`;
}

/** The table of modes and a picture of each. */
function answerSection(
  answer: ModesResponse,
  pictures: { modeIndex: number; pngBase64: string }[],
): SafeHtml {
  const { plane } = answer;
  return html`<section class="card" id="modes-answer" aria-labelledby="modes-answer-title">
    <h2 id="modes-answer-title">Modes</h2>
    <p class="hint">
      Plane ${plane.normal} = ${(plane.position_m * 1e6).toPrecision(4)} µm,
      ${plane.cells.join(" × ")} cells along ${plane.axes.join(", ")};
      ${answer.unknowns.toLocaleString("en-US")} unknowns, solved in
      ${answer.solve_seconds.toFixed(2)} s.
    </p>
    ${
      answer.notes.length > 0
        ? html`<ul class="warning-text modes-notes" id="modes-notes">
            ${answer.notes.map((note) => html`<li>${note}</li>`)}
          </ul>`
        : ""
    }
    <div class="table-wrap">
      <table class="table" id="modes-table">
        <thead>
          <tr>
            <th scope="col">λ (µm)</th>
            <th scope="col">Mode</th>
            <th scope="col" class="num">n_eff</th>
            <th scope="col" class="num">k_eff</th>
            <th scope="col" class="num">TE fraction</th>
          </tr>
        </thead>
        <tbody>
          ${answer.modes.map(
            (m) =>
              html`<tr>
                <td>${Number((m.wavelength_m * 1e6).toPrecision(6))}</td>
                <td>${m.mode_index}</td>
                <td class="num">${m.n_eff.toFixed(5)}</td>
                <td class="num">
                  ${Math.abs(m.k_eff) < NEGLIGIBLE_K_EFF ? "0" : m.k_eff.toExponential(3)}
                </td>
                <td class="num">${m.te_fraction.toFixed(3)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <div class="modes-pictures">
      ${pictures.map(
        (p) =>
          html`<figure class="modes-picture">
            <img
              src="data:image/png;base64,${p.pngBase64}"
              alt="|E| of mode ${p.modeIndex} over the plane, the structures outlined"
            />
          </figure>`,
      )}
    </div>
  </section>`;
}
