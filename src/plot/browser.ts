/**
 * The plotting core as the dashboard's browser scripts load it: everything here and in the
 * modules it imports is plain TypeScript with no Node or DOM (the server serves these modules
 * compiled, as /dashboard/static/plot-core.js and its siblings; dashboard/assets.ts), and the
 * CLI's PNGs (field-plot.ts) are drawn from the same functions.
 */
export { colorAt, diverging, paint, sequential, type Colormap, type Rgb } from "./colormap.js";
export {
  cellEdges,
  colourScale,
  gridImage,
  maxAbsOf,
  nearestIndex,
  pixelBlends,
  pixelSamples,
  pixelsPerAxis,
  sampleImage,
  smoothGridImage,
  type ColourScale,
} from "./heatmap.js";
export {
  crossSection,
  lineCrossings,
  normalOf,
  planeSections,
  sectionContains,
  type AxisIndex,
  type Crossing,
  type PlotPlane,
  type Section,
  type StructureShape,
} from "./sections.js";
export { FIELD_PARTS, fieldLabel, formatMicrons, MINUS, unitOf, type FieldPart } from "./labels.js";
export { NICE_STEPS, niceTicks, ROUND_STEPS, tickLabel, type StepRule } from "./ticks.js";
