"""``gaia-rules play``: a person plays one seat in the terminal against bots.

At the person's first decision the command shows that seat's view of the whole table (its
hand with the card faces, the displays, the world, what the others hold by back); before
each later one, what changed since (the events, as the seat saw them) and the seat's hand,
and ``view`` shows the whole table again. The legal actions are numbered and in the action
notation; card ids may be typed in any case. On a terminal, the prompt has line editing
and a history (``readline``). Every other seat's move is shown as the person's seat saw
it. Nothing here reads another hand or a deck order.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from gaia_rules.actions import Action
from gaia_rules.cards import CardId
from gaia_rules.cli.common import (
    CommandError,
    Console,
    UsageError,
    bots_for,
    face_text,
    play_out,
    rules_from,
    split_bots,
)
from gaia_rules.decisions import (
    ChooseAction,
    ChooseBack,
    ChooseFeeding,
    ChooseKeptCard,
    ChooseLimitDiscard,
    ChooseObjective,
    ChoosePawnCities,
    ChooseProtection,
    Decision,
)
from gaia_rules.errors import IllegalActionError
from gaia_rules.game import Game, new_game
from gaia_rules.notation import NotationError, parse_action
from gaia_rules.text import COLOURS, REASONS, describe, face_words, world_text
from gaia_rules.views import View
from gaia_rules.vocabulary import CardKind

__all__ = ["decision_text", "run", "view_text"]

HELP = """\
Type the number of an action, or the action in the notation (with or without the seat,
for example "draw nature" or "0: play n07 1,0"; card ids in any case).
  view   show the whole table again
  help   this text
  quit   leave the game (so does Ctrl-D; Ctrl-C twice in a row)"""


def decision_text(decision: Decision) -> str:
    """What the seat is deciding, in words."""
    match decision:
        case ChooseAction(_, number):
            return f"action {number} of 2: take a card or play one"
        case ChooseFeeding(_, cities):
            return (
                "feeding: choose a city and the neighbouring square that feeds it "
                f"(cities to feed: {', '.join(str(pos) for pos in cities)})"
            )
        case ChooseLimitDiscard():
            return "over the limit: choose a card to discard"
        case ChooseObjective():
            return "choose the Objective to fulfil"
        case ChoosePawnCities(_, cities):
            return (
                "your last pawns: choose the city each goes on "
                f"(among {', '.join(str(pos) for pos in cities)})"
            )
        case ChooseProtection(_, power_player, against, _):
            return f"seat {power_player} plays {against}: protect against it, or pass"
        case ChooseBack(_, victim, _):
            return f"Tornado: choose the back of the card you take from seat {victim}"
        case ChooseKeptCard():
            return "Tornado: choose the stolen card you keep"
    raise AssertionError(decision)  # pragma: no cover


_CARD_ID = re.compile(r"\b[ncapoNCAPO][0-9]{2}\b")
"""A card id as typed: a letter and two digits, in any case."""


def _cards(view: View, cards: tuple[CardId, ...]) -> str:
    return ", ".join(face_text(view.rules.cards, card) for card in cards) or "none"


def _faces(view: View, cards: tuple[CardId, ...]) -> str:
    """Cards by their faces alone: another seat's cards, whose ids a seat is not told (1.14)."""
    return ", ".join(face_words(view.rules.cards, card) for card in cards) or "none"


def view_text(view: View) -> str:
    """The table as ``view``'s seat sees it: the world, the displays, the Objectives, what
    each seat has in front of it and holds by back, and the seat's own hand with faces."""
    lines = [world_text(view), ""]
    for kind, cards in view.displays.items():
        if kind is CardKind.POWER and not view.rules.with_powers:
            continue  # no Power cards below the powers level
        lines.append(
            f"{kind.value} display: {_cards(view, cards)} "
            f"(deck {view.deck_sizes.get(kind, 0)} cards)"
        )
    for objective in view.objectives:
        holder = view.objective_pawns.get(objective)
        taken = "" if holder is None else f" (fulfilled by seat {holder})"
        lines.append(f"objective {face_text(view.rules.cards, objective)}{taken}")
    lines.append(f"bank: {view.bank} tokens")
    for seat in range(view.players):
        backs = view.hand_backs[seat]
        held = ", ".join(f"{backs.count(kind)} {kind.value}" for kind in dict.fromkeys(backs))
        lines.append(
            f"seat {seat} ({COLOURS[seat]}){' (you)' if seat == view.seat else ''}: "
            f"{view.supply[seat]} pawns left, holds {len(backs)} cards ({held or 'none'}), "
            f"in front: {_faces(view, view.tableaux[seat])}"
        )
    stolen = [card for _, _, card in view.stolen if card is not None]
    if stolen:
        lines.append(f"stolen cards you see: {_cards(view, tuple(stolen))}")
    lines.append(f"your hand: {_cards(view, view.hand)}")
    return "\n".join(lines)


class _Table:
    """One person's seat at a game: shows what the seat sees and reads its choices."""

    def __init__(self, game: Game, seat: int, console: Console) -> None:
        self.game = game
        self.seat = seat
        self.console = console
        self.shown = 0
        self.table_shown = False
        self.world_shown = ""
        self.interactive = _interactive(console)

    def _readline(self, prompt: str) -> str:
        """One line typed by the person, with its newline; ``""`` at the end of the input.
        On a terminal, through ``input()``, which ``readline`` gives line editing and a
        history."""
        if self.interactive:
            try:
                return input(prompt) + "\n"
            except EOFError:
                return ""
        self.console.out.write(prompt)
        self.console.out.flush()
        return self.console.inp.readline()

    def show_news(self) -> None:
        """Print the events since the last call, as the seat saw them."""
        events = self.game.events_for(self.seat)
        for event in events[self.shown :]:
            self.console.print(describe(event, self.game.rules.cards, self.seat))
        self.shown = len(events)

    def _list(self, legal: Sequence[Action]) -> None:
        for number, action in enumerate(legal, 1):
            self.console.print(f"  {number:>3}. {action}")

    def ask(self) -> Action | None:
        """The person's choice among the legal actions; ``None`` to leave the game."""
        game, console = self.game, self.console
        decision = game.decision
        assert decision is not None
        legal = game.legal_actions()
        view = game.view(self.seat)
        console.print()
        world = world_text(view)
        if not self.table_shown:  # the whole table once; then the events say what changed
            console.print(view_text(view))
            console.print()
            self.table_shown = True
        else:
            if world != self.world_shown:  # and the world again when it changed
                console.print(world)
                console.print()
            console.print(f"your hand: {_cards(view, view.hand)}")
        self.world_shown = world
        console.print(f"seat {self.seat}, {decision_text(decision)}:")
        self._list(legal)
        interrupted = False
        while True:
            try:
                line = self._readline(f"seat {self.seat}> ")
            except KeyboardInterrupt:
                if interrupted:
                    console.print()
                    console.print("interrupted: leaving the game")
                    return None
                interrupted = True
                console.print()
                console.print("(Ctrl-C: press it again, or type quit, to leave the game)")
                continue
            except UnicodeDecodeError:
                console.print("that line is not text in the terminal's encoding; try again")
                continue
            interrupted = False
            if not line:
                console.print()
                console.print("end of input: leaving the game")
                return None
            text = line.strip()
            choice = self._read(text, decision, legal)
            if isinstance(choice, str):
                if choice == "quit":
                    return None
                console.print(choice)
                continue
            return choice

    def _read(self, text: str, decision: Decision, legal: Sequence[Action]) -> Action | str:
        """The action ``text`` names, ``"quit"``, or a message to show before asking again."""
        count = len(legal)
        word = text.lower()
        if not text:
            return f"type a number from 1 to {count}, an action, help or quit"
        if word in ("quit", "exit", "q"):
            return "quit"
        if word in ("help", "h", "?"):
            return HELP
        if word in ("view", "v", "look"):
            self.console.print(view_text(self.game.view(self.seat)))
            self._list(legal)
            return f"seat {self.seat}, {decision_text(decision)}:"
        if text.isdigit():
            if text.isascii() and len(text) < 10 and 1 <= int(text) <= count:
                return legal[int(text) - 1]
            return f"{text[:20]}: no such action; type a number from 1 to {count}"
        text = _CARD_ID.sub(lambda match: match.group(0).upper(), text)
        head, colon, rest = text.partition(":")
        if not colon:
            head, rest = str(self.seat), text
        try:
            action = parse_action(f"{head.strip()}: {' '.join(rest.split())}")
        except NotationError as exc:
            return f"not understood: {exc}; type help for help"
        if action in legal:
            return action
        if action.player != self.seat:
            return f"{text}: you play seat {self.seat}"
        try:
            self.game.copy().apply(action)
        except IllegalActionError as exc:
            return f"{text}: not legal now: {exc}"
        return f"{text}: not legal now"  # pragma: no cover (legal_actions is exact)


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the game; returns 0 when it ends or the person leaves it."""
    players: int = args.players
    seat: int = args.seat
    if not 0 <= seat < players:
        raise UsageError(f"--seat: expected a seat from 0 to {players - 1}, got {seat}")
    others = list(split_bots(args.bots, players - 1, what="other seat"))
    lineup: list[str | None] = [*others[:seat], None, *others[seat:]]
    seed: int = secrets.randbits(63) if args.seed is None else args.seed
    game = new_game(players=players, rules=rules_from(args), seed=seed)
    bots = bots_for(lineup, seed)
    table = _Table(game, seat, console)
    console.print(
        f"Gaïa, {players} players, {args.level} rules, {args.edition} edition; you are seat "
        f"{seat} ({COLOURS[seat]}); the others: "
        + ", ".join(f"seat {s} {name}" for s, name in enumerate(lineup) if name is not None)
    )
    console.print('type "help" at the prompt for help')
    while True:
        play_out(game, bots)
        table.show_news()
        if game.is_over:
            break
        action = table.ask()
        if action is None:
            console.print(f"you left the game (seed {seed})")
            _save(args, game)
            return 0
        game.apply(action)
    console.print()
    console.print(world_text(game.view(seat)))
    result = game.result
    assert result is not None
    verdict = "you win" if result.winner == seat else f"seat {result.winner} wins"
    console.print(
        f"game over: {verdict} ({REASONS[result.reason]}); pawns placed "
        f"{list(result.pawns_placed)}; seed {seed}"
    )
    _save(args, game)
    return 0


def _interactive(console: Console) -> bool:
    """Whether the person types at a terminal; if so, ``readline`` is loaded (where the
    platform has it) so that ``input()`` edits lines and keeps a history."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    if console.inp is not sys.stdin or console.out is not sys.stdout:
        return False
    with contextlib.suppress(ImportError):  # not on every platform: input() still works
        import readline  # noqa: F401, PLC0415 (loading it is what gives input() editing)
    return True


def _save(args: argparse.Namespace, game: Game) -> None:
    if args.record is None:
        return
    try:
        Path(args.record).write_text(game.record().to_json() + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--record: cannot write {args.record}: {exc.strerror or exc}") from None
