"""The four neighbours of a square (spec 3.1), asked by every rule about the world.

Hot path: `Pos.neighbours` keeps the neighbours of each square asked about; this function
reads them from that memo, so that the compiled rules (the table's bookkeeping among them,
which cannot import `gaia_rules.world`, built on the table) call no interpreted method for
the squares asked about before.
"""

from __future__ import annotations

from gaia_rules.vocabulary import _NEIGHBOURS, Pos

__all__ = ["neighbours"]


def neighbours(pos: Pos) -> tuple[Pos, Pos, Pos, Pos]:
    """The four orthogonal squares of a square (spec 3.1): ``neighbours(pos)`` is
    ``pos.neighbours()``."""
    found = _NEIGHBOURS.get(pos)
    return pos.neighbours() if found is None else found
