/** checkSimulation and estimateRun on hand-made requests. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkSimulation, estimateRun } from "./index.js";
import { slabBetweenPorts, slabPort } from "./testing/slab-ports.js";
import type { PlaneWaveSpec, PortsSourceSpec, SimulationSpec } from "./types.js";

function base(): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [2e-6, 2e-6, 4e-6],
      resolution: 20e-9,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 12,
    },
    source: {
      source_type: "plane_wave",
      wavelength: 1.55e-6,
      polarization: "te",
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [{ type: "box", center: [0, 0, 0], size: [1e-6, 1e-6, 0.5e-6], material: "Si" }],
    monitors: [
      {
        name: "t",
        monitor_type: "field",
        center: [0, 0, 1e-6],
        size: [1e-6, 1e-6, 0],
        components: ["Ex", "Ey", "Ez"],
      },
    ],
    fdtd_settings: {
      time_steps: 20000,
      courant_factor: 0.99,
      convergence_threshold: 1e-6,
      check_every_n: 1000,
    },
  };
}

const paths = (spec: SimulationSpec) => checkSimulation(spec).map((p) => p.path);

describe("checkSimulation", () => {
  it("accepts a sensible request", () => {
    assert.deepEqual(checkSimulation(base()), []);
  });

  it("names unknown materials and wavelengths outside a material's range", () => {
    const s = base();
    s.structures.push({ type: "sphere", center: [0, 0, 0], radius: 1e-7, material: "kryptonite" });
    assert.ok(paths(s).includes("structures[1].material"));
    const t = base();
    t.source.wavelength = 0.5e-6; // Si's model starts at 1.2 µm (and 20 nm is too coarse too)
    const problems = checkSimulation(t);
    const p = problems.find((x) => x.path === "structures[0].material");
    assert.ok(p && /valid/.test(p.message), JSON.stringify(problems));
  });

  it("refuses objects and monitors outside the domain", () => {
    const s = base();
    (s.structures[0] as { center: number[] }).center = [5e-6, 0, 0];
    s.monitors[0].center = [0, 3e-6, 0];
    const p = paths(s);
    assert.ok(p.includes("structures[0].center"));
    assert.ok(p.includes("monitors[0].center"));
    const t = base();
    t.monitors[0].size = [3e-6, 0, 0];
    assert.ok(paths(t).includes("monitors[0].size[0]"));
    // Just past the edge: the message shows the digits that put it there.
    const u = base();
    u.monitors[0].center = [0, 0, 2.0000001e-6];
    const beyond = checkSimulation(u).find((x) => x.path === "monitors[0].center");
    assert.match(String(beyond?.message), /2\.0000001e-6 m is beyond ±2e-6 m/);
  });

  it("refuses a grid step larger than the domain and too few cells per wavelength", () => {
    const s = base();
    s.domain.size = [10e-9, 2e-6, 4e-6];
    assert.ok(
      checkSimulation(s).some((p) => p.path === "domain.resolution" && /larger/.test(p.message)),
    );
    const t = base();
    t.domain.resolution = 60e-9; // Si: 1.55 µm / 3.48 / 60 nm ≈ 7.4 cells
    const p = checkSimulation(t).find((x) => x.path === "domain.resolution");
    assert.ok(p && /cells per wavelength in Si/.test(p.message), JSON.stringify(p));
    // A wavelength no allowed step resolves: the advice is the wavelength, not the step.
    const tiny = base();
    tiny.source.wavelength = 1e-15;
    const q = checkSimulation(tiny).find((x) => x.path === "domain.resolution");
    assert.match(String(q?.message), /below the finest allowed \(1e-12 m\)/);
    assert.doesNotMatch(String(q?.message), /use a grid step/);
    // Exactly 10 cells per wavelength is enough, whatever the division's round-off says.
    const edge = base();
    edge.structures = [];
    edge.domain.size = [2.1e-6, 2.1e-6, 4.2e-6];
    edge.domain.resolution = 70e-9;
    edge.source.wavelength = 0.7e-6;
    assert.ok(0.7e-6 / 70e-9 < 10, "the case no longer has the round-off it tests");
    assert.deepEqual(
      checkSimulation(edge).filter((x) => x.path === "domain.resolution"),
      [],
    );
  });

  it("checks settings: courant factor, pml layers", () => {
    const s = base();
    s.fdtd_settings.courant_factor = 1.2;
    s.domain.pml_layers = 0;
    const p = paths(s);
    assert.ok(p.includes("fdtd_settings.courant_factor"));
    assert.ok(p.includes("domain.pml_layers"));
  });

  it("refuses periodic or pec along the propagation axis, and oblique incidence without periodic boundaries", () => {
    const s = base();
    s.domain.boundary_conditions = ["periodic", "periodic", "periodic"];
    assert.ok(paths(s).includes("domain.boundary_conditions[2]"));
    const t = base();
    (t.source as PlaneWaveSpec).direction = [1, 0, 2];
    assert.ok(paths(t).includes("source.direction"));
    t.domain.boundary_conditions = ["periodic", "pml", "pml"];
    assert.ok(!paths(t).includes("source.direction"));
  });

  it("refuses pec walls that short the plane wave's E", () => {
    const s = base();
    s.domain.boundary_conditions = ["pml", "pec", "pml"]; // te along z: E along y, normal to y walls: fine
    assert.deepEqual(paths(s), []);
    s.domain.boundary_conditions = ["pec", "pml", "pml"]; // E along y is tangential to x walls
    assert.ok(paths(s).includes("domain.boundary_conditions[0]"));
  });

  it("refuses duplicate monitor names, too many wavelengths, and wavelengths outside the pulse band", () => {
    const s = base();
    s.monitors.push({
      ...s.monitors[0],
      wavelengths: Array.from({ length: 65 }, (_, i) => 1.5e-6 + i * 1e-9),
    });
    s.monitors.push({ ...s.monitors[0], name: "u", wavelengths: [5e-6] });
    const p = paths(s);
    assert.ok(p.includes("monitors[1].name"));
    assert.ok(p.includes("monitors[1].wavelengths"));
    assert.ok(p.includes("monitors[2].wavelengths[0]"));
  });

  it("refuses grids whose numbers would overflow the plan: tiny steps, huge extents (issue #26)", () => {
    const problems = (edit: (s: SimulationSpec) => void) => {
      const s = base();
      edit(s);
      return checkSimulation(s);
    };
    const tiny = problems((s) => (s.domain.resolution = 5e-324));
    assert.ok(
      tiny.some((p) => p.path === "domain.resolution" && /at least 1e-12 m/.test(p.message)),
    );
    const huge = problems((s) => (s.domain.size[1] = 1.7976931348623157e308));
    assert.ok(huge.some((p) => p.path === "domain.size[1]" && /at most 1000 m/.test(p.message)));
    // 1 km at 20 nm: 5e10 cells along x, refused before anything is planned.
    const long = problems((s) => (s.domain.size[0] = 1e3));
    const axis = long.find((p) => p.path === "domain.resolution");
    assert.ok(axis && /along x \(domain\.size\[0\]/.test(axis.message), JSON.stringify(long));
    assert.ok(!long.some((p) => p.path === "domain.mesh_overrides"), JSON.stringify(long));
    const thin = problems((s) => (s.domain.size[2] = 5e-324));
    assert.ok(
      thin.some((p) => p.path === "domain.resolution" && /domain\.size\[2\]/.test(p.message)),
    );
  });

  it("refuses a mesh override step more than 1000 times finer than the grid's", () => {
    for (const step of [5e-324, 1e-25, 19.9e-12]) {
      const s = base();
      s.domain.mesh_overrides = [
        { center: [0, 0, 0], size: [0, 0, 0], resolution: [20e-9, 20e-9, step] },
      ];
      const p = checkSimulation(s).find((x) => x.path === "domain.mesh_overrides[0].resolution");
      assert.ok(p && /more than 1000 times finer/.test(p.message), `${step}: ${JSON.stringify(p)}`);
    }
    const s = base();
    s.domain.mesh_overrides = [
      { center: [0, 0, 0], size: [0, 0, 0], resolution: [20e-9, 20e-9, 20e-12] },
    ];
    assert.deepEqual(checkSimulation(s), []);
  });
});

describe("estimateRun", () => {
  it("reports the grid with PML, cells, dt and an honest memory figure", () => {
    const e = estimateRun(base());
    assert.deepEqual(e.interiorGrid, [100, 100, 200]);
    assert.deepEqual(e.grid, [124, 124, 224]);
    assert.equal(e.totalCells, 124 * 124 * 224);
    assert.ok(Math.abs(e.dtSeconds - (0.99 * 20e-9) / (299792458 * Math.sqrt(3))) < 1e-25);
    assert.equal(e.timeSteps, 20000);
    // 50 × 50 cell centres on the plane, 3 components, 1 wavelength.
    assert.equal(e.monitorSamples, 50 * 50 * 3);
    // Its values and coordinates; the permittivity plane over the whole domain's 124 × 124
    // nodes (two float64 and a byte each, and their coordinates); the file's own 15 KiB and
    // 7 KiB for the monitor.
    const permittivity = 124 * 124 * 17 + (124 + 124) * 8;
    assert.equal(e.resultBytes, 50 * 50 * 3 * 8 + (50 + 50 + 1) * 8 + permittivity + 22 * 1024);
    // At least the six float32 fields of the padded grid, and not absurdly more.
    const fields = 6 * 4 * 126 * 126 * 226;
    assert.ok(e.memoryBytes > fields && e.memoryBytes < 2 * fields, String(e.memoryBytes));
  });
});

describe("a point dipole's checks", () => {
  const dipole = (center: [number, number, number], polarization: "Ez" | "Hz" = "Ez") => {
    const s = base();
    s.source = {
      source_type: "point_dipole",
      wavelength: 1.55e-6,
      center,
      polarization,
      amplitude: 1,
    };
    return s;
  };
  const problemsOf = (s: SimulationSpec) => checkSimulation(s);

  it("accepts a dipole anywhere inside the domain, and estimates it without a plane-wave line", () => {
    const s = dipole([0.3e-6, -0.2e-6, 0.9e-6]);
    assert.deepEqual(problemsOf(s), []);
    const withWave = estimateRun(base());
    const est = estimateRun(s);
    assert.deepEqual(est.grid, withWave.grid);
    assert.ok(est.memoryBytes < withWave.memoryBytes, "no auxiliary line");
  });

  it("refuses one outside the domain (in the absorber), naming source.center", () => {
    const p = problemsOf(dipole([0, 1.2e-6, 0]));
    assert.equal(p.length, 1);
    assert.equal(p[0]!.path, "source.center");
    assert.match(
      p[0]!.message,
      /y = 1\.2e-6 m is outside the domain, which spans \[-1e-6, 1e-6\] m along y/,
    );
  });

  it("refuses a flux or far-field box that holds no cell along an axis: it read an eighth", () => {
    // A box smaller than a cell around the dipole took the one cell beside it, an octant of
    // the dipole's samples (an outside audit: 0.125 and 1/64 of the power).
    const s = dipole([0, 0, 0]);
    const box = (name: string, kind: "flux" | "far_field", side: number) => ({
      name,
      center: [0, 0, 0] as [number, number, number],
      size: [side, side, side] as [number, number, number],
      ...(kind === "flux"
        ? { monitor_type: "flux" as const }
        : { monitor_type: "far_field" as const, theta_deg: [90], phi_deg: [0] }),
    });
    s.monitors = [
      box("tiny", "flux", 1e-8),
      box("cell", "flux", 2e-8),
      box("far", "far_field", 1.5e-8),
      box("far_cell", "far_field", 2e-8),
    ];
    const p = problemsOf(s);
    assert.deepEqual(
      p.map((e) => e.path),
      ["monitors[0].size", "monitors[2].size"],
      JSON.stringify(p),
    );
    assert.match(p[0]!.message, /holds no cell centre along x/);
  });

  it("with symmetry: on the plane, with the parity of its kind", () => {
    const mirrored = (
      s: SimulationSpec,
      symmetry: ["pec" | "pmc" | "none", "pec" | "pmc" | "none", "pec" | "pmc" | "none"],
    ) => {
      s.domain.symmetry = symmetry;
      s.structures = [];
      s.monitors = [];
      return problemsOf(s);
    };
    assert.deepEqual(mirrored(dipole([0, 0, 0]), ["pmc", "pmc", "pec"]), []);
    assert.deepEqual(mirrored(dipole([0, 0, 0], "Hz"), ["pec", "pec", "pmc"]), []);
    const wrong = mirrored(dipole([0, 0, 0]), ["pec", "pmc", "pec"]);
    assert.deepEqual(
      wrong.map((p) => p.path),
      ["domain.symmetry[0]"],
    );
    assert.match(
      wrong[0]!.message,
      /an electric dipole across x \(Ez\) has even tangential E about x = 0: the symmetry is pmc, not pec/,
    );
    const off = mirrored(dipole([0.1e-6, 0, 0]), ["pmc", "none", "none"]);
    assert.deepEqual(
      off.map((p) => p.path),
      ["domain.symmetry[0]"],
    );
    assert.match(off[0]!.message, /not its own mirror image/);
  });
});

describe("a Gaussian beam's checks", () => {
  const beam = (extra: Record<string, unknown> = {}) => {
    const s = base();
    s.source = {
      source_type: "gaussian_beam",
      wavelength: 1.55e-6,
      center: [0, 0, -1.5e-6],
      size: [2e-6, 2e-6, 0],
      direction: [0, 0, 1],
      polarization: "te",
      waist_radius: 0.6e-6,
      waist_distance: 1.5e-6,
      amplitude: 1,
      ...extra,
    } as SimulationSpec["source"];
    return s;
  };

  it("accepts a beam on a plane normal to its direction", () => {
    assert.deepEqual(checkSimulation(beam()), []);
    assert.deepEqual(checkSimulation(beam({ direction: [0.5, 0, 1] })), []);
  });

  it("refuses a direction more than 45° from the plane's normal, as documented", () => {
    // [0.6, 0.6, 0.62] has z dominant but lies 53.8° off it (an outside audit).
    assert.deepEqual(checkSimulation(beam({ direction: [1, 0, 1] })), []);
    const p = checkSimulation(beam({ direction: [0.6, 0.6, 0.62] }));
    assert.deepEqual(
      p.map((e) => e.path),
      ["source.direction"],
    );
    assert.match(p[0]!.message, /53\.8° from z, the plane's normal: at most 45°/);
  });

  it("a line in a domain one cell thick but not periodic there: says periodic is needed", () => {
    const s = beam({ size: [2e-6, 0, 0] });
    s.domain = { ...s.domain, size: [2.4e-6, 0.02e-6, 4e-6] };
    s.monitors = [];
    const p = checkSimulation(s).filter((e) => e.path === "source.size");
    assert.match(
      p[0]?.message ?? "",
      /one cell thick along y, a 2-D cross-section only with periodic boundaries there/,
    );
  });

  it("refuses a plane less than two cells across: it injected nothing", () => {
    const p = checkSimulation(beam({ size: [1e-9, 2e-6, 0] }));
    assert.deepEqual(
      p.map((e) => e.path),
      ["source.size"],
    );
    assert.match(p[0]!.message, /covers 0 cells along x/);
    assert.deepEqual(checkSimulation(beam({ size: [0.04e-6, 2e-6, 0] })), []);
  });

  it("in a cross-section one cell thick takes a beam in it (the 2-D beam), and refuses one leaving it", () => {
    const thin = (extra: Record<string, unknown>) => {
      const s = beam(extra);
      s.domain = {
        ...s.domain,
        size: [2.4e-6, 0.02e-6, 4e-6],
        boundary_conditions: ["pml", "periodic", "pml"],
      };
      s.monitors = [];
      return s;
    };
    // The window spans the thin axis whatever its size says: 0 there is a line.
    assert.deepEqual(checkSimulation(thin({ size: [2e-6, 0, 0] })), []);
    assert.deepEqual(
      checkSimulation(thin({ size: [2e-6, 0.02e-6, 0], direction: [0.3, 0, 1] })),
      [],
    );
    const p = checkSimulation(thin({ size: [2e-6, 0, 0], direction: [0, 0.3, 1] }));
    assert.deepEqual(
      p.map((e) => e.path),
      ["source.direction"],
    );
    assert.match(p[0]!.message, /one cell thick along y .*must lie in the cross-section/);
  });

  it("refuses a plane not normal to the dominant axis of its direction, naming source.size", () => {
    const p = checkSimulation(beam({ direction: [1, 0, 0.2] }));
    assert.ok(p.some((e) => e.path === "source.size" && /must be normal to x/.test(e.message)));
  });

  it("refuses a plane in the absorber and a waist below a quarter wavelength", () => {
    assert.ok(
      checkSimulation(beam({ center: [0, 0, -2e-6] })).some((e) => e.path === "source.center"),
    );
    const p = checkSimulation(beam({ waist_radius: 0.3e-6 }));
    assert.deepEqual(
      p.map((e) => e.path),
      ["source.waist_radius"],
    );
  });

  it("names the beam, not a plane wave, when its parity does not match a mirror plane", () => {
    const s = beam();
    s.domain.symmetry = ["pec", "none", "none"]; // te along z: E along y, across x → pmc
    const p = checkSimulation(s);
    assert.deepEqual(
      p.map((e) => e.path),
      ["domain.symmetry[0]"],
    );
    assert.match(p[0]!.message, /^the beam's E = \(0, 1, 0\) is across x/);
  });

  it("refuses a focus more than 100 Rayleigh ranges from the plane, either way", () => {
    // π·w0²/λ = 0.7297 µm for w0 = 0.6 µm at 1.55 µm: up to ±72.97 µm.
    assert.deepEqual(checkSimulation(beam({ waist_distance: -72e-6 })), []);
    for (const distance of [74e-6, -1000]) {
      const p = checkSimulation(beam({ waist_distance: distance }));
      assert.deepEqual(
        p.map((e) => e.path),
        ["source.waist_distance"],
      );
      assert.match(p[0]!.message, /100 Rayleigh ranges .* at most ±7\.29\d*e-5 m/);
    }
  });
});

describe("a ports source's port_symmetries", () => {
  const ports = (symmetries: Record<string, string[]>): SimulationSpec => {
    const s = slabBetweenPorts();
    s.materials = { core: { permittivity: 4 }, clad: { permittivity: 2.1 } };
    s.source = { ...(s.source as PortsSourceSpec), run_ports: ["o1"], port_symmetries: symmetries };
    return s;
  };

  it("accepts each element filled from one key", () => {
    const ok = { "o2@0,o1@0": ["o1@0,o2@0"], "o1@0,o1@0": ["o2@0,o2@0"] };
    assert.deepEqual(checkSimulation(ports(ok)), []);
  });

  it("refuses an element filled from two keys (the last copy would silently win)", () => {
    const twice = { "o2@0,o1@0": ["o1@0,o2@0"], "o1@0,o1@0": ["o1@0, o2@0"] };
    const p = checkSimulation(ports(twice));
    assert.deepEqual(
      p.map((e) => e.path),
      ['source.port_symmetries["o1@0,o1@0"][0]'],
    );
    assert.match(p[0]!.message, /"o1@0,o2@0" is already filled from "o2@0,o1@0"/);
  });
});

describe("a port along an axis that does not absorb", () => {
  it("is refused for the boundary first, not for where its plane sits", () => {
    // The slab's ports face ±z; z made periodic and one cell thick: no plane can sit on it,
    // and the placement's complaint came first and hid the cause (an outside audit).
    const s = slabBetweenPorts();
    s.materials = { core: { permittivity: 4 }, clad: { permittivity: 2.1 } };
    s.domain = {
      ...s.domain,
      size: [s.domain.size[0], s.domain.size[1], 0.025e-6],
      boundary_conditions: ["pml", "periodic", "periodic"],
    };
    s.ports = s.ports!.map((p) => ({ ...p, center: [0, 0, 0] }));
    const problems = checkSimulation(s);
    assert.equal(problems[0]?.path, "domain.boundary_conditions[2]", JSON.stringify(problems));
    assert.ok(problems.every((p) => !/within a cell of the absorber/.test(p.message)));
  });
});

describe("a mode plane in a domain one cell thick that is not periodic there", () => {
  it("says the cross-section needs periodic boundaries, not only that the plane is too small", () => {
    const s = slabBetweenPorts();
    s.materials = { core: { permittivity: 4 }, clad: { permittivity: 2.1 } };
    s.domain.boundary_conditions = ["pml", "pml", "pml"];
    const p = checkSimulation(s).filter((e) => e.path === "ports[0].size");
    assert.equal(p.length, 1, JSON.stringify(checkSimulation(s)));
    assert.match(
      p[0]!.message,
      /fewer than two grid cells across \(1 along y\); the domain is one cell thick along y, a 2-D cross-section only with periodic boundaries there/,
    );
  });
});

describe("a mode injected along a mirror plane's axis", () => {
  // Its image about the plane travels the other way: the run would measure the port's mirror
  // image as its reflection (|S11| ≈ 1 for a straight guide; an outside audit).
  const onSymmetricAxis = () => {
    const s = slabBetweenPorts();
    s.materials = { core: { permittivity: 4 }, clad: { permittivity: 2.1 } };
    s.domain.symmetry = ["none", "none", "pec"];
    return s;
  };

  it("is refused for a port, naming the symmetry and the port", () => {
    const s = onSymmetricAxis();
    s.ports = [slabPort("o2", 1.5e-6, "-z")];
    s.source = { ...(s.source as PortsSourceSpec), run_ports: ["o2"] };
    const p = checkSimulation(s).filter((e) => e.path === "domain.symmetry[2]");
    assert.equal(p.length, 1, JSON.stringify(checkSimulation(s)));
    assert.match(p[0]!.message, /ports\[0\] \("o2"\) sends its mode one way along z/);
  });

  it("is refused for a mode source", () => {
    const s = onSymmetricAxis();
    s.ports = undefined;
    s.source = {
      source_type: "mode",
      wavelength: 1.55e-6,
      center: [0, 0, 1.5e-6],
      size: [3e-6, 0.025e-6, 0],
      direction: "-z",
      mode_index: 0,
      mode_spec: { num_modes: 1, target_neff: null, filter_pol: null },
    } as SimulationSpec["source"];
    const p = checkSimulation(s).filter((e) => e.path === "domain.symmetry[2]");
    assert.equal(p.length, 1, JSON.stringify(checkSimulation(s)));
    assert.match(p[0]!.message, /the mode source sends its mode one way along z/);
  });
});

describe("the modes a mode plane holds", () => {
  // The slab's cross-section is one periodic cell thick along y: a z-normal plane 0.1 µm wide
  // covers 4 × 1 cells of 25 nm, which hold at most 4 modes.
  const withModeMonitor = (numModes: number, width: number) => {
    const s = slabBetweenPorts();
    s.materials = { core: { permittivity: 4 }, clad: { permittivity: 2.1 } };
    s.monitors = [
      {
        name: "m",
        monitor_type: "mode",
        center: [0, 0, 0],
        size: [width, 0.025e-6, 0],
        wavelengths: [1.55e-6],
        mode_spec: { num_modes: numModes, target_neff: null, filter_pol: null },
      },
    ];
    return s;
  };
  const countProblem = (s: SimulationSpec) =>
    checkSimulation(s).find((p) => p.path === "monitors[0].mode_spec.num_modes");

  it("takes as many modes as the plane has cells, and refuses one more", () => {
    assert.equal(countProblem(withModeMonitor(4, 0.1e-6)), undefined);
    const problem = countProblem(withModeMonitor(5, 0.1e-6));
    assert.match(problem?.message ?? "", /4 × 1 grid cells: it holds at most 4 modes, not 5/);
  });

  it("counts the half beside a mirror plane where the run solves that half", () => {
    const s = withModeMonitor(5, 0.2e-6);
    assert.equal(countProblem(s), undefined);
    s.domain.symmetry = ["pmc", "none", "none"];
    const problem = countProblem(s);
    assert.match(
      problem?.message ?? "",
      /4 × 1 grid cells \(the half beside the mirror plane\): it holds at most 4 modes, not 5/,
    );
  });
});
