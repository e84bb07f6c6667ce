/**
 * Where a run's time went, drawn as one bar of its parts over a legend in the words `emsim
 * inspect` prints (src/plot/time-split.ts). The bar is inline SVG: its parts' widths are
 * attributes, which the dashboard's Content-Security-Policy allows where it refuses inline
 * `style` (src/dashboard/security.ts), so it needs neither a script nor a style attribute. A
 * part's colour is its class, `time-<key>` in dashboard.css: warm for the set-up, blue and teal
 * for the stepping, green for writing the result file.
 */
import {
  partText,
  phasesOf,
  phaseText,
  type TimePart,
  type TimeSplit,
} from "../../plot/time-split.js";
import { html, type SafeHtml } from "../html.js";

/** The bar's drawing units across; the SVG stretches to the card's width. */
const BAR_WIDTH = 1000;

/** The bar, labelled with its phases for screen readers (the legend lists the parts). */
function bar(split: TimeSplit): SafeHtml {
  const label = phasesOf(split)
    .map((phase) => phaseText(split, phase))
    .join(", ");
  let x = 0;
  const rects = split.parts.map((part) => {
    const width = part.fraction * BAR_WIDTH;
    const rect = html`<rect
      class="time-${part.key}"
      x="${x.toFixed(2)}"
      y="0"
      width="${width.toFixed(2)}"
      height="1"
    >
      <title>${partText(part)}</title>
    </rect>`;
    x += width;
    return rect;
  });
  return html`<svg
    class="time-bar"
    viewBox="0 0 ${BAR_WIDTH} 1"
    preserveAspectRatio="none"
    role="img"
    aria-label="Time split: ${label}"
  >
    ${rects}
  </svg>`;
}

function swatched(part: TimePart, text: string): SafeHtml {
  return html`<span class="time-part"
    ><span class="time-swatch time-${part.key}"></span>${text}</span
  >`;
}

/** A line per phase: its time, then each part with its colour (a one-part phase, just it). */
function legend(split: TimeSplit): SafeHtml {
  return html`<ul class="time-legend">
    ${phasesOf(split).map((phase) => {
      const head = phaseText(split, phase);
      if (phase.parts.length === 1) return html`<li>${swatched(phase.parts[0]!, head)}</li>`;
      return html`<li>
        <strong>${head}</strong>
        ${phase.parts.map((part) => swatched(part, partText(part)))}
      </li>`;
    })}
  </ul>`;
}

/** The bar over its legend. */
export function timeSplitFigure(split: TimeSplit): SafeHtml {
  return html`<figure class="time-split">${bar(split)} ${legend(split)}</figure>`;
}
