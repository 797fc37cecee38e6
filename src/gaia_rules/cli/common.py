"""What the commands share: the streams, seeds, bot line-ups, and card faces as text.

Every text here is built from what one seat may see (a :class:`~gaia_rules.views.View`) or
from what is public; nothing in this module reads a hand or a deck order it was not given.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TextIO

import attrs

from gaia_rules.bots import BOTS, Bot, IsmctsBot, SearchBot
from gaia_rules.bots.ismcts import STRONG
from gaia_rules.cards import AnimalCard, CardId, CityCard, NatureCard, Objective, PowerCard
from gaia_rules.events import Event
from gaia_rules.game import Game
from gaia_rules.manifest import Manifest
from gaia_rules.rules import Edition, Level, Rules

__all__ = [
    "CommandError",
    "Console",
    "LineSource",
    "UsageError",
    "add_game_options",
    "bot_named",
    "bots_for",
    "derive_seed",
    "face_text",
    "play_out",
    "rules_from",
    "search_budget",
    "split_bots",
]


class UsageError(Exception):
    """A command line that cannot be run as written (exit status 2)."""


class CommandError(Exception):
    """A command that ran but could not do its job (exit status 1); the message says why."""


class LineSource(Protocol):
    """Where a person's answers come from: ``readline()`` gives one line with its newline,
    or ``""`` at the end of the input (a text stream is one)."""

    def readline(self) -> str:
        """The next line; ``""`` at the end."""
        ...


@attrs.frozen
class Console:
    """The streams a command reads and writes: injectable so that tests can drive them."""

    out: TextIO
    err: TextIO
    inp: LineSource

    @staticmethod
    def system() -> Console:
        """The process's own standard streams."""
        return Console(out=sys.stdout, err=sys.stderr, inp=sys.stdin)

    def print(self, text: str = "") -> None:
        """Write one line to the output."""
        self.out.write(text + "\n")


def derive_seed(base: int, *path: int) -> int:
    """A seed derived from ``base`` and the numbers in ``path`` (a game index, a seat).

    The same on every machine and Python version: a SHA-256 of the numbers, cut to 63 bits,
    so that games derived from nearby bases share nothing.
    """
    text = "/".join(str(n) for n in (base, *path))
    digest = hashlib.sha256(f"gaia-rules/{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def add_game_options(parser: argparse.ArgumentParser, *, players: int = 4) -> None:
    """Add ``--players``, ``--level`` and ``--edition`` to a command."""
    parser.add_argument(
        "--players",
        type=int,
        default=players,
        choices=range(2, 6),
        metavar="2-5",
        help=f"the number of seats (default {players})",
    )
    parser.add_argument(
        "--level",
        choices=[level.name.lower() for level in Level],
        default="basic",
        help="the rule level (default basic)",
    )
    parser.add_argument(
        "--edition",
        choices=[edition.value for edition in Edition],
        default="third",
        help="the card manifest (default third)",
    )


def rules_from(args: argparse.Namespace) -> Rules:
    """The rules named by ``--level`` and ``--edition``."""
    return Rules(level=Level[args.level.upper()], edition=Edition(args.edition))


def split_bots(text: str, seats: int, *, what: str = "seat") -> tuple[str, ...]:
    """The bot names of ``--bots``, one per seat: a line-up shorter than the table is
    repeated around it (``greedy,random`` at four seats is greedy, random, greedy, random;
    one name seats that bot everywhere), a longer one is refused. A search bot may carry its
    budget: ``search:100`` (playouts per decision), ``search:100:2`` (and the horizon),
    ``search:100:2:8`` (and the width); see :func:`search_budget`. An information-set search
    names its own the same way, ``ismcts:300:32:8`` (iterations, horizon, width); ``strong``
    is one at its budget.

    Raises :class:`UsageError` for an unknown name or budget, or a wrong count.
    """
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        base, _, budget = name.partition(":")
        if base == POLICY:
            bot_named(name, 0)  # the file is read now, so a bad one stops the run at once
            continue
        if base not in BOTS and base != ISMCTS:
            raise UsageError(
                f"--bots: no bot {name!r}; the bots are {', '.join(sorted(BOTS))}, "
                f"{ISMCTS}:ITERATIONS[:HORIZON[:WIDTH]] and {POLICY}:FILE (a saved policy)"
            )
        if name != base:
            if base not in ("search", ISMCTS):
                raise UsageError(
                    f"--bots: {name!r}: only search and {ISMCTS} take a budget "
                    f"(search:100, {ISMCTS}:200)"
                )
            search_budget(budget, name, parts=ISMCTS_PARTS if base == ISMCTS else BUDGET_PARTS)
    if len(names) > seats:
        raise UsageError(
            f"--bots: give at most {seats} names, one per {what} (a shorter line-up is "
            f"repeated around the table), got {len(names)}"
        )
    return tuple(names[seat % len(names)] for seat in range(seats))


ISMCTS = "ismcts"
"""The bot name of an information-set search with its budget: ``ismcts:300:32:8``, an
:class:`~gaia_rules.bots.ismcts.IsmctsBot` (``strong`` is ``ismcts`` at the budget
:data:`~gaia_rules.bots.ismcts.STRONG`)."""

ISMCTS_PARTS = (("iterations", 1), ("horizon", 0), ("width", 1))
"""The parts of an ``ismcts`` budget, as :data:`BUDGET_PARTS` for a search bot."""


BUDGET_PARTS = (("playouts", 1), ("horizon", 0), ("width", 1))
"""The parts of a search bot's budget on the command line, in order, each with its least
value: the arguments of :class:`~gaia_rules.bots.search.SearchBot` of the same names."""


def search_budget(
    text: str,
    name: str | None = None,
    *,
    parts: tuple[tuple[str, int], ...] = BUDGET_PARTS,
) -> dict[str, int]:
    """The budget ``playouts[:horizon[:width]]`` of a search bot's name (``search:100:2``
    gives ``{"playouts": 100, "horizon": 2}``; the parts left out keep their defaults), or,
    with ``parts=ISMCTS_PARTS``, the ``iterations[:horizon[:width]]`` of an ``ismcts`` name.

    Raises :class:`UsageError` naming the bot (``name``, else ``search:`` and ``text``) and
    the part that is not a whole number at least its least value, or a fourth part.
    """
    base = "search" if parts is BUDGET_PARTS else ISMCTS
    name = f"{base}:{text}" if name is None else name
    spelled = ":".join(field for field, _ in parts)
    example = "search:100:2:8" if parts is BUDGET_PARTS else f"{ISMCTS}:200:8:8"
    pieces = text.split(":")
    if len(pieces) > len(parts):
        raise UsageError(
            f"--bots: {name!r}: a {base} budget has at most three parts, {spelled} ({example})"
        )
    budget: dict[str, int] = {}
    for piece, (field, least) in zip(pieces, parts, strict=False):
        if not (piece.isascii() and piece.isdigit() and int(piece) >= least):
            raise UsageError(
                f"--bots: {name!r}: the {field} must be a whole number from {least}, "
                f"got {piece!r} ({base}:{spelled}, as {example})"
            )
        budget[field] = int(piece)
    return budget


POLICY = "policy"
"""The bot name that plays a saved policy: ``policy:agent.npz`` (the ``rl`` extra)."""


def policy_path(text: str, name: str) -> Path:
    """The file of a ``policy:FILE`` bot name, which must exist.

    Raises :class:`UsageError` naming the bot when the file is missing.
    """
    path = Path(text)
    if not text or not path.is_file():
        raise UsageError(f"--bots: {name!r}: no saved policy at {text!r} ({POLICY}:FILE)")
    return path


def bots_for(names: Sequence[str | None], seed: int) -> list[Bot | None]:
    """One bot per seat (``None`` where a person sits), each seeded from ``seed`` and its seat."""
    return [
        None if name is None else bot_named(name, derive_seed(seed, seat))
        for seat, name in enumerate(names)
    ]


def bot_named(name: str, seed: int) -> Bot:
    """The bot of a ``--bots`` name, made from ``seed``: a name of ``BOTS``, a search bot with
    its budget (``search:100:2``), an information-set search with its own (``ismcts:300:32``),
    or a saved policy (``policy:agent.npz``, which needs the
    ``rl`` extra).

    Raises :class:`UsageError` for an unknown name or budget, a missing policy file or a
    policy that cannot be loaded here.
    """
    base, _, rest = name.partition(":")
    if base == POLICY:
        path = policy_path(rest, name)
        try:
            from gaia_rules.rl.policy import PolicyBot  # noqa: PLC0415 (the rl extra)
        except ImportError as exc:
            raise UsageError(
                f"--bots: {name!r} needs numpy: pip install 'gaia-rules[rl]' ({exc})"
            ) from None
        try:
            return PolicyBot.load(path, seed)
        except (OSError, ValueError) as exc:
            raise UsageError(f"--bots: {name!r}: {exc}") from None
    if base == ISMCTS:
        budget = {**STRONG, **(search_budget(rest, name, parts=ISMCTS_PARTS) if rest else {})}
        return IsmctsBot(seed, budget["iterations"], budget["horizon"], budget["width"])
    if base not in BOTS:
        split_bots(name, 1)  # raises, naming the bots there are
    if rest:
        return SearchBot(seed, **search_budget(rest, name))
    return BOTS[base](seed)


def play_out(
    game: Game,
    bots: Sequence[Bot | None],
    on_events: Callable[[tuple[Event, ...]], None] | None = None,
) -> int:
    """Let the bots play ``game`` until it ends or a person's seat (``None``) is to move.

    Each bot chooses from its seat's view and the legal actions only. ``on_events`` receives
    the (omniscient) events of every action. Returns the number of decisions the bots took.
    """
    taken = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        bot = bots[seat]
        if bot is None:
            break
        events = game.apply(bot.choose(game.view(seat), game.legal_actions()))
        taken += 1
        if on_events is not None:
            on_events(events)
    return taken


def face_text(cards: Manifest, card: CardId) -> str:
    """A card and its face, for a person: ``C05 Akkad (plain; needs sea, forest, ...)``."""
    face = cards.face(card)
    match face:
        case NatureCard(land):
            return f"{card} {land.value}"
        case CityCard(name, site, needs):
            return (
                f"{card} city {name} (on {site.value}; needs {', '.join(n.value for n in needs)})"
            )
        case AnimalCard(site):
            return f"{card} animals (on {site.value})"
        case PowerCard(power):
            return f"{card} {power.value}"
        case Objective(lands, powers):
            if powers:
                return f"{card} objective: {powers} Power cards"
            return f"{card} objective: {', '.join(land.value for land in lands)}"
    raise AssertionError(face)  # pragma: no cover
