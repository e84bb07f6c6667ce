// The types of three.module.js, which the server serves from the three package
// (dashboard/assets.ts) beside these scripts.
export * from "three";
