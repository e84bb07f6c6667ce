/**
 * The cross-section's Gaussian beam (beam-profile-2d.ts) against what defines it: the
 * Gaussian on its focal line, an independent sum of plane waves elsewhere, Maxwell's
 * transversality, its power against the Poynting flux of its own fields and, for a wide beam,
 * the paraxial power and width.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ETA0 } from "../constants.js";
import type { GaussianBeam } from "./beam-profile.js";
import { beamFields2d, beamFrame2d, beamPower2d } from "./beam-profile-2d.js";

const UM = 1e-6;

function beam(more: Partial<GaussianBeam> = {}): GaussianBeam {
  return {
    direction: [1, 0, 1],
    focus: [0.2 * UM, 0, -0.1 * UM],
    waistRadius: 0.8 * UM,
    wavelength: 1.0 * UM,
    index: 1.5,
    polarization: "te",
    amplitude: 2,
    ...more,
  };
}

/** Points at (p, s) in the beam's frame of a cross-section thin along y. */
function pointsAt(b: GaussianBeam, ps: [number, number][]): Float64Array {
  const { p, d } = beamFrame2d(b, 1);
  const out = new Float64Array(3 * ps.length);
  ps.forEach(([u, s], i) => {
    for (let a = 0; a < 3; a++) out[3 * i + a] = b.focus[a]! + u * p[a]! + s * d[a]!;
  });
  return out;
}

/**
 * E by a plain Riemann sum over the propagating plane waves (q in −k…k, many points): an
 * independent evaluation, good where the spectrum is negligible near |q| = k.
 */
function bruteForceE(b: GaussianBeam, p: number, s: number): [number, number][] {
  const k = (2 * Math.PI * b.index) / b.wavelength;
  const { e: eh, p: ph, d } = beamFrame2d(b, 1);
  const pe = ph[0] * eh[0] + ph[1] * eh[1] + ph[2] * eh[2];
  const n = 200_000;
  const out: [number, number][] = [
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  for (let j = 0; j < n; j++) {
    const q = -k + (2 * k * (j + 0.5)) / n;
    const ks = Math.sqrt(k * k - q * q);
    const a =
      (b.amplitude *
        Math.sqrt(Math.PI) *
        b.waistRadius *
        Math.exp((-q * q * b.waistRadius ** 2) / 4) *
        (2 * k)) /
      n /
      (2 * Math.PI);
    const [c, si] = [Math.cos(q * p + ks * s), Math.sin(q * p + ks * s)];
    for (let x = 0; x < 3; x++) {
      const v = eh[x]! - ((q * pe) / ks) * d[x]!;
      out[x]![0] += a * v * c;
      out[x]![1] += a * v * si;
    }
  }
  return out;
}

describe("the Gaussian beam of a cross-section", () => {
  for (const polarization of ["te", "tm"] as const) {
    it(`${polarization}: the Gaussian on the focal line, and plane waves summed elsewhere`, () => {
      const b = beam({ polarization });
      const w0 = b.waistRadius;
      const focal = beamFields2d(
        b,
        1,
        pointsAt(
          b,
          [0, 0.5, 1, 2].map((u) => [u * w0, 0]),
        ),
      );
      const { e: eh, d } = beamFrame2d(b, 1);
      [0, 0.5, 1, 2].forEach((u, i) => {
        // The transverse part is the Gaussian, real; te has no longitudinal part.
        const want = b.amplitude * Math.exp(-u * u);
        const [re, im] = [0, 1].map((part) => [0, 1, 2].map((x) => focal.e[6 * i + 2 * x + part]!));
        const along = (v: number[]) => v[0]! * d[0] + v[1]! * d[1] + v[2]! * d[2];
        for (let x = 0; x < 3; x++) {
          const transverse = re![x]! - along(re!) * d[x]!;
          assert.ok(Math.abs(transverse - want * eh[x]!) < 1e-7 * b.amplitude, `u ${u}`);
          assert.ok(Math.abs(im![x]! - along(im!) * d[x]!) < 1e-7 * b.amplitude);
        }
        if (polarization === "te")
          assert.ok(Math.hypot(along(re!), along(im!)) < 1e-7 * b.amplitude);
      });
      const at: [number, number][] = [
        [0.3 * w0, 2 * UM],
        [-1.5 * w0, 5 * UM],
        [2 * w0, 0.7 * UM],
      ];
      const fields = beamFields2d(b, 1, pointsAt(b, at));
      at.forEach(([p, s], i) => {
        const want = bruteForceE(b, p, s);
        for (let x = 0; x < 3; x++) {
          const got = [fields.e[6 * i + 2 * x]!, fields.e[6 * i + 2 * x + 1]!];
          const err = Math.hypot(got[0]! - want[x]![0], got[1]! - want[x]![1]);
          assert.ok(err < 1e-5 * b.amplitude, `(${p}, ${s}) ${x}: ${got} vs ${want[x]}`);
        }
      });
    });
  }

  it("E and H are transverse to the beam's local wave, and H follows E as a plane wave's on the axis at the focus", () => {
    const b = beam({ polarization: "tm", waistRadius: 3 * UM });
    const f = beamFields2d(b, 1, pointsAt(b, [[0, 0]]));
    const { e: eh, p: ph, d } = beamFrame2d(b, 1);
    const eta = ETA0 / b.index;
    // At the focus of a wide beam: E = A ê, H = d × E / η.
    const dxe = [
      d[1] * eh[2] - d[2] * eh[1],
      d[2] * eh[0] - d[0] * eh[2],
      d[0] * eh[1] - d[1] * eh[0],
    ];
    for (let x = 0; x < 3; x++) {
      assert.ok(Math.abs(f.h[2 * x]! - (b.amplitude * dxe[x]!) / eta) < 2e-3 * (b.amplitude / eta));
    }
    assert.ok(Math.abs(ph[1]) < 1e-12 && Math.abs(d[1]) < 1e-12, "p̂ and d̂ lie in the x–z plane");
  });

  for (const polarization of ["te", "tm"] as const) {
    it(`${polarization}: the power per metre is the Poynting flux of its own fields, and a wide beam's is paraxial`, () => {
      // A tight beam (w0 = 0.6 λ/n), where the two polarisations' powers differ.
      const b = beam({ polarization, waistRadius: 0.4 * UM });
      const { d } = beamFrame2d(b, 1);
      const s = 3 * UM;
      const step = 0.01 * UM;
      const ps: [number, number][] = [];
      for (let p = -12 * UM; p <= 12 * UM; p += step) ps.push([p, s]);
      const f = beamFields2d(b, 1, pointsAt(b, ps));
      let flux = 0;
      for (let i = 0; i < ps.length; i++) {
        const E = [0, 1, 2].map((x) => [f.e[6 * i + 2 * x]!, f.e[6 * i + 2 * x + 1]!]);
        const H = [0, 1, 2].map((x) => [f.h[6 * i + 2 * x]!, f.h[6 * i + 2 * x + 1]!]);
        // ½ Re(E × H*)·d
        const c = (a: number, bb: number) => E[a]![0]! * H[bb]![0]! + E[a]![1]! * H[bb]![1]!;
        const S = [c(1, 2) - c(2, 1), c(2, 0) - c(0, 2), c(0, 1) - c(1, 0)];
        flux += 0.5 * (S[0]! * d[0] + S[1]! * d[1] + S[2]! * d[2]) * step;
      }
      const power = beamPower2d(b, 1);
      assert.ok(Math.abs(flux / power - 1) < 1e-3, `flux ${flux} vs ${power}`);

      const wide = beam({ polarization, waistRadius: 6 * UM });
      const paraxial =
        (wide.amplitude ** 2 * wide.waistRadius * Math.sqrt(Math.PI / 2)) /
        (2 * (ETA0 / wide.index));
      assert.ok(Math.abs(beamPower2d(wide, 1) / paraxial - 1) < 2e-3);
    });
  }

  it("a wide beam spreads as w0·√(1 + (s/z_R)²), z_R = π w0² n / λ0", () => {
    const b = beam({ waistRadius: 2 * UM });
    const zR = (Math.PI * b.waistRadius ** 2 * b.index) / b.wavelength;
    for (const s of [zR, 2 * zR]) {
      const step = 0.02 * UM;
      const ps: [number, number][] = [];
      for (let p = -20 * UM; p <= 20 * UM; p += step) ps.push([p, s]);
      const f = beamFields2d(b, 1, pointsAt(b, ps));
      let [m0, m2] = [0, 0];
      ps.forEach(([p], i) => {
        let e2 = 0;
        for (let x = 0; x < 6; x++) e2 += f.e[6 * i + x]! ** 2;
        m0 += e2;
        m2 += e2 * p * p;
      });
      const width = 2 * Math.sqrt(m2 / m0);
      const want = b.waistRadius * Math.sqrt(1 + (s / zR) ** 2);
      assert.ok(Math.abs(width / want - 1) < 0.01, `at ${s}: ${width} vs ${want}`);
    }
  });

  it("a direction with a component along the thin axis is refused", () => {
    assert.throws(
      () => beamFields2d(beam({ direction: [1, 0.2, 1] }), 1, new Float64Array(3)),
      /must lie in it/,
    );
  });
});
