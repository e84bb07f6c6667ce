"""What the client's tests share: the real server test/python/client.test.ts started for them
(its address and keys come in the environment) and small simulation requests.

The tests run with Debian's /usr/bin/python3 and only what Debian packages: numpy, h5py,
xarray, h5netcdf and tqdm.
"""

import os
import socket
import uuid
import unittest


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise unittest.SkipTest(
            f"{name} is not set: run these tests through test/python/client.test.ts"
        )
    return value


def base_url() -> str:
    return env("EMSIM_TEST_BASE_URL")


def api_key() -> str:
    return env("EMSIM_TEST_API_KEY")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def small_request(wavelengths=None, time_steps=6000):
    """A 1-D periodic column in vacuum lit by a 1.55 um plane wave along z: seconds to run.

    Along z, |Ey| = 1 V/m and the phase grows as 2 pi z / wavelength.
    """
    monitor = {
        "name": "axis",
        "monitor_type": "field",
        "center": [0, 0, 0],
        "size": [0, 0, 2.5e-6],
        "components": ["Ex", "Ey"],
    }
    if wavelengths:
        monitor["wavelengths"] = list(wavelengths)
    return {
        "solver": "fdtd",
        "domain": {
            "size": [0.05e-6, 0.05e-6, 3e-6],
            "resolution": 25e-9,
            "boundary_conditions": ["periodic", "periodic", "pml"],
        },
        "source": {"source_type": "plane_wave", "wavelength": 1.55e-6, "direction": [0, 0, 1]},
        "monitors": [monitor],
        "fdtd_settings": {"time_steps": time_steps, "check_every_n": 500},
        # A new run id each time: the same request twice would be answered from the first's
        # result (identical work runs once) and never be seen QUEUED or RUNNING.
        "metadata": {"suite": "python", "run": uuid.uuid4().hex},
    }


def long_request():
    """A valid job that runs for minutes: for conflicts and cancelling."""
    request = small_request()
    request["domain"]["size"] = [1e-6, 1e-6, 4e-6]
    request["domain"]["resolution"] = 0.05e-6
    request["fdtd_settings"] = {
        "time_steps": 900000,
        "check_every_n": 1000,
        "convergence_threshold": 0,
    }
    return request
