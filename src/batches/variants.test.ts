import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  checkParameters,
  parameterValues,
  pointerProblem,
  sweepDimensions,
  variantCount,
  variants,
  type BatchParameter,
} from "./variants.js";

const base = {
  structures: [
    { type: "box", size: [1, 2, 3], material: "Si" },
    { type: "box", size: [4, 5, 6], material: "SiO2" },
  ],
  source: { wavelength: 1.55e-6 },
  materials: { "a/b": { permittivity: 2 }, "t~x": { permittivity: 3 } },
};

describe("batch variants", () => {
  it("a range gives `points` values from start to stop, both ends exact", () => {
    const v = parameterValues({
      name: "t",
      path: "/x",
      range: { start: 0.4e-6, stop: 0.6e-6, points: 11 },
    });
    assert.equal(v.length, 11);
    assert.equal(v[0], 0.4e-6);
    assert.equal(v[10], 0.6e-6);
    assert.ok(Math.abs((v[5] as number) - 0.5e-6) < 1e-21);
    assert.deepEqual(
      parameterValues({ name: "t", path: "/x", range: { start: 2, stop: 9, points: 1 } }),
      [2],
    );
  });

  it("a range's values are numpy.linspace's to the bit, so that .sel() with them finds each", () => {
    // np.linspace(0.4e-6, 0.6e-6, 11).tolist() (numpy 1.24); the eighth was 5.399999999999999e-7.
    const numpy = [
      4e-7, 4.2e-7, 4.3999999999999997e-7, 4.6e-7, 4.8e-7, 5e-7, 5.2e-7, 5.4e-7,
      5.599999999999999e-7, 5.8e-7, 6e-7,
    ];
    const range = { start: 0.4e-6, stop: 0.6e-6, points: 11 };
    assert.deepEqual(parameterValues({ name: "t", path: "/x", range }), numpy);
  });

  it("refuses a range of one point that drops its stop, and one whose span overflows", () => {
    const errs = checkParameters(base, [
      { name: "a", path: "/source/wavelength", range: { start: 1e-7, stop: 3e-7, points: 1 } },
      {
        name: "b",
        path: "/structures/0/size/0",
        range: { start: -1.7e308, stop: 1.7e308, points: 3 },
      },
      { name: "c", path: "/structures/1/size/0", range: { start: 2e-7, stop: 2e-7, points: 1 } },
    ]);
    assert.deepEqual(
      errs.map((e) => e.path),
      ["parameters[0].range", "parameters[1].range"],
    );
    assert.match(errs[0]!.message, /both ends are included/);
    assert.match(errs[1]!.message, /beyond what a double holds/);
  });

  it("refuses a range whose points would not all differ: identical variants, one coordinate twice", () => {
    const errs = checkParameters(base, [
      { name: "a", path: "/source/wavelength", range: { start: 1e-6, stop: 1e-6, points: 4 } },
      {
        name: "b",
        path: "/structures/0/size/0",
        range: { start: 1, stop: 1 + 4.5e-16, points: 5 },
      },
      {
        name: "c",
        path: "/structures/1/size/0",
        range: { start: 1, stop: 1 + 4.5e-16, points: 2 },
      },
    ]);
    assert.deepEqual(
      errs.map((e) => e.path),
      ["parameters[0].range", "parameters[1].range"],
    );
    assert.match(
      errs[0]!.message,
      /start and stop are both 0.000001: its 4 points would be 4 identical variants/,
    );
    assert.match(errs[1]!.message, /closer than a double tells apart/);
  });

  it("refuses a parameter listing a value twice, but for a zip's parameters after the first", () => {
    const wl = { name: "wl", path: "/source/wavelength", values: [1.5e-6, 1.6e-6, 1.5e-6] };
    const width = { name: "w", path: "/structures/0/size/0", values: [1, 1, 2] };
    const p = checkParameters(base, [wl, width]);
    assert.deepEqual(
      p.map((e) => [e.path, e.message]),
      [
        [
          "parameters[0].values",
          "lists 1.5e-6 twice (values[0] and values[2]): equal values would make identical variants",
        ],
        [
          "parameters[1].values",
          "lists 1 twice (values[0] and values[1]): equal values would make identical variants",
        ],
      ],
    );
    // Zipped, the second parameter's values pair with distinct first ones.
    assert.deepEqual(
      checkParameters(base, [{ ...wl, values: [1.5e-6, 1.6e-6, 1.7e-6] }, width], "zip"),
      [],
    );
    assert.equal(checkParameters(base, [wl, { ...width, values: [1, 2, 3] }], "zip").length, 1);
  });

  it("refuses two spellings of one library material (case, aliases), not a request's own names", () => {
    const material = { name: "m", path: "/structures/0/material", values: ["Si", "SiO2", "si "] };
    assert.deepEqual(
      checkParameters(base, [material]).map((e) => [e.path, e.message]),
      [
        [
          "parameters[0].values",
          'lists one material twice: "Si" (values[0]) and "si " (values[2]): equal values would make identical variants',
        ],
      ],
    );
    assert.equal(checkParameters(base, [{ ...material, values: ["Si", "silicon"] }]).length, 1);
    // A name the library does not know is a request's own material: matched exactly.
    assert.deepEqual(checkParameters(base, [{ ...material, values: ["myGlass", "MYGLASS"] }]), []);
  });

  it("a product is row-major, the first parameter outermost; each variant writes its values", () => {
    const parameters: BatchParameter[] = [
      { name: "width", path: "/structures/1/size/0", values: [1, 2] },
      { name: "wl", path: "/source/wavelength", values: [1.5e-6, 1.6e-6, 1.7e-6] },
    ];
    const all = [...variants(base, parameters, "product")];
    assert.equal(all.length, 6);
    assert.deepEqual(
      all.map((v) => [v.parameters.width, v.parameters.wl]),
      [
        [1, 1.5e-6],
        [1, 1.6e-6],
        [1, 1.7e-6],
        [2, 1.5e-6],
        [2, 1.6e-6],
        [2, 1.7e-6],
      ],
    );
    const fifth = all[4]!.request as typeof base;
    assert.equal(fifth.structures[1]!.size[0], 2);
    assert.equal(fifth.source.wavelength, 1.6e-6);
    assert.equal(base.structures[1]!.size[0], 4, "the base is not changed");
    assert.deepEqual(sweepDimensions(parameters, "product"), parameters);
  });

  it("zip takes the i-th value of each, one dimension named after the first", () => {
    const parameters: BatchParameter[] = [
      { name: "w", path: "/structures/0/size/0", values: [1, 2, 3] },
      { name: "m", path: "/structures/0/material", values: ["Si", "SiN", "SiO2"] },
    ];
    const all = [...variants(base, parameters, "zip")];
    assert.deepEqual(
      all.map((v) => (v.request as typeof base).structures[0]),
      [
        { type: "box", size: [1, 2, 3], material: "Si" },
        { type: "box", size: [2, 2, 3], material: "SiN" },
        { type: "box", size: [3, 2, 3], material: "SiO2" },
      ],
    );
    assert.deepEqual(sweepDimensions(parameters, "zip"), [
      { ...parameters[0]!, along: [parameters[1]] },
    ]);
  });

  it("pointers follow RFC 6901 (~1 is /, ~0 is ~) and must name an existing value", () => {
    assert.equal(pointerProblem(base, "/materials/a~1b/permittivity"), null);
    assert.equal(pointerProblem(base, "/materials/t~0x/permittivity"), null);
    const [v] = [
      ...variants(
        base,
        [{ name: "e", path: "/materials/a~1b/permittivity", values: [7] }],
        "product",
      ),
    ];
    assert.equal((v!.request as typeof base).materials["a/b"].permittivity, 7);
    assert.match(pointerProblem(base, "structures/0")!, /starts with "\/"/);
    assert.match(pointerProblem(base, "/structures/2/size")!, /array of 2, with no index "2"/);
    assert.match(pointerProblem(base, "/structures/01")!, /no index "01"/);
    assert.match(
      pointerProblem(base, "/source/wavelenght")!,
      /"\/source" has no member "wavelenght"/,
    );
    assert.match(pointerProblem(base, "/source/wavelength/x")!, /is not an object/);
    assert.match(pointerProblem(base, "/toString")!, /the simulation has no member "toString"/);
  });

  it("names each bad parameter: a duplicate name, a pointer to nothing", () => {
    const errs = checkParameters(base, [
      { name: "a", path: "/source/wavelength", values: [1] },
      { name: "a", path: "/nothing", values: [1] },
    ]);
    assert.deepEqual(
      errs.map((e) => e.path),
      ["parameters[1].name", "parameters[1].path"],
    );
  });

  it("refuses two parameters on one path: the second's value would overwrite the first's", () => {
    const errs = checkParameters(base, [
      { name: "a", path: "/source/wavelength", values: [1e-6] },
      { name: "b", path: "/source/wavelength", values: [2e-6] },
    ]);
    assert.deepEqual(
      errs.map((e) => e.path),
      ["parameters[1].path"],
    );
    assert.match(errs[0]!.message, /is also parameters\[0\]'s path/);
  });

  it("refuses a path inside another parameter's value, in either order (was a TypeError: 500)", () => {
    for (const [outer, inner] of [
      ["/structures/0/size", "/structures/0/size/2"],
      ["/structures/0", "/structures/0/material"],
      ["/source", "/source/wavelength"],
    ] as const) {
      for (const order of [
        [outer, inner],
        [inner, outer],
      ]) {
        const parameters = order.map((path, k) => ({ name: `p${k}`, path, values: [1] }));
        const errs = checkParameters(base, parameters);
        assert.deepEqual(
          errs.map((e) => e.path),
          ["parameters[1].path"],
          order.join(" then "),
        );
        assert.match(errs[0]!.message, /inside|holds/);
      }
    }
    // A path that merely begins with the same characters is another place.
    const apart = checkParameters(base, [
      { name: "a", path: "/structures/1/size/0", values: [1] },
      { name: "b", path: "/structures/1/size/01", values: [1] },
    ]);
    assert.ok(!apart.some((e) => /inside|holds/.test(e.message)));
  });

  it("refuses a name that is no safe object key (__proto__) on parameters[i].name", () => {
    const errs = checkParameters(base, [
      { name: "__proto__", path: "/source/wavelength", values: [1] },
      { name: "constructor", path: "/structures/0/size/0", values: [1] },
      { name: "prototype", path: "/structures/1/size/0", values: [1] },
    ]);
    assert.deepEqual(
      errs.map((e) => e.path),
      ["parameters[0].name"],
    );
    assert.match(errs[0]!.message, /^"__proto__" /);
    // The name suggested instead is the pointer's (it said "source___proto__" for any path).
    assert.match(errs[0]!.message, /e\.g\. "source_wavelength"\)$/);
  });

  it("keeps every name's value as the variant's own: no name reaches a prototype setter", () => {
    const parameters: BatchParameter[] = ["__proto__", "constructor", "prototype"].map(
      (name, k) => ({ name, path: `/structures/${k % 2}/size/${k}`, values: [k + 10] }),
    );
    const [v] = [...variants(base, parameters, "product")];
    assert.deepEqual(Object.keys(v!.parameters), ["__proto__", "constructor", "prototype"]);
    assert.equal(Object.getPrototypeOf(v!.parameters), Object.prototype);
    assert.equal(Object.getOwnPropertyDescriptor(v!.parameters, "__proto__")?.value, 10);
    assert.equal(v!.parameters.constructor, 11);
    assert.equal(v!.parameters.prototype, 12);
    assert.equal(JSON.stringify(v!.parameters), '{"__proto__":10,"constructor":11,"prototype":12}');
  });

  it("counts variants and refuses zips of unequal length and products over the limit", () => {
    const p = (n: number): BatchParameter => ({
      name: `p${n}`,
      path: "/x",
      values: Array(n).fill(0),
    });
    assert.deepEqual(variantCount([p(3), p(4)], "product", 100), { count: 12 });
    assert.deepEqual(variantCount([p(3), p(3)], "zip", 100), { count: 3 });
    const zip = variantCount([p(3), p(4)], "zip", 100);
    assert.ok("errors" in zip && zip.errors[0]!.path === "parameters[1]");
    const big = variantCount([p(101), p(100)], "product", 10_000);
    assert.ok("errors" in big);
    assert.match(big.errors[0]!.message, /10100 variants \(101 × 100\); at most 10000/);
  });
});
