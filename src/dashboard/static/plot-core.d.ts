// The types of plot-core.js, which the server compiles from the plotting core
// (src/plot/browser.ts and the modules it imports) and serves beside these scripts
// (dashboard/assets.ts).
export * from "../../plot/browser.js";
