"""``gaia-rules replay``: check a game record by replaying it, and print the game.

With ``--seat`` the game is printed as that seat saw it: its redacted log and its view,
never a card hidden from it (nor the seed, from which every hidden card follows).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gaia_rules.cli.common import CommandError, Console, face_text
from gaia_rules.errors import RecordError
from gaia_rules.game import Game
from gaia_rules.limits import MAX_RECORD_CHARS
from gaia_rules.position import Position
from gaia_rules.record import GameRecord
from gaia_rules.text import REASONS, describe, world_text

__all__ = ["load", "run"]


def load(path: str) -> Game:
    """Read and replay the record at ``path``.

    Raises :class:`CommandError` naming the file and the problem: unreadable, larger than a
    record can be (spec 1.10, refused before it is read), not a record, or an action that
    diverges (with its index).
    """
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_RECORD_CHARS + 1)  # enough to tell that it is too long
    except OSError as exc:
        raise CommandError(f"{path}: cannot read the record: {exc.strerror or exc}") from None
    try:
        game: Game = GameRecord.from_json(data).replay()
    except RecordError as exc:
        raise CommandError(f"{path}: {exc}") from None
    return game


def _rules_line(game: Game) -> str:
    rules = game.rules
    return f"{rules.level.name.lower()} rules, {rules.edition.value} edition"


def _decision_line(start: Position) -> str:
    """Where a record's start position stands: whose turn, and what was being decided."""
    top = start.steps[-1] if start.steps else None
    what = "the turn's start" if top is None and not start.turn_action else None
    if what is None:
        what = f"action {start.turn_action}" if top is None else type(top).__name__
    return f"seat {start.active}'s turn, {what}"


def run(args: argparse.Namespace, console: Console) -> int:
    """Replay the record, print it (whole, or as ``--seat`` saw it), write ``--svg``."""
    game = load(args.file)
    seat: int | None = args.seat
    if seat is not None and not 0 <= seat < game.players:
        raise CommandError(f"--seat: the record has seats 0-{game.players - 1}, not {seat}")
    if args.svg is not None:  # first: the drawing is written even if the printout is cut
        _write_svg(game, seat, args.svg)
    start = game.record().start
    begun = "" if start is None else f", from a position at {_decision_line(start)}"
    if seat is None:
        console.print(
            f"Gaïa record: {game.players} players, {_rules_line(game)}, seed {game.seed}, "
            f"first player {game.first_player}{begun}, {len(game.actions)} decisions"
        )
        events = game.events
        world = world_text(game.state)
    else:
        console.print(
            f"Gaïa record as seat {seat} saw it: {game.players} players, {_rules_line(game)}, "
            f"first player {game.first_player}{begun}, {len(game.actions)} decisions"
        )
        events = game.events_for(seat)
        world = world_text(game.view(seat))
    for event in events:
        console.print(describe(event) if seat is None else describe(event, game.rules.cards, seat))
    console.print()
    console.print(world)
    if seat is not None:
        view = game.view(seat)
        hand = ", ".join(face_text(game.rules.cards, card) for card in view.hand) or "empty"
        console.print(f"seat {seat}'s hand: {hand}")
    result = game.result
    if result is None:
        console.print("the record ends before the game does")
    else:
        console.print(
            f"result: seat {result.winner} wins ({REASONS[result.reason]}); "
            f"pawns placed {list(result.pawns_placed)}"
        )
    return 0


def _write_svg(game: Game, seat: int | None, path: str) -> None:
    """The final world as SVG, as ``seat`` saw it when one is given (the world is public)."""
    from gaia_rules.svg import world_svg  # noqa: PLC0415 (only --svg needs the drawing)

    if seat is None:
        drawing = world_svg(game, title=f"seed {game.seed}")
    else:
        drawing = world_svg(game.view(seat))
    try:
        Path(path).write_text(drawing, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--svg: cannot write {path}: {exc.strerror or exc}") from None
