"""Calls a module makes into a layer above it, installed by the module that answers them.

Values know nothing of the converter, the notation, records or the drawing: those modules
import the values, never the other way round. Where a value still offers such a service as a
method (``to_json()``, ``str(action)``, ``game.record()``, ``_repr_svg_()``), the method calls
the function kept here, which the answering module installs when it is imported; importing
`gaia_rules` imports every one of them. So layers never point up and no import circle forms,
while the methods stay where their users look for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from gaia_rules.actions import Action
    from gaia_rules.record import GameRecord

__all__ = [
    "face_svg",
    "format_action",
    "from_data",
    "from_json",
    "new_record",
    "to_data",
    "to_json",
    "world_svg",
]


def _not_installed(*_: Any, **__: Any) -> NoReturn:
    raise RuntimeError("import gaia_rules first: it installs the converter, notation and drawing")


# installed by gaia_rules.serialization
to_data: Callable[[Any], Any] = _not_installed
to_json: Callable[[Any], str] = _not_installed
from_data: Callable[[Any, Any], Any] = _not_installed
from_json: Callable[[str | bytes, Any], Any] = _not_installed

# installed by gaia_rules.notation
format_action: Callable[[Action], str] = _not_installed

# installed by gaia_rules.record
new_record: Callable[..., GameRecord] = _not_installed

# installed by gaia_rules.svg
world_svg: Callable[[Any], str] = _not_installed

# installed by gaia_rules.svg_cards
face_svg: Callable[[Any], str] = _not_installed
