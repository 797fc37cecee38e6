"""Where the time of ``game.view(seat)`` goes in play: each part of a view timed apart.

    python benchmarks/view_parts.py               # 150 games at the basic and disasters levels
    python benchmarks/view_parts.py --games 40    # fewer

`bench.py` times whole views of the seat to move after each decision of random 4-player
games. This script plays the same kind of games and builds each of those views in the steps
`gaia_rules.viewfields.new_view` takes, with a clock between the steps, and checks that the value
it builds equals `game.view(seat)` (so the steps stay those of the library: a change there
that this script does not follow fails the check). It prints the mean cost of each step per
view and how often the world's kept values had to be built again because the decision
before changed them. A measurement, never a test; the clocks themselves add a little.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

import gaia_rules as gr
from gaia_rules.cards import kind_of
from gaia_rules.state import CityState
from gaia_rules.table import Table
from gaia_rules.viewfields import (
    _BACKS_GET,
    _NAMING,
    _NAMING_TYPES,
    _faced_step,
    _known_backs,
    _sees_stolen,
    city_states,
)
from gaia_rules.views import View

PARTS = (
    "the decision and the world's memo",
    "the tiles and animals in square order (built again when the world changed)",
    "the cities (built again when a city's card, pawns or satisfaction changed)",
    "the backs of every hand",
    "copies of the decks' sizes, displays and discards (by face id), world and tile supply",
    "the rest (tableaux by face id, supplies, steps renamed, stolen cards, marks)",
    "the View itself (its 26 fields written into its __dict__)",
)


class Parts:
    """The nanoseconds of each part, summed over the views, and the rebuilds counted."""

    def __init__(self) -> None:
        self.ns = [0] * len(PARTS)
        self.views = 0
        self.tiles_built = 0
        self.animals_built = 0
        self.cities_built = 0


def timed_view(table: Table, seat: int, parts: Parts) -> View:
    """``view_of(table, seat)``, step by step, each step's time added to ``parts``."""
    clock = time.perf_counter_ns
    t0 = clock()
    decision = table.decision
    memo = table.world_memo()
    t1 = clock()
    tiles = memo.view_tiles
    if tiles is None:
        parts.tiles_built += 1
        tiles = memo.view_tiles = dict(sorted(table.tiles.items()))
    animals = memo.view_animals
    if animals is None:
        parts.animals_built += 1
        animals = memo.view_animals = dict(sorted(table.tokens.items()))
    t2 = clock()
    token = table.city_token
    kept = memo.view_cities
    if kept is None or kept[0] is not token:
        parts.cities_built += 1
        kept = memo.view_cities = (token, city_states(table, CityState))
    t3 = clock()
    backs = tuple([_BACKS_GET(hand) or _known_backs(hand) for hand in table.hands])
    t4 = clock()
    deck_sizes = {kind: len(deck) for kind, deck in table.decks.items()}
    displays, discards = table.faced_displays.copy(), table.faced_discards.copy()
    tiles, animals, cities = tiles.copy(), animals.copy(), kept[1].copy()
    tile_supply = table.tile_supply.copy()
    t5 = clock()
    stolen = (
        tuple(
            (kind_of(card), source, card if _sees_stolen(table, seat, source) else None)
            for card, source in table.stolen
        )
        if table.stolen
        else ()
    )
    tableaux, objective_pawns = tuple(table.faced_tableaux), table.objective_pawns.copy()
    face_ids = table.cards.face_ids
    supply = tuple(table.supply)
    steps = (
        tuple(table.steps)
        if _NAMING_TYPES.isdisjoint(map(type, table.steps))
        else tuple([_faced_step(s, face_ids) if isinstance(s, _NAMING) else s for s in table.steps])
    )
    shown = _faced_step(decision, face_ids) if isinstance(decision, _NAMING) else decision
    reached_four = tuple(sorted(table.reached_four)) if table.reached_four else ()
    t6 = clock()
    view = object.__new__(View)
    object.__setattr__(
        view,
        "__dict__",
        {
            "seat": seat,
            "rules": table.rules,
            "players": table.players,
            "first_player": table.first_player,
            "active": table.active,
            "to_move": None if decision is None else decision.player,
            "decision": shown,
            "hand": table.hands[seat],
            "hand_backs": backs,
            "deck_sizes": deck_sizes,
            "displays": displays,
            "discards": discards,
            "tiles": tiles,
            "animals": animals,
            "cities": cities,
            "tile_supply": tile_supply,
            "bank": table.bank,
            "tableaux": tableaux,
            "objectives": table.objectives,
            "objective_pawns": objective_pawns,
            "stolen": stolen,
            "supply": supply,
            "total_pawns": table.total_pawns,
            "result": table.result,
            "steps": steps,
            "reached_four": reached_four,
        },
    )
    t7 = clock()
    for index, (start, end) in enumerate(
        [(t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6), (t6, t7)]
    ):
        parts.ns[index] += end - start
    parts.views += 1
    return view


def run(games: int) -> Parts:
    """Play ``games`` random 4-player games at the basic and at the disasters level, timing
    the view of the seat to move after each decision."""
    parts = Parts()
    for seed in range(games):
        for rules in (gr.Rules.basic(), gr.Rules.disasters()):
            rng = random.Random(seed)
            game = gr.new_game(4, rules, seed=seed)
            while not game.is_over:
                actions = game.legal_actions()
                game.apply(actions[rng.randrange(len(actions))])
                seat = game.to_move
                if seat is None:
                    break
                view = timed_view(game._table, seat, parts)
                if view != game.view(seat):
                    raise RuntimeError("the steps timed here are no longer those of view_of")
    return parts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games per level (150)")
    options = parser.parse_args(argv)
    parts = run(options.games)
    views = parts.views or 1
    for name, ns in zip(PARTS, parts.ns, strict=True):
        print(f"{ns / views / 1000:6.2f} µs  {name}")
    print(f"{sum(parts.ns) / views / 1000:6.2f} µs  in all, over {parts.views:,} views")
    print(
        f"built again: the tiles at {parts.tiles_built / views:.0%} of the views, the animals "
        f"at {parts.animals_built / views:.0%}, the cities at {parts.cities_built / views:.0%}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
