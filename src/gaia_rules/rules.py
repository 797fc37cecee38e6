"""``Rules``: the rule level, the card manifest, and one switch per ruling (spec 1.2, 1.3).

``Rules`` is a frozen value. Build it from a preset and override any switch by keyword:

    Rules.basic()
    Rules.advanced(four_need_drop=FourNeedDrop.EMPTY_AT_TWO)
    Rules.disasters(lightnings=2)

Switches also accept their values' names as strings (``feeding="every_city"``), which is
what the JSON form uses. An impossible combination raises
[`RulesError`][gaia_rules.errors.RulesError].
"""

from __future__ import annotations

import enum
import json
from typing import Any, TypeVar

import attrs

from gaia_rules.errors import ManifestError, RulesError, shown
from gaia_rules.jsonshape import non_text_key
from gaia_rules.manifest import MAX_MANIFEST_CHARS, Edition, Manifest

__all__ = ["Edition", "Feeding", "FourNeedDrop", "Level", "Objectives", "Rules"]

RULES_FORMAT = 1


class Level(enum.IntEnum):
    """The four rule levels, each adding to the one before (spec 1.2)."""

    BASIC = 1
    ADVANCED = 2
    POWERS = 3
    DISASTERS = 4

    def __repr__(self) -> str:
        return f"Level.{self.name}"


class Feeding(enum.Enum):
    """Which cities the active player feeds (spec 11.2)."""

    PAWN_HOLDER = "pawn_holder"
    """The cities with an animal need carrying one of his pawns (DE/HU; EN/FR "his cities")."""
    EVERY_CITY = "every_city"
    """Every city with an animal need, whoever holds it (BGA)."""

    def __repr__(self) -> str:
        return f"Feeding.{self.name}"


class Objectives(enum.Enum):
    """Whether a fulfillable Objective must be fulfilled (spec 8.4)."""

    MANDATORY = "mandatory"
    """He fulfils every Objective he can (EN "immediately", FR "dès que", DE)."""
    OPTIONAL = "optional"
    """Each fulfillable Objective is offered and may be declined (HU, BGA)."""

    def __repr__(self) -> str:
        return f"Objectives.{self.name}"


class FourNeedDrop(enum.Enum):
    """What a city that reached four needs keeps when it falls to two (advanced rules)."""

    KEEP_ONE = "keep_one"
    """One pawn stays at three or two needs (DE/EN/FR)."""
    EMPTY_AT_TWO = "empty_at_two"
    """At two needs it loses all its pawns (HU)."""

    def __repr__(self) -> str:
        return f"FourNeedDrop.{self.name}"


E = TypeVar("E", bound=enum.Enum)

MAX_LIGHTNINGS = 5


def _member(enum_type: type[E], value: Any, field: str) -> E:
    """Accept a member, its value or its name (any case) for the switch ``field``."""
    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        for member in enum_type:
            if value.lower() in (str(member.value).lower(), member.name.lower()):
                return member
    names = ", ".join(m.name for m in enum_type)
    raise RulesError(f"{field}: expected one of {names}, got {shown(value)}")


def _boolean(value: Any, field: str) -> bool:
    if isinstance(value, bool):
        return value
    raise RulesError(f"{field}: expected True or False, got {shown(value)}")


def _to_level(value: Any) -> Level:
    return _member(Level, value, "level")


def _to_edition(value: Any) -> Edition:
    return _member(Edition, value, "edition")


def _to_feeding(value: Any) -> Feeding:
    return _member(Feeding, value, "feeding")


def _to_objectives(value: Any) -> Objectives:
    return _member(Objectives, value, "objectives")


def _to_four_need_drop(value: Any) -> FourNeedDrop:
    return _member(FourNeedDrop, value, "four_need_drop")


def _to_star_animals_on_sea(value: Any) -> bool:
    return _boolean(value, "star_animals_on_sea")


def _to_eruption_on_city(value: Any) -> bool:
    return _boolean(value, "eruption_on_city")


def _to_lightnings(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"lightnings: expected a whole number 0-5, got {shown(value)}")
    return value


def _to_manifest(value: Any) -> Manifest | None:
    if value is None or isinstance(value, Manifest):
        return value
    raise RulesError(f"manifest: expected a Manifest or None, got {type(value).__name__}")


_SWITCH_LEVELS = {
    "four_need_drop": Level.ADVANCED,
    "lightnings": Level.DISASTERS,
    "eruption_on_city": Level.DISASTERS,
}
"""The switches that only mean something from a level on: setting one below it is refused."""


@attrs.frozen(kw_only=True)
class Rules:
    """The rules a game is played by: level, cards and one switch per ruling (spec 1.2, 1.3).

    Every switch defaults to the ruling; see the spec clause named on each for the other
    readings. Prefer the presets `basic`, `advanced`, `powers` and
    `disasters`.
    """

    level: Level = attrs.field(default=Level.BASIC, converter=_to_level)
    """The rule level (spec 1.2)."""
    edition: Edition = attrs.field(default=Edition.THIRD, converter=_to_edition)
    """Which Life cards are in the box (spec 2.5)."""
    feeding: Feeding = attrs.field(default=Feeding.PAWN_HOLDER, converter=_to_feeding)
    """Whose cities are fed (spec 11.2)."""
    star_animals_on_sea: bool = attrs.field(default=True, converter=_to_star_animals_on_sea)
    """Whether a star Animal card may go on sea (spec 9.1b)."""
    objectives: Objectives = attrs.field(default=Objectives.MANDATORY, converter=_to_objectives)
    """Whether Objectives are fulfilled whenever possible (spec 8.4)."""
    four_need_drop: FourNeedDrop = attrs.field(
        default=FourNeedDrop.KEEP_ONE, converter=_to_four_need_drop
    )
    """What a four-need city keeps when it falls (advanced rules)."""
    lightnings: int = attrs.field(default=MAX_LIGHTNINGS, converter=_to_lightnings)
    """How many Lightning cards the disasters deck holds, 0-5."""
    eruption_on_city: bool = attrs.field(default=True, converter=_to_eruption_on_city)
    """Whether a mountain under a city may erupt (disasters)."""
    manifest: Manifest | None = attrs.field(default=None, converter=_to_manifest)
    """A manifest of one's own cards; ``None`` plays the edition's shipped manifest (spec 2.8)."""

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.lightnings <= MAX_LIGHTNINGS:
            raise RulesError(
                f"lightnings: expected 0-{MAX_LIGHTNINGS}, got {shown(self.lightnings)}"
            )
        for name, needs in _SWITCH_LEVELS.items():
            field = getattr(attrs.fields(Rules), name)
            if self.level < needs and getattr(self, name) != field.default:
                raise RulesError(
                    f"{name} belongs to the {needs.name.lower()} level and above; these rules "
                    f"are {self.level.name.lower()} (spec 1.3)"
                )
        if self.manifest is not None and self.manifest.edition is not self.edition:
            raise RulesError(
                f"the manifest is of the {self.manifest.edition.value} edition but the rules say "
                f"{self.edition.value}"
            )

    # -- presets (spec 1.2) ----------------------------------------------------------------

    @classmethod
    def basic(cls, **switches: Any) -> Rules:
        """The basic game.

        Args:
            **switches: Any switch to set other than ``level``, by name; a value may also be
                given by its name as text (``feeding="every_city"``).

        Raises:
            RulesError: A switch value is out of its range or of the wrong type, a switch is
                set that belongs to a higher level (spec 1.2), or the manifest is of
                another edition than ``edition``.
            TypeError: A keyword names no switch, or is ``level``.
        """
        return cls(level=Level.BASIC, **switches)

    @classmethod
    def advanced(cls, **switches: Any) -> Rules:
        """The basic game with stealing and four needs.

        Args:
            **switches: Any switch to set other than ``level``, by name; a value may also be
                given by its name as text (``feeding="every_city"``).

        Raises:
            RulesError: A switch value is out of its range or of the wrong type, a switch is
                set that belongs to a higher level (spec 1.2), or the manifest is of
                another edition than ``edition``.
            TypeError: A keyword names no switch, or is ``level``.
        """
        return cls(level=Level.ADVANCED, **switches)

    @classmethod
    def powers(cls, **switches: Any) -> Rules:
        """The advanced game with the Power cards.

        Args:
            **switches: Any switch to set other than ``level``, by name; a value may also be
                given by its name as text (``feeding="every_city"``).

        Raises:
            RulesError: A switch value is out of its range or of the wrong type, a switch is
                set that belongs to a higher level (spec 1.2), or the manifest is of
                another edition than ``edition``.
            TypeError: A keyword names no switch, or is ``level``.
        """
        return cls(level=Level.POWERS, **switches)

    @classmethod
    def disasters(cls, **switches: Any) -> Rules:
        """The Powers game with Lightning and Eruption.

        Args:
            **switches: Any switch to set other than ``level``, by name; a value may also be
                given by its name as text (``feeding="every_city"``).

        Raises:
            RulesError: A switch value is out of its range or of the wrong type, a switch is
                set that belongs to a higher level (spec 1.2), or the manifest is of
                another edition than ``edition``.
            TypeError: A keyword names no switch, or is ``level``.
        """
        return cls(level=Level.DISASTERS, **switches)

    # -- derived -----------------------------------------------------------------------------

    @property
    def cards(self) -> Manifest:
        """The manifest in play: the user's own, or the edition's shipped one."""
        return self.manifest if self.manifest is not None else Manifest.builtin(self.edition)

    @property
    def advanced_rules(self) -> bool:
        """Whether stealing and four needs apply (advanced level and above)."""
        return self.level >= Level.ADVANCED

    @property
    def with_powers(self) -> bool:
        """Whether the Power cards are in play."""
        return self.level >= Level.POWERS

    @property
    def with_disasters(self) -> bool:
        """Whether Lightning and Eruption are in the Power deck."""
        return self.level >= Level.DISASTERS

    def evolve(self, **switches: Any) -> Rules:
        """A copy with some switches changed.

        Args:
            **switches: The switches to change, by name (``level`` too).

        Raises:
            RulesError: The new values make rules that cannot be played, as for the presets.
            TypeError: A keyword names no switch.
        """
        return attrs.evolve(self, **switches)

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready data."""
        data: dict[str, Any] = {"format": RULES_FORMAT}
        for field in attrs.fields(Rules):
            value = getattr(self, field.name)
            if field.name == "manifest":
                data["manifest"] = None if value is None else value.to_dict()
            elif field.name == "level":
                data["level"] = value.name.lower()
            elif isinstance(value, enum.Enum):
                data[field.name] = value.value
            else:
                data[field.name] = value
        return data

    def to_json(self) -> str:
        """The rules as JSON text; [`from_json`][gaia_rules.rules.Rules.from_json] gives back an
        equal value."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from JSON-ready data (the form of [`to_dict`][gaia_rules.rules.Rules.to_dict]).

        Args:
            data: Already-parsed JSON: an object with ``"format"`` and any switches; a
                switch left out takes its default.

        Raises:
            RulesError: ``data`` is not such an object (a key that is not a text, a wrong or
                missing ``"format"``, an unknown field, a bad value, a bad manifest) or
                describes rules that cannot be played; the message names the field.
        """
        if not isinstance(data, dict):
            raise RulesError("rules: expected a JSON object")
        problem = non_text_key(data)
        if problem is not None:
            raise RulesError(f"rules: {problem}")
        if type(data.get("format")) is not int or data.get("format") != RULES_FORMAT:
            raise RulesError(
                f"rules.format: expected {RULES_FORMAT}, got {shown(data.get('format'))}"
            )
        names = {f.name for f in attrs.fields(Rules)}
        unknown = sorted(set(data) - names - {"format"})
        if unknown:
            raise RulesError(f"rules: unknown field(s) {unknown}")
        values = {k: v for k, v in data.items() if k != "format"}
        manifest = values.get("manifest")
        if manifest is not None:
            try:
                values["manifest"] = Manifest.from_dict(manifest)
            except ManifestError as exc:
                raise RulesError(f"rules.manifest: {exc}") from None
        try:
            return cls(**values)
        except RulesError as exc:
            raise RulesError(f"rules: {exc}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Rules:
        """Rules from JSON text (the output of [`to_json`][gaia_rules.rules.Rules.to_json]).

        Raises:
            RulesError: ``text`` is not JSON, or not the JSON of playable rules (see
                [`from_dict`][gaia_rules.rules.Rules.from_dict]); the message names the field.
        """
        if isinstance(text, str | bytes) and len(text) > MAX_MANIFEST_CHARS:
            raise RulesError(
                f"rules: {len(text)} characters; rules have at most {MAX_MANIFEST_CHARS} (1.10)"
            )
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as exc:
            raise RulesError(f"rules: not JSON: {exc}") from None
        return cls.from_dict(data)
