"""What the emsim client raises.

Every error is an :class:`EmsimError`. An answer of the API with an error status becomes the
subclass of :class:`ApiError` named after its ``error_code`` (docs/api.md lists them), each
carrying ``detail``, ``error_code``, ``status`` and the response's ``correlation_id`` (quote
it when reporting a server error). A server that cannot be reached, a TLS failure or an
address that is not the emsim API is one :class:`EmsimConnectionError` with one message.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Type


class EmsimError(Exception):
    """Base class of every error of the emsim client."""


class EmsimConnectionError(EmsimError):
    """The API could not be reached or did not answer as the emsim API.

    ``url`` is the address tried; ``sent`` is False when the request cannot have reached the
    server (connection refused, unknown host, TLS handshake failed), so it was safe to retry.
    """

    def __init__(self, message: str, *, url: str, sent: bool, reason: str) -> None:
        super().__init__(message)
        self.url = url
        self.sent = sent
        self.reason = reason


class FieldError(NamedTuple):
    """One problem of a 422 answer: the field (``domain.size[0]``) and what is wrong."""

    path: str
    message: str


class ApiError(EmsimError):
    """The API answered with an error status; see the subclasses for each ``error_code``."""

    def __init__(
        self, status: int, body: Dict[str, Any], correlation_id: Optional[str] = None
    ) -> None:
        self.status = status
        self.body = body
        self.detail: str = str(body.get("detail", ""))
        self.error_code: str = str(body.get("error_code", f"http_{status}"))
        self.correlation_id = correlation_id
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f", correlation id {self.correlation_id}" if self.correlation_id else ""
        return f"{self.detail} (HTTP {self.status}, {self.error_code}{where})"

    @property
    def retry_after(self) -> Optional[float]:
        """Seconds the server asked to wait (409 and 429 bodies), if it said."""
        value = self.body.get("retry_after")
        return float(value) if isinstance(value, (int, float)) else None


class BadRequestError(ApiError):
    """400: the request could not be read (``bad_request``)."""


class MalformedJsonError(BadRequestError):
    """400 ``malformed_json``: the body is not JSON."""


class ForbiddenJsonKeyError(BadRequestError):
    """400 ``forbidden_json_key``: the body uses the key ``__proto__`` (or ``constructor``)."""


class AuthenticationError(ApiError):
    """401: no usable API key."""


class MissingApiKeyError(AuthenticationError):
    """401 ``missing_api_key``: no ``Authorization: Bearer`` header was sent."""


class InvalidApiKeyFormatError(AuthenticationError):
    """401 ``invalid_api_key_format``: the key is not an emsim key (typo, truncated)."""


class UnauthorizedError(AuthenticationError):
    """401 ``unauthorized``: a well-formed key that is unknown or revoked."""


class ForbiddenError(ApiError):
    """403 ``forbidden``: a download address with a bad or expired signature."""


class NotFoundError(ApiError):
    """404 ``not_found``: nothing at this address (is ``base_url`` right?)."""


class JobNotFoundError(NotFoundError):
    """404 ``job_not_found``: no such job for this account."""


class SParametersNotFoundError(NotFoundError):
    """404 ``sparameters_not_found``: the job has no S-matrix (it was not a ports job)."""


class ObjectNotFoundError(NotFoundError):
    """404 ``object_not_found``: the stored result no longer exists."""


class MethodNotAllowedError(ApiError):
    """405 ``method_not_allowed``."""


class RequestTimeoutError(ApiError):
    """408 ``request_timeout``: the request did not arrive in time."""


class ConflictError(ApiError):
    """409: the request conflicts with a job's state."""

    @property
    def job_status(self) -> Optional[str]:
        """The job's status, when the body says it."""
        value = self.body.get("status")
        return value if isinstance(value, str) else None


class SimulationAlreadyRunningError(ConflictError):
    """409 ``simulation_already_running``: you have an active job (``active_job_id``), of a
    batch when ``active_batch_id`` says which."""

    @property
    def active_job_id(self) -> Optional[str]:
        value = self.body.get("active_job_id")
        return value if isinstance(value, str) else None

    @property
    def active_batch_id(self) -> Optional[str]:
        value = self.body.get("active_batch_id")
        return value if isinstance(value, str) else None


class ResultsNotReadyError(ConflictError):
    """409 ``results_not_ready``: the job (or batch) is not COMPLETED (``job_status``)."""


class JobFinishedError(ConflictError):
    """409 ``job_finished``: cancelling a job that already finished."""


class BatchFinishedError(ConflictError):
    """409 ``batch_finished``: cancelling a batch whose every job has already ended."""


class BodyTooLargeError(ApiError):
    """413 ``body_too_large``."""


class UnsupportedMediaTypeError(ApiError):
    """415 ``unsupported_media_type``: the body is not ``application/json``."""


class UnsupportedContentEncodingError(UnsupportedMediaTypeError):
    """415 ``unsupported_content_encoding``: a compressed body; send it uncompressed."""


class RangeNotSatisfiableError(ApiError):
    """416 ``range_not_satisfiable``."""


class ValidationError(ApiError):
    """422 ``validation_error``: ``errors`` lists every field and what is wrong with it."""

    @property
    def errors(self) -> List[FieldError]:
        items = self.body.get("errors")
        if not isinstance(items, list):
            return []
        return [
            FieldError(str(e.get("path", "")), str(e.get("message", "")))
            for e in items
            if isinstance(e, dict)
        ]


class RateLimitedError(ApiError):
    """429 ``rate_limited``: too many requests for this key (``retry_after`` seconds)."""


class HeadersTooLargeError(ApiError):
    """431 ``headers_too_large``: the request's headers exceed 16 KiB."""


class InternalServerError(ApiError):
    """500 ``internal_error``: a server fault; quote ``correlation_id`` when reporting it."""


class GdsInvalidError(ApiError):
    """422 ``gds_invalid``: the GDS II file cannot be read (``reason`` says why)."""


class LayoutTooLargeError(ApiError):
    """422 ``layout_too_large``: the layout is too large to check within the service's limits."""


class BatchNotFoundError(NotFoundError):
    """404 ``batch_not_found``: no such batch for this account."""


class BatchResultsUnavailableError(ApiError):
    """422 ``batch_results_unavailable``: the batch's jobs' files cannot be stacked into one
    (``detail`` says why); each job's own file can still be downloaded."""


class GdsNotFoundError(NotFoundError):
    """404 ``gds_not_found``: the file behind a ``gds_url`` no longer exists."""


class ServiceUnavailableError(ApiError):
    """503 ``service_unavailable``: the database cannot store anything; nothing was stored
    (``retry_after`` seconds)."""


class FabricationBusyError(ServiceUnavailableError):
    """503 ``fabrication_busy``: every fabrication check is busy; see ``retry_after``."""


class BatchResultsBusyError(ServiceUnavailableError):
    """503 ``batch_results_busy``: every writer of batch files is busy; see ``retry_after``."""


class ModesBusyError(ServiceUnavailableError):
    """503 ``modes_busy``: the server's mode solves are all busy; see ``retry_after``."""


class PlaneTooLargeError(ApiError):
    """422 ``plane_too_large``: a mode solve ran past the server's time or memory limit; make
    the plane smaller or the grid coarser."""


class NotReadyError(ServiceUnavailableError):
    """503 ``not_ready``: the service is not ready (its database does not answer)."""


#: The class raised for each ``error_code`` of the API.
ERROR_CODES: Dict[str, Type[ApiError]] = {
    "bad_request": BadRequestError,
    "malformed_json": MalformedJsonError,
    "forbidden_json_key": ForbiddenJsonKeyError,
    "missing_api_key": MissingApiKeyError,
    "invalid_api_key_format": InvalidApiKeyFormatError,
    "unauthorized": UnauthorizedError,
    "forbidden": ForbiddenError,
    "not_found": NotFoundError,
    "job_not_found": JobNotFoundError,
    "object_not_found": ObjectNotFoundError,
    "method_not_allowed": MethodNotAllowedError,
    "request_timeout": RequestTimeoutError,
    "simulation_already_running": SimulationAlreadyRunningError,
    "results_not_ready": ResultsNotReadyError,
    "job_finished": JobFinishedError,
    "batch_finished": BatchFinishedError,
    "body_too_large": BodyTooLargeError,
    "unsupported_media_type": UnsupportedMediaTypeError,
    "unsupported_content_encoding": UnsupportedContentEncodingError,
    "range_not_satisfiable": RangeNotSatisfiableError,
    "validation_error": ValidationError,
    "rate_limited": RateLimitedError,
    "headers_too_large": HeadersTooLargeError,
    "internal_error": InternalServerError,
    "service_unavailable": ServiceUnavailableError,
    "not_ready": NotReadyError,
    "gds_invalid": GdsInvalidError,
    "layout_too_large": LayoutTooLargeError,
    "gds_not_found": GdsNotFoundError,
    "fabrication_busy": FabricationBusyError,
    "modes_busy": ModesBusyError,
    "plane_too_large": PlaneTooLargeError,
    "sparameters_not_found": SParametersNotFoundError,
    "batch_not_found": BatchNotFoundError,
    "batch_results_busy": BatchResultsBusyError,
    "batch_results_unavailable": BatchResultsUnavailableError,
}

#: The class for a status whose ``error_code`` this client does not know (a newer server).
_BY_STATUS: Dict[int, Type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: ForbiddenError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    408: RequestTimeoutError,
    409: ConflictError,
    413: BodyTooLargeError,
    415: UnsupportedMediaTypeError,
    416: RangeNotSatisfiableError,
    422: ValidationError,
    429: RateLimitedError,
    431: HeadersTooLargeError,
    500: InternalServerError,
    503: ServiceUnavailableError,
}


def api_error(status: int, body: Dict[str, Any], correlation_id: Optional[str]) -> ApiError:
    """The error for an API answer: by its ``error_code``, else by its status."""
    cls = ERROR_CODES.get(str(body.get("error_code"))) or _BY_STATUS.get(status, ApiError)
    return cls(status, body, correlation_id)


class ChecksumMismatchError(EmsimError):
    """A downloaded result file does not match the job's (or batch's, ``kind``) SHA-256; the
    file was deleted. ``job_id`` is the batch's id when ``kind`` is ``"batch"``."""

    def __init__(
        self, job_id: str, expected: str, actual: str, path: str, kind: str = "job"
    ) -> None:
        super().__init__(
            f"the download of {kind} {job_id} does not match its checksum (expected sha256 "
            f"{expected}, got {actual}); {path} was deleted, download it again"
        )
        self.kind = kind
        self.job_id = job_id
        self.expected = expected
        self.actual = actual
        self.path = path


class JobFailedError(EmsimError):
    """A job ended FAILED (or was cancelled) where a result was expected; ``job`` is its record."""

    def __init__(self, job: Dict[str, Any]) -> None:
        super().__init__(
            f"job {job.get('job_id')} FAILED: {job.get('error_detail') or 'no detail given'}"
        )
        self.job = job


class BatchFailedError(EmsimError):
    """A batch ended FAILED (none of its jobs completed, or it was cancelled before any did)
    where a result was expected; ``batch`` is its record, each job with its ``error_detail``."""

    def __init__(self, batch: Dict[str, Any]) -> None:
        failed = next((j for j in batch.get("jobs", []) if j.get("error_detail")), None)
        super().__init__(
            f"batch {batch.get('batch_id')} FAILED: none of its {batch.get('job_count')} jobs "
            "completed"
            + (f" (job {failed.get('index')}: {failed.get('error_detail')})" if failed else "")
        )
        self.batch = batch


class WaitTimeout(EmsimError, TimeoutError):
    """``wait`` (or ``wait_batch``) gave up before the job (batch) finished; ``job`` is its
    last record."""

    def __init__(self, job: Dict[str, Any], timeout: float) -> None:
        what = f"job {job.get('job_id')}" if "job_id" in job else f"batch {job.get('batch_id')}"
        super().__init__(f"{what} is still {job.get('status')} after {timeout:g} s")
        self.job = job
