/** PNG plots of result fields (CLI `emsim plot`); the colour maps are the dashboard's too. */
export { Canvas } from "./canvas.js";
export {
  COLORMAPS,
  colorAt,
  cssGradient,
  diverging,
  paint,
  sequential,
  type Colormap,
  type Rgb,
} from "./colormap.js";
export {
  FIELD_PARTS,
  fieldPlotPng,
  fieldValues,
  renderFieldPlot,
  type FieldPart,
  type FieldPlotOptions,
} from "./field-plot.js";
export {
  MODE_COMPONENTS,
  modeFieldMap,
  modePlotPng,
  NEGLIGIBLE_K_EFF,
  type ModeComponent,
  type ModePlotOptions,
} from "./mode-plot.js";
export { encodePng, PNG_SIGNATURE } from "./png.js";
export { polarPatternPng, renderPolarPattern, type PolarPlotOptions } from "./polar.js";
export {
  formatDb,
  powerDb,
  renderSParameters,
  sParameterCurves,
  sParameterTable,
  sParametersPng,
  type SParameterCurve,
} from "./s-parameters.js";
export {
  lineChartPng,
  renderLineChart,
  renderSpectra,
  spectraPng,
  type LineChartOptions,
  type LineSeries,
} from "./spectrum.js";
