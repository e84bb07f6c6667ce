/** The job page's set-up summary: the rows `emsim inspect` prints (src/plot/job-setup.ts). */
import { jobSetupRows } from "../../plot/job-setup.js";
import type { SimulationSpec } from "../../solver/index.js";
import { html, type SafeHtml } from "../html.js";
import { factsList } from "./format.js";

/** The stored request (the validated spec, defaults filled in), or null if it cannot be read. */
export function storedSpec(specJson: string): SimulationSpec | null {
  try {
    return JSON.parse(specJson) as SimulationSpec;
  } catch {
    return null;
  }
}

export function setupFacts(spec: SimulationSpec | null): SafeHtml {
  if (!spec) return html`<p class="empty">The stored request could not be read.</p>`;
  try {
    return factsList(jobSetupRows(spec));
  } catch {
    // A request stored by an older version may lack a part the summary reads.
    return html`<p class="empty">
      This job's set-up cannot be summarised; see the request below.
    </p>`;
  }
}
