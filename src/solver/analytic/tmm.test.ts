/**
 * The transfer-matrix method against closed forms: Fresnel's equations, Brewster's angle,
 * total internal reflection, the quarter-wave antireflection coating, the Airy formula of a
 * Fabry–Pérot slab (lossless and absorbing), the quarter-wave Bragg mirror, and the
 * exponential attenuation through a thick metal film.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Complex, abs2, add, cx, div, mul, scale, sub } from "./complex.js";
import { multilayer } from "./tmm.js";

const UM = 1e-6;
const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: got ${a}, expected ${b} ± ${tol}`);
const expi = (phase: Complex): Complex => {
  // exp(i z) for complex z
  const mag = Math.exp(-phase.im);
  return cx(mag * Math.cos(phase.re), mag * Math.sin(phase.re));
};

describe("transfer-matrix method", () => {
  it("reproduces Fresnel's equations at a single interface", () => {
    const bare = multilayer({ wavelengthM: UM, incidentIndex: 1, layers: [], substrateIndex: 1.5 });
    close(bare.r.re, -0.2, 1e-15, "r at normal incidence");
    close(bare.R, 0.04, 1e-15, "R");
    close(bare.T, 0.96, 1e-15, "T");
    // Oblique incidence, n1 = 1 → n2 = 1.5 (Hecht, Optics, eqs. 4.42–4.45 in power form).
    const n1 = 1;
    const n2 = 1.5;
    for (const deg of [10, 30, 45, 70, 85]) {
      const ti = (deg * Math.PI) / 180;
      const tt = Math.asin((n1 * Math.sin(ti)) / n2);
      const [ci, ct] = [Math.cos(ti), Math.cos(tt)];
      const rs = (n1 * ci - n2 * ct) / (n1 * ci + n2 * ct);
      const rp = (n2 * ci - n1 * ct) / (n2 * ci + n1 * ct);
      const ts = (2 * n1 * ci) / (n1 * ci + n2 * ct);
      const tp = (2 * n1 * ci) / (n2 * ci + n1 * ct);
      const base = { wavelengthM: UM, incidentIndex: n1, layers: [], substrateIndex: n2 };
      const s = multilayer({ ...base, angleRad: ti, polarization: "s" });
      const p = multilayer({ ...base, angleRad: ti, polarization: "p" });
      close(s.R, rs * rs, 1e-14, `R_s at ${deg}°`);
      close(p.R, rp * rp, 1e-14, `R_p at ${deg}°`);
      close(s.T, ((n2 * ct) / (n1 * ci)) * ts * ts, 1e-14, `T_s at ${deg}°`);
      close(p.T, ((n2 * ct) / (n1 * ci)) * tp * tp, 1e-14, `T_p at ${deg}°`);
      close(s.r.re, rs, 1e-14, `r_s at ${deg}°`);
      // r is the ratio of tangential E, which for p is −(Hecht's r_∥): r_p = r_s at 0°.
      close(p.r.re, -rp, 1e-14, `r_p at ${deg}°`);
    }
  });

  it("gives R_p = 0 at Brewster's angle and R = 1 beyond the critical angle", () => {
    const brewster = Math.atan(1.5);
    const p = multilayer({
      wavelengthM: UM,
      incidentIndex: 1,
      layers: [],
      substrateIndex: 1.5,
      angleRad: brewster,
      polarization: "p",
    });
    assert.ok(p.R < 1e-30, `R_p at Brewster = ${p.R}`);
    // Glass to air beyond arcsin(1/1.5) = 41.8°: total internal reflection with a thin gap
    // layer of glass, so the evanescent wave passes through a layer too.
    for (const pol of ["s", "p"] as const) {
      const tir = multilayer({
        wavelengthM: UM,
        incidentIndex: 1.5,
        layers: [{ index: 1.5, thicknessM: 0.3 * UM }],
        substrateIndex: 1,
        angleRad: (60 * Math.PI) / 180,
        polarization: pol,
      });
      close(tir.R, 1, 1e-14, `TIR R_${pol}`);
      close(tir.T, 0, 1e-14, `TIR T_${pol}`);
    }
    // Frustrated TIR: an air gap between two glass blocks lets the evanescent wave tunnel,
    // decaying as exp(−2κd) with κ = k0 √(n² sin²θ − 1) for a thick gap.
    const theta = (60 * Math.PI) / 180;
    const kappa = ((2 * Math.PI) / UM) * Math.sqrt(2.25 * Math.sin(theta) ** 2 - 1);
    const gap = (d: number) =>
      multilayer({
        wavelengthM: UM,
        incidentIndex: 1.5,
        layers: [{ index: 1, thicknessM: d }],
        substrateIndex: 1.5,
        angleRad: theta,
      }).T;
    const decay = Math.exp(-2 * kappa * 0.5 * UM);
    close(gap(2 * UM) / gap(1.5 * UM), decay, 1e-5 * decay, "FTIR decay");
    assert.ok(gap(0.05 * UM) > 0.5, "a thin gap transmits");
  });

  it("makes a quarter-wave antireflection coating reflect nothing at its design wavelength", () => {
    const [n0, ns] = [1, 3.48];
    const nc = Math.sqrt(n0 * ns);
    const design = 1.55 * UM;
    const coating = [{ index: nc, thicknessM: design / (4 * nc) }];
    const at = (wavelengthM: number) =>
      multilayer({ wavelengthM, incidentIndex: n0, layers: coating, substrateIndex: ns });
    assert.ok(at(design).R < 1e-30, `R = ${at(design).R}`);
    close(at(design).T, 1, 1e-14, "T");
    // Off design: R = (r1² + r2² + 2 r1 r2 cos 2δ)/(1 + r1² r2² + 2 r1 r2 cos 2δ), r1 = r2.
    const r1 = (n0 - nc) / (n0 + nc);
    for (const wavelengthM of [1.2 * UM, 2 * UM]) {
      const c = Math.cos((2 * Math.PI * design) / (2 * wavelengthM));
      const expected = (2 * r1 * r1 * (1 + c)) / (1 + r1 ** 4 + 2 * r1 * r1 * c);
      close(at(wavelengthM).R, expected, 1e-14, `R at ${wavelengthM / UM} µm`);
    }
    // The bare substrate reflects 30 %.
    const bare = multilayer({
      wavelengthM: design,
      incidentIndex: n0,
      layers: [],
      substrateIndex: ns,
    });
    assert.ok(bare.R > 0.3);
  });

  it("reproduces the Airy formula of a Fabry–Pérot slab", () => {
    // Lossless slab in air: T = 1 / (1 + F sin² δ), F = 4R₁/(1 − R₁)², δ = 2π n d / λ.
    const n = 1.9963;
    const d = 0.8 * UM;
    const R1 = ((n - 1) / (n + 1)) ** 2;
    const F = (4 * R1) / (1 - R1) ** 2;
    for (let um = 1.3; um <= 1.7; um += 0.005) {
      const res = multilayer({
        wavelengthM: um * UM,
        incidentIndex: 1,
        layers: [{ index: n, thicknessM: d }],
        substrateIndex: 1,
      });
      const delta = (2 * Math.PI * n * d) / (um * UM);
      close(res.T, 1 / (1 + F * Math.sin(delta) ** 2), 1e-13, `T at ${um} µm`);
      close(res.R + res.T, 1, 1e-13, "R + T");
      close(res.A, 0, 1e-13, "A");
    }
    // Absorbing film on glass (gold-like n at 1 µm, 50 nm): the three-medium Airy sums
    // r = (r01 + r12 e^{2iδ})/(1 + r01 r12 e^{2iδ}), t = t01 t12 e^{iδ}/(1 + r01 r12 e^{2iδ}).
    const nf = cx(0.26, 6.8);
    const [n0, n2] = [1, 1.45];
    const thick = 50e-9;
    const wl = UM;
    const N0 = cx(n0);
    const N2 = cx(n2);
    const r01 = div(sub(N0, nf), add(N0, nf));
    const r12 = div(sub(nf, N2), add(nf, N2));
    const t01 = div(cx(2 * n0), add(N0, nf));
    const t12 = div(scale(nf, 2), add(nf, N2));
    const phase = expi(scale(nf, (2 * Math.PI * thick) / wl));
    const phase2 = mul(phase, phase);
    const den = add(cx(1), mul(mul(r01, r12), phase2));
    const rAiry = div(add(r01, mul(r12, phase2)), den);
    const tAiry = div(mul(mul(t01, t12), phase), den);
    const res = multilayer({
      wavelengthM: wl,
      incidentIndex: n0,
      layers: [{ index: nf, thicknessM: thick }],
      substrateIndex: n2,
    });
    close(res.r.re, rAiry.re, 1e-13, "Re r");
    close(res.r.im, rAiry.im, 1e-13, "Im r");
    close(res.T, (n2 / n0) * abs2(tAiry), 1e-13, "T");
    close(res.R + res.T + res.A, 1, 1e-13, "R + T + A");
    assert.ok(res.A > 0.01, `the film absorbs: A = ${res.A}`);
  });

  it("conserves energy in lossless stacks and accounts for every absorbing layer", () => {
    let seed = 12345;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 40; trial++) {
      const lossy = trial % 2 === 1;
      const layers = Array.from({ length: 1 + (trial % 6) }, (_, j) => ({
        index: cx(1.2 + 2.5 * random(), lossy && j % 2 === 0 ? 0.5 * random() : 0),
        thicknessM: random() * UM,
      }));
      for (const polarization of ["s", "p"] as const) {
        const res = multilayer({
          wavelengthM: (0.5 + random()) * UM,
          incidentIndex: 1 + random(),
          layers,
          substrateIndex: 1 + 2 * random(),
          angleRad: random() * 1.4,
          polarization,
        });
        close(res.R + res.T + res.A, 1, 1e-12, `trial ${trial} ${polarization}: R + T + A`);
        res.layerAbsorptance.forEach((a, j) => {
          const k = (layers[j].index as Complex).im;
          if (k === 0) close(a, 0, 1e-12, `lossless layer ${j} absorbs nothing`);
          else assert.ok(a > 0, `trial ${trial}: absorbing layer ${j} has A = ${a} > 0`);
        });
      }
    }
  });

  it("builds a quarter-wave Bragg mirror with the closed-form reflectance", () => {
    // (HL)^N on a substrate at the design wavelength: each quarter-wave layer maps the
    // admittance below it Y to n²/Y, so the stack presents Y = ns (nH/nL)^{2N} and
    // R = [(1 − y)/(1 + y)]², y = Y/n0 (Macleod §5.2).
    const [nH, nL, ns, n0] = [2.3, 1.45, 1.52, 1];
    const design = 0.8 * UM;
    for (const pairs of [1, 4, 10]) {
      const layers = [];
      for (let i = 0; i < pairs; i++) {
        layers.push({ index: nH, thicknessM: design / (4 * nH) });
        layers.push({ index: nL, thicknessM: design / (4 * nL) });
      }
      const y = (ns / n0) * (nH / nL) ** (2 * pairs);
      const res = multilayer({
        wavelengthM: design,
        incidentIndex: n0,
        layers,
        substrateIndex: ns,
      });
      close(res.R, ((1 - y) / (1 + y)) ** 2, 1e-13, `R of ${pairs} pairs`);
    }
  });

  it("lets nothing through a thick metal film, decaying as exp(−4πkd/λ)", () => {
    const gold = cx(0.2, 6.0); // typical of Au near 0.9 µm
    const film = (d: number) =>
      multilayer({
        wavelengthM: 0.9 * UM,
        incidentIndex: 1,
        layers: [{ index: gold, thicknessM: d }],
        substrateIndex: 1.45,
      });
    const thick = film(1 * UM);
    assert.ok(thick.T < 1e-30, `T = ${thick.T}`);
    close(thick.R + thick.A, 1, 1e-13, "R + A");
    // The bulk reflectance of the metal, |(1 − N)/(1 + N)|².
    const bulk = abs2(div(sub(cx(1), gold), add(cx(1), gold)));
    close(thick.R, bulk, 1e-13, "R of a thick film is the bulk metal's");
    const decay = Math.exp((-4 * Math.PI * gold.im * 0.05 * UM) / (0.9 * UM));
    close(film(0.25 * UM).T / film(0.2 * UM).T, decay, 1e-6 * decay, "attenuation per 50 nm");
  });

  it("refuses bad input", () => {
    const base = { wavelengthM: UM, incidentIndex: 1, layers: [], substrateIndex: 1.5 };
    assert.throws(() => multilayer({ ...base, wavelengthM: 0 }), RangeError);
    assert.throws(() => multilayer({ ...base, incidentIndex: -1 }), RangeError);
    assert.throws(() => multilayer({ ...base, angleRad: Math.PI / 2 }), RangeError);
    assert.throws(() => multilayer({ ...base, substrateIndex: cx(1.5, -0.1) }), RangeError);
    assert.throws(
      () => multilayer({ ...base, layers: [{ index: 2, thicknessM: -1e-9 }] }),
      RangeError,
    );
  });
});
