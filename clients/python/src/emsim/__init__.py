"""emsim: the Python client of the emsim FDTD simulation service.

    import emsim
    client = emsim.Client("http://127.0.0.1:8080", api_key="emsim_…")
    path = client.run("examples/plane-wave-vacuum.json", "result.h5")
    axis = emsim.load(path)["axis"]          # xarray.Dataset: wavelength, x, y, z in metres
    print(abs(axis.Ey).mean().item())
    answer = client.modes({**waveguide, "plane": plane, "wavelengths": [1.55e-6]})
    emsim.modes_dataset(answer).n_eff   # xarray: n_eff(wavelength, mode)
    S = emsim.load(ports_result).s_matrix  # xarray: S(port_out, port_in, wavelength)
    emsim.to_touchstone(S, "device.s2p")
    sweep = client.sweep(simulation, {"/structures/0/size/2": [3e-7, 5e-7, 7e-7]})
    sweep["T"].flux      # xarray: flux(structures_0_size_2, wavelength), one job per value

The client needs only the standard library; ``emsim.load`` needs h5py and numpy, and gives
xarray Datasets when xarray is installed. Errors are in ``emsim.errors`` (also exported here).
"""

from ._http import RetryPolicy
from ._version import __version__
from .client import Client
from .errors import (
    ERROR_CODES,
    ApiError,
    AuthenticationError,
    BadRequestError,
    BatchFailedError,
    BatchNotFoundError,
    BatchResultsBusyError,
    BatchResultsUnavailableError,
    BodyTooLargeError,
    ChecksumMismatchError,
    ConflictError,
    EmsimConnectionError,
    EmsimError,
    FabricationBusyError,
    FieldError,
    ForbiddenError,
    ForbiddenJsonKeyError,
    GdsInvalidError,
    GdsNotFoundError,
    HeadersTooLargeError,
    InternalServerError,
    InvalidApiKeyFormatError,
    JobFailedError,
    JobFinishedError,
    BatchFinishedError,
    JobNotFoundError,
    LayoutTooLargeError,
    MalformedJsonError,
    MethodNotAllowedError,
    MissingApiKeyError,
    ModesBusyError,
    SParametersNotFoundError,
    NotFoundError,
    NotReadyError,
    ObjectNotFoundError,
    PlaneTooLargeError,
    RangeNotSatisfiableError,
    RateLimitedError,
    RequestTimeoutError,
    ResultsNotReadyError,
    ServiceUnavailableError,
    SimulationAlreadyRunningError,
    UnauthorizedError,
    UnsupportedContentEncodingError,
    UnsupportedMediaTypeError,
    ValidationError,
    WaitTimeout,
)
from .modes import modes_dataset
from .batch import BatchResult, SweptGroup
from .results import FarField, ModeAmplitudes, Monitor, Result, load
from .sparameters import SMatrix, to_touchstone, touchstone_text

__all__ = [
    "__version__",
    "Client",
    "RetryPolicy",
    "load",
    "modes_dataset",
    "to_touchstone",
    "touchstone_text",
    "SMatrix",
    "Result",
    "BatchResult",
    "SweptGroup",
    "Monitor",
    "FarField",
    "ModeAmplitudes",
    "ERROR_CODES",
    "ApiError",
    "AuthenticationError",
    "BadRequestError",
    "BatchFailedError",
    "BatchNotFoundError",
    "BatchResultsBusyError",
    "BatchResultsUnavailableError",
    "BodyTooLargeError",
    "ChecksumMismatchError",
    "ConflictError",
    "EmsimConnectionError",
    "EmsimError",
    "FabricationBusyError",
    "FieldError",
    "ForbiddenError",
    "ForbiddenJsonKeyError",
    "GdsInvalidError",
    "GdsNotFoundError",
    "HeadersTooLargeError",
    "InternalServerError",
    "InvalidApiKeyFormatError",
    "JobFailedError",
    "JobFinishedError",
    "BatchFinishedError",
    "JobNotFoundError",
    "LayoutTooLargeError",
    "MalformedJsonError",
    "MethodNotAllowedError",
    "MissingApiKeyError",
    "ModesBusyError",
    "SParametersNotFoundError",
    "NotFoundError",
    "NotReadyError",
    "ObjectNotFoundError",
    "PlaneTooLargeError",
    "RangeNotSatisfiableError",
    "RateLimitedError",
    "RequestTimeoutError",
    "ResultsNotReadyError",
    "ServiceUnavailableError",
    "SimulationAlreadyRunningError",
    "UnauthorizedError",
    "UnsupportedContentEncodingError",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "WaitTimeout",
]
