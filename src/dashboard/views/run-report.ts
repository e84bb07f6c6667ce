/** The job page's Solver report card: the run report's rows (src/plot/run-report.ts). */
import type { SolverReport } from "../../schema/responses.js";
import { runReportRows } from "../../plot/run-report.js";
import { timeSplit } from "../../plot/time-split.js";
import { html, type SafeHtml } from "../html.js";
import { factsList } from "./format.js";
import { timeSplitFigure } from "./time-split.js";

export function reportCard(report: SolverReport): SafeHtml {
  const split = timeSplit(report);
  return html`<section class="card" aria-labelledby="report-title">
    <h2 id="report-title">Solver report</h2>
    ${factsList(runReportRows(report), (row) =>
      row.key === "time_split" && split ? timeSplitFigure(split) : null,
    )}
  </section>`;
}
