// The types of plot-colormap.js, which the server compiles from the plotting core
// (src/plot/colormap.ts) and serves beside these scripts (dashboard/assets.ts).
export * from "../../plot/colormap.js";
