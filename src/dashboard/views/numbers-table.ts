/**
 * A table of numbers as the CLI prints it (a header row, then rows), for the job page's
 * spectra and S-parameters sections.
 */
import { html, type SafeHtml } from "../html.js";

export function numbersTable(
  [header, ...rows]: readonly (readonly string[])[],
  options: { id?: string; caption?: SafeHtml } = {},
): SafeHtml {
  return html`<div class="table-wrap">
    <table class="table table-numbers" ${options.id ? html`id="${options.id}"` : ""}>
      ${
        options.caption
          ? html`<caption>
              ${options.caption}
            </caption>`
          : ""
      }
      <thead>
        <tr>
          ${(header ?? []).map((cell) => html`<th scope="col" class="num">${cell}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr>
              ${row.map((cell) => html`<td class="num">${cell}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
