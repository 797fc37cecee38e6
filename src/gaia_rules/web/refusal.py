"""What a front end is refused, in one shape whichever engine refuses it: the server (over
HTTP and its socket) or the engine in the page (``gaia_rules.web.inbrowser``). Nothing here
imports the server's own libraries, so the engine in the page raises the same error."""

from __future__ import annotations

from typing import Any

__all__ = ["WebError"]


class WebError(Exception):
    """A request the server refuses: ``status`` is its HTTP status, ``kind`` a short
    name for programs, the message says why in words; ``clause`` is set when the rules
    refuse an action, ``state`` (a state message) when the request was stale, and
    ``retry_after`` (seconds) when a limit refused it."""

    def __init__(
        self,
        status: int,
        kind: str,
        message: str,
        clause: str | None = None,
        *,
        state: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
        self.clause = clause
        self.state = state
        self.retry_after = retry_after

    def to_data(self) -> dict[str, Any]:
        """The error as the body of the response."""
        error: dict[str, Any] = {"status": self.status, "kind": self.kind, "message": self.message}
        if self.clause is not None:
            error["clause"] = self.clause
        data: dict[str, Any] = {"error": error}
        if self.state is not None:
            data["state"] = self.state
        return data
