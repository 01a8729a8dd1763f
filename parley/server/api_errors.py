"""Errors in the OpenAI API's shape: ``{"error": {"message", "type", "param", "code"}}``.

The ``type`` follows the status as OpenAI's own API does: 400, 404, 413 and 415 are
``invalid_request_error``, 401 ``authentication_error``, 501 ``not_implemented_error``, 503
``server_error`` (overloaded), 500 ``server_error``.  Ollama's routes (``/api/...``) get
Ollama's shape instead: ``{"error": "message"}``.
"""

from __future__ import annotations

from starlette.responses import JSONResponse

_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "invalid_request_error",
    405: "invalid_request_error",
    413: "invalid_request_error",
    415: "invalid_request_error",
    500: "server_error",
    501: "not_implemented_error",
    503: "server_error",
}


class ApiError(Exception):
    """A request that gets an error response: raise it anywhere in a route."""

    def __init__(self, status: int, message: str, *, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param
        self.code = code

    def body(self) -> dict[str, object]:
        return error_body(self.status, self.message, param=self.param, code=self.code)

    def response(self, path: str = "") -> JSONResponse:
        """The error as a response to a request for ``path`` (Ollama's routes get its shape)."""
        headers = {"Retry-After": "1"} if self.status == 503 else None
        body = {"error": self.message} if is_ollama_path(path) else self.body()
        return JSONResponse(body, status_code=self.status, headers=headers)


def is_ollama_path(path: str) -> bool:
    """Whether ``path`` is one of Ollama's routes, whose errors are ``{"error": "message"}``."""
    return path == "/api" or path.startswith("/api/")


def error_body(status: int, message: str, *, param: str | None = None, code: str | None = None) -> dict[str, object]:
    return {
        "error": {"message": message, "type": _TYPES.get(status, "invalid_request_error"), "param": param, "code": code}
    }
