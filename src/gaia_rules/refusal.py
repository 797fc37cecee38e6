"""How a rule says no: the clause an action breaks and why (spec 1.7)."""

from __future__ import annotations

import attrs

__all__ = ["Refusal"]


@attrs.frozen
class Refusal:
    """An action is refused by ``clause`` for ``reason``."""

    clause: str
    reason: str
