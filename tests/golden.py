"""Golden files: seeded games whose records and playthroughs are committed under
``tests/golden/`` and compared in CI, so that any change of behaviour shows as a diff.

    python -m tests.golden          # rewrite every golden file (after a deliberate change)

A playthrough prints, for every step of a seeded game, the pending decision, every seat's
view, the legal actions in the notation and the action taken (OpenSpiel's playthroughs).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import gaia_rules as gr
from gaia_rules.notation import format_action

GOLDEN = Path(__file__).resolve().parent / "golden"
FORMAT_1 = GOLDEN / "records-1"
"""Records of format 1, written before copies of one face became one choice (spec 1.12), each
with its final state: kept as they were written, and replayed as they were played."""

RECORDS: dict[str, tuple[int, gr.Rules, int]] = {
    "basic-2p": (2, gr.Rules.basic(), 101),
    "basic-5p-first-edition": (5, gr.Rules.basic(edition=gr.Edition.FIRST), 102),
    "basic-3p-every-city-optional": (
        3,
        gr.Rules.basic(feeding=gr.Feeding.EVERY_CITY, objectives=gr.Objectives.OPTIONAL),
        103,
    ),
    "advanced-4p": (4, gr.Rules.advanced(), 104),
    "advanced-3p-empty-at-two": (3, gr.Rules.advanced(four_need_drop="empty_at_two"), 105),
    "powers-3p": (3, gr.Rules.powers(), 106),
    "powers-5p": (5, gr.Rules.powers(), 107),
    "disasters-4p": (4, gr.Rules.disasters(), 108),
    "disasters-2p-no-eruption-on-city": (
        2,
        gr.Rules.disasters(lightnings=2, eruption_on_city=False),
        109,
    ),
}
"""Seeded games at every level, replayed from their committed records."""

STARTED_RECORDS: dict[str, tuple[int, gr.Rules, int, type]] = {
    "powers-4p-from-a-protection-window": (4, gr.Rules.powers(), 110, gr.ChooseProtection),
    "disasters-3p-from-a-tornado": (3, gr.Rules.disasters(), 111, gr.ChooseBack),
}
"""Seeded games played to their first decision of a kind, then started again from their
position there: their records carry that position as their start (spec 16.8)."""

PLAYTHROUGHS: dict[str, tuple[int, gr.Rules, int]] = {
    "basic-2p": (2, gr.Rules.basic(), 201),
    "advanced-2p": (2, gr.Rules.advanced(), 202),
    "powers-3p": (3, gr.Rules.powers(), 203),
    "disasters-3p": (3, gr.Rules.disasters(), 204),
}
"""Seeded games printed step by step, every seat's view at every step."""


def play(players: int, rules: gr.Rules, seed: int, on_step: object = None) -> gr.Game:
    """A seeded game between random players (the choices drawn from ``seed`` too)."""
    game = gr.new_game(players=players, rules=rules, seed=seed)
    chooser = random.Random(seed)
    while not game.is_over:
        actions = game.legal_actions()
        action = chooser.choice(actions)
        if callable(on_step):
            on_step(game, actions, action)
        game.apply(action)
    return game


def public_text(view: gr.View) -> list[str]:
    """The part of a view every seat shares, as a few lines of text."""
    backs = " ".join(
        "".join(kind.value[0].upper() for kind in hand) or "-" for hand in view.hand_backs
    )
    displays = "; ".join(
        f"{k.value} {' '.join(cards) or '-'}" for k, cards in view.displays.items()
    )
    decks = " ".join(f"{k.value}:{n}" for k, n in view.deck_sizes.items())
    tableaux = " | ".join(" ".join(t) or "-" for t in view.tableaux)
    objectives = " ".join(
        o + (f"(seat {view.objective_pawns[o]})" if o in view.objective_pawns else "")
        for o in view.objectives
    )
    world = "; ".join(
        f"{pos} {land.value}"
        + (f" x{view.animals[pos]}" if pos in view.animals else "")
        + (
            f" city {view.cities[pos].card} {view.cities[pos].satisfaction}/4 "
            f"pawns {list(view.cities[pos].pawns)}"
            if pos in view.cities
            else ""
        )
        for pos, land in view.tiles.items()
    )
    discards = "; ".join(
        f"{k.value} {' '.join(cards)}" for k, cards in view.discards.items() if cards
    )
    return [
        f"  backs {backs}; supply {list(view.supply)}; bank {view.bank}; decks {decks}",
        f"  display {displays}; discards {discards or '-'}",
        f"  in front: {tableaux}; objectives {objectives}",
        f"  world: {world or '-'}",
    ]


def private_text(view: gr.View) -> str:
    """The part of a view only its seat has: its hand, and what it sees of a Tornado."""
    stolen = " ".join(f"{kind.value}<-{src}:{card or '?'}" for kind, src, card in view.stolen)
    return f"  seat {view.seat} sees: hand {' '.join(view.hand) or '-'}" + (
        f"; stolen {stolen}" if stolen else ""
    )


def playthrough(players: int, rules: gr.Rules, seed: int) -> str:
    """The text of a seeded game, step by step."""
    lines = [f"# {players} players, {rules.level.name.lower()}, seed {seed}", ""]
    step = 0

    def on_step(game: gr.Game, actions: list[gr.Action], action: gr.Action) -> None:
        nonlocal step
        step += 1
        lines.append(f"## step {step}: seat {game.to_move} decides {game.decision}")
        views = [game.view(seat) for seat in range(game.players)]
        public = public_text(views[0])
        for view in views[1:]:  # what differs between seats' views is only their own
            assert public_text(view) == public, f"seat {view.seat} sees another world"
        lines.extend(public)
        lines.extend(private_text(view) for view in views)
        lines.append(f"  legal: {', '.join(format_action(a)[3:] for a in actions)}")
        lines.append(f"  taken: {format_action(action)}")

    game = play(players, rules, seed, on_step)
    lines.append("")
    lines.append(f"result: {game.result}")
    return "\n".join(lines) + "\n"


def record_json(players: int, rules: gr.Rules, seed: int) -> tuple[str, str]:
    """The record of a seeded game, and its final state, as JSON texts."""
    game = play(players, rules, seed)
    return game.record().to_json() + "\n", game.state.to_json() + "\n"


def started_record_json(players: int, rules: gr.Rules, seed: int, wanted: type) -> tuple[str, str]:
    """The record of a game started from the position of a seeded game at its first
    ``wanted`` decision and played on at random, and its final state, as JSON texts."""
    for attempt in range(seed, seed + 1000):
        game = gr.new_game(players=players, rules=rules, seed=attempt)
        chooser = random.Random(attempt)
        while not game.is_over and not isinstance(game.decision, wanted):
            game.apply(chooser.choice(game.legal_actions()))
        if game.is_over:
            continue
        game = gr.Position.from_game(game).to_game()
        while not game.is_over:
            game.apply(chooser.choice(game.legal_actions()))
        return game.record().to_json() + "\n", game.state.to_json() + "\n"
    raise AssertionError(f"no {wanted.__name__} in 1,000 games")


def write_all() -> None:
    """Rewrite every golden file."""
    for name, (players, rules, seed) in RECORDS.items():
        record, state = record_json(players, rules, seed)
        (GOLDEN / "records" / f"{name}.json").write_text(record, encoding="utf-8")
        (GOLDEN / "records" / f"{name}.state.json").write_text(state, encoding="utf-8")
    for name, (players, rules, seed, wanted) in STARTED_RECORDS.items():
        record, state = started_record_json(players, rules, seed, wanted)
        (GOLDEN / "records" / f"{name}.json").write_text(record, encoding="utf-8")
        (GOLDEN / "records" / f"{name}.state.json").write_text(state, encoding="utf-8")
    for name, (players, rules, seed) in PLAYTHROUGHS.items():
        text = playthrough(players, rules, seed)
        (GOLDEN / "playthroughs" / f"{name}.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
    sys.exit(0)
