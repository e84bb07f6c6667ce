// The types of plot-ticks.js, which the server compiles from the plotting core
// (src/plot/ticks.ts) and serves beside these scripts (dashboard/assets.ts).
export * from "../../plot/ticks.js";
