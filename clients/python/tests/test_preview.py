"""``Client.preview`` against a real server: the 500 x 220 nm Si strip on SiO2 gives the three
planes through the origin with eps_real and eps_imag as numpy arrays shaped (first axis, second
axis) of ``axes`` at ``coords`` (silicon's 3.4757^2 inside the strip, 1 in the vacuum above,
gold's negative Re eps and positive Im eps), the strip outlined and the run's estimate; the
example file's path is read like ``submit`` reads one; ``planes`` and ``max_samples`` are sent
as the API's; a plane outside the grid is a ``ValidationError`` naming it, and nothing is
queued."""

import os
import unittest

import numpy as np

import emsim
from support import api_key, base_url

UM = 1e-6
EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples")


def strip_on_oxide():
    """A 3-D strip along y on silica with a 30 nm gold pad beside it, lit from above."""
    return {
        "solver": "fdtd",
        "domain": {
            "size": [2 * UM, 1.6 * UM, 1.6 * UM],
            "resolution": 40e-9,
            "boundary_conditions": ["pml", "pml", "pml"],
            "pml_layers": 8,
        },
        "source": {"source_type": "plane_wave", "wavelength": 1.55 * UM, "direction": [0, 0, -1]},
        "structures": [
            {
                "type": "box",
                "center": [0, 0, -0.5 * UM],
                "size": [10, 10, 1 * UM],
                "material": "SiO2",
            },
            {
                "type": "box",
                "center": [0, 0, 0.11 * UM],
                "size": [0.5 * UM, 10, 0.22 * UM],
                "material": "Si",
            },
            {
                "type": "box",
                "center": [0.7 * UM, 0, 0.1 * UM],
                "size": [0.2 * UM, 0.2 * UM, 0.2 * UM],
                "material": "Au",
            },
        ],
        "fdtd_settings": {"time_steps": 2000},
        "metadata": {"suite": "preview"},
    }


def nearest(plane, u, v):
    """The (i, j) of the sample of a plane nearest (u, v) metres."""
    first, second = plane["axes"]
    i = int(np.abs(plane["coords"][first] - u).argmin())
    j = int(np.abs(plane["coords"][second] - v).argmin())
    return i, j


class PreviewTest(unittest.TestCase):
    def setUp(self):
        self.client = emsim.Client(base_url(), api_key())

    def test_three_planes_as_numpy(self):
        answer = self.client.preview(strip_on_oxide())
        self.assertEqual([p["normal"] for p in answer["planes"]], ["x", "y", "z"])
        y = answer["planes"][1]
        self.assertEqual(y["axes"], ["x", "z"])
        # 2 um at 40 nm and 8 absorber cells either side: 66 along x; 1.6 um: 56 along z.
        self.assertEqual(y["cells"], [66, 56])
        for name, dtype in (("eps_real", np.float64), ("eps_imag", np.float64)):
            self.assertIsInstance(y[name], np.ndarray)
            self.assertEqual(y[name].dtype, dtype)
            self.assertEqual(y[name].shape, (66, 56))
        self.assertEqual(y["material"].shape, (66, 56))
        self.assertEqual(y["coords"]["x"].shape, (66,))
        names = [m["name"] for m in answer["materials"]]
        si = nearest(y, 0, 0.08 * UM)
        self.assertEqual(names[y["material"][si]], "Si")
        self.assertAlmostEqual(y["eps_real"][si], 3.4757**2, delta=0.02)
        self.assertEqual(y["eps_real"][nearest(y, 0, 0.6 * UM)], 1.0)
        gold = nearest(y, 0.7 * UM, 0.1 * UM)
        self.assertEqual(names[y["material"][gold]], "Au")
        self.assertLess(y["eps_real"][gold], -50)  # a metal at 1.55 um
        self.assertGreater(y["eps_imag"][gold], 1)
        outlines = {o["name"]: o for o in y["objects"]}
        self.assertEqual(outlines["structures[1]"]["material"], "Si")
        self.assertEqual(answer["estimate"]["grid"], self.client.estimate(strip_on_oxide())["grid"])

    def test_an_example_file_one_plane_sampled(self):
        path = os.path.join(EXAMPLE, "si-strip-waveguide.json")
        answer = self.client.preview(path, planes=[{"normal": "y", "position": 0}], max_samples=20)
        (plane,) = answer["planes"]
        self.assertEqual(plane["normal"], "y")
        self.assertEqual(plane["eps_real"].shape, (20, 20))
        self.assertEqual(len(plane["coords"]["x"]), 20)
        self.assertGreater(plane["eps_real"].max(), 11)  # the silicon strip is on the plane

    def test_a_plane_outside_the_grid_nothing_queued(self):
        with self.assertRaises(emsim.ValidationError) as caught:
            self.client.preview(strip_on_oxide(), planes=[{"normal": "x", "position": 3 * UM}])
        self.assertIn("planes[0].position", [e.path for e in caught.exception.errors])
        queued = [j for j in self.client.jobs() if j.get("metadata", {}).get("suite") == "preview"]
        self.assertEqual(queued, [])


if __name__ == "__main__":
    unittest.main()
