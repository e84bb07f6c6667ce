"""``Client.modes`` against a real server: the 500 x 220 nm Si strip in SiO2 from a simulation
request and a plane gives TE0 (n_eff within 5e-3 of the converged 2.4455) and TM0; over a band
``modes_dataset`` gives n_eff(wavelength, mode) falling with wavelength and |Ex| peaking in
the strip; bad planes are ``ValidationError`` naming the field, and a request with neither a
plane nor a wavelength a ``ValueError`` before anything is sent."""

import unittest

import emsim
from support import api_key, base_url

PLANE = {"center": [0, 0, 0.11e-6], "size": [1.6e-6, 0, 1.6e-6]}


def strip_simulation():
    """A simulation of the strip along y: its source's wavelength is the modes' default."""
    return {
        "solver": "fdtd",
        "domain": {
            "size": [2e-6, 1e-6, 2e-6],
            "resolution": 20e-9,
            "boundary_conditions": ["pml", "pml", "pml"],
            "pml_layers": 10,
        },
        "structures": [
            {"type": "box", "center": [0, 0, 0], "size": [10, 10, 10], "material": "SiO2"},
            {
                "type": "box",
                "center": [0, 0, 0.11e-6],
                "size": [0.5e-6, 10, 0.22e-6],
                "material": "Si",
            },
        ],
        "source": {"source_type": "plane_wave", "wavelength": 1.55e-6, "direction": [0, 1, 0]},
    }


class ModesTest(unittest.TestCase):
    def setUp(self):
        self.client = emsim.Client(base_url(), api_key())

    def test_the_strip_te0_and_tm0(self):
        answer = self.client.modes(
            strip_simulation(), plane=PLANE, mode_spec={"num_modes": 2}, group_index=True
        )
        self.assertEqual(answer["plane"]["normal"], "y")
        self.assertEqual(answer["plane"]["axes"], ["x", "z"])
        self.assertEqual(answer["wavelengths_m"], [1.55e-6])
        te, tm = answer["modes"]
        self.assertAlmostEqual(te["n_eff"], 2.4455, delta=5e-3)
        self.assertGreater(te["te_fraction"], 0.9)
        self.assertLess(tm["te_fraction"], 0.3)
        # A strip's group index lies well above its n_eff: about 4.1.
        self.assertTrue(3.8 < te["group_index"] < 4.6, te["group_index"])
        self.assertNotIn("fields", te)

    def test_a_band_as_an_xarray_dataset(self):
        answer = self.client.modes(
            strip_simulation(),
            plane=PLANE,
            wavelengths={"start": 1.5e-6, "stop": 1.6e-6, "points": 3},
            include_fields=True,
        )
        ds = emsim.modes_dataset(answer)
        self.assertEqual(ds.n_eff.dims, ("wavelength", "mode"))
        self.assertEqual(ds.n_eff.shape, (3, 1))
        n_eff = ds.n_eff.sel(mode=0).values
        self.assertTrue(n_eff[0] > n_eff[1] > n_eff[2], n_eff)
        self.assertEqual(ds.Ex.dims, ("wavelength", "mode", "x", "z"))
        self.assertEqual(ds.Ex.attrs["units"], "V/m")
        # TE0's Ex peaks inside the strip (|x| < 0.25 um, 0 < z < 0.22 um).
        ex = abs(ds.Ex.isel(wavelength=1, mode=0))
        peak = ex.where(ex == ex.max(), drop=True)
        x, z = float(peak.x[0]), float(peak.z[0])
        self.assertTrue(abs(x) < 0.25e-6 and 0 < z < 0.22e-6, (x, z))
        self.assertEqual(ds.attrs["normal"], "y")

    def test_bad_planes_name_the_field(self):
        with self.assertRaises(emsim.ValidationError) as caught:
            self.client.modes(
                strip_simulation(), plane={"center": [0, 0, 0], "size": [0, 0, 1e-6]}
            )
        self.assertIn("plane.size", [e.path for e in caught.exception.errors])
        request = {**strip_simulation(), "plane": PLANE, "wavelengths": [1.55e-6], "extra": 1}
        with self.assertRaises(emsim.ValidationError):
            self.client.modes(request)  # a mode request is sent whole: the server names "extra"
        without = strip_simulation()
        del without["source"]
        with self.assertRaisesRegex(ValueError, "wavelengths="):
            self.client.modes(without, plane=PLANE)
        with self.assertRaisesRegex(ValueError, "plane="):
            self.client.modes(strip_simulation())


if __name__ == "__main__":
    unittest.main()
