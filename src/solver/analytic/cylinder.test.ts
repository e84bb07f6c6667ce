/**
 * The cylinder series (cylinder.ts): its Bessel functions against tabulated values
 * (Abramowitz & Stegun, table 9.1), the optical theorem (a lossless rod's extinction width
 * equals its scattering width), and the thin-rod limit with E along the axis, where
 * σ = π²x⁴(m² − 1)²/(4k) to leading order.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { besselJ, besselY, cylinderScattering } from "./cylinder.js";

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

test("J and Y of orders 0–2 at 1, 5 and 10 as tabulated", () => {
  const table: [number, number[], number[]][] = [
    [1, [0.7651976866, 0.4400505857, 0.1149034849], [0.0882569642, -0.7812128213, -1.650682607]],
    [5, [-0.1775967713, -0.3275791376, 0.0465651163], [-0.3085176252, 0.1478631434, 0.3676628826]],
    [10, [-0.2459357645, 0.0434727462, 0.2546303137], [0.0556711673, 0.2490154242, -0.0058680824]],
  ];
  for (const [x, j, y] of table) {
    const [gotJ, gotY] = [besselJ(x, 3), besselY(x, 3)];
    j.forEach((v, n) => close(gotJ[n]!, v, 1e-9, `J${n}(${x})`));
    y.forEach((v, n) => close(gotY[n]!, v, 1e-9, `Y${n}(${x})`));
  }
});

test("a lossless rod's extinction width is its scattering width, both polarisations", () => {
  for (const [r, m, wl] of [
    [0.2e-6, 2, 1e-6],
    [0.5e-6, 1.5, 0.8e-6],
    [0.05e-6, 3.5, 1.55e-6],
  ] as const) {
    for (const pol of ["e_parallel", "h_parallel"] as const) {
      const c = cylinderScattering(r, m, wl, pol);
      close(c.extinctionWidthM / c.scatteringWidthM, 1, 1e-9, `${pol} r ${r} m ${m}`);
      // ∫ dσ/dθ over the circle is the scattering width.
      let sum = 0;
      for (let i = 0; i < 720; i++)
        sum += c.differentialWidth((i * Math.PI) / 360) * (Math.PI / 360);
      close(sum / c.scatteringWidthM, 1, 1e-9, `∫dσ/dθ, ${pol}`);
    }
  }
});

test("a thin rod with E along it scatters π²x⁴(m² − 1)²/(4k) to leading order", () => {
  const [m, wl] = [2, 1e-6];
  const k = (2 * Math.PI) / wl;
  for (const r of [1e-9, 1e-8]) {
    const x = k * r;
    const lead = (Math.PI ** 2 * x ** 4 * (m * m - 1) ** 2) / (4 * k);
    const got = cylinderScattering(r, m, wl, "e_parallel").scatteringWidthM;
    // The next terms are of relative order x² ln x.
    close(got / lead, 1, 20 * x * x * Math.abs(Math.log(x)) + 1e-6, `r ${r}`);
  }
});
