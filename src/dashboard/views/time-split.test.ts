/**
 * The time split's bar on the job page: SVG parts whose widths fill the bar in order, no
 * `style` attribute (the Content-Security-Policy refuses inline styles), and the words.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { TimeSplit } from "../../plot/time-split.js";
import { timeSplitFigure } from "./time-split.js";

const split: TimeSplit = {
  totalSeconds: 2,
  parts: [
    { key: "compile", phase: "setup", label: "compiling the kernel", seconds: 0.5, fraction: 0.25 },
    { key: "kernel", phase: "stepping", label: "kernel", seconds: 1.2, fraction: 0.6 },
    { key: "checks", phase: "stepping", label: "convergence checks", seconds: 0.1, fraction: 0.05 },
    {
      key: "result",
      phase: "result",
      label: "writing the result file",
      seconds: 0.2,
      fraction: 0.1,
    },
  ],
};

test("the bar's parts fill it in order, sized by attributes, with the words beside them", () => {
  const page = timeSplitFigure(split).value;
  const rects = [
    ...page.matchAll(/<rect\s+class="time-(\w+)"\s+x="([\d.]+)"\s+y="0"\s+width="([\d.]+)"/g),
  ];
  assert.deepEqual(
    rects.map(([, key, x, width]) => [key, Number(x), Number(width)]),
    [
      ["compile", 0, 250],
      ["kernel", 250, 600],
      ["checks", 850, 50],
      ["result", 900, 100],
    ],
  );
  assert.doesNotMatch(page, /style=/);
  assert.match(
    page,
    /role="img"\s+aria-label="Time split: set-up 500 ms \(25 %\), stepping 1\.3 s \(65 %\), result file 200 ms \(10 %\)"/,
  );
  assert.match(page, /<strong>stepping 1\.3 s \(65 %\)<\/strong>/);
  assert.match(page, /time-swatch time-kernel"><\/span>kernel 1\.2 s \(60 %\)/);
  // A phase of one part is named once in the legend (its part's words are the bar's tooltip).
  const legend = page.slice(page.indexOf('<ul class="time-legend">'));
  assert.match(legend, /time-swatch time-result"><\/span>result file 200 ms \(10 %\)/);
  assert.doesNotMatch(legend, /writing the result file/);
});
