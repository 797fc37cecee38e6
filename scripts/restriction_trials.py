"""Find, for each restriction of ``docs/play/restrictions.toml``, a position where the engine
refuses a move citing its clause, and write them to ``docs/play/restriction-trials.json``:
what the docs' "Try it" of a restriction opens (a record, as its JSON text) and tries (the
refused action). The site's build checks each again (the engine still refuses it, by the same
clause) and fails on one that went stale; run this again then.

The search is seeded and bounded: random games at each level (3 players, seeds 0 to
``--seeds``), and at every few states, moves made from the legal ones by changing a square, a
card or the player, each tried on a copy of the game. A clause none of them breaks is left
out, and named at the end.

    python scripts/restriction_trials.py [--seeds 4]
"""

from __future__ import annotations

import argparse
import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

import gaia_rules as gr
from gaia_rules.bots import RandomBot
from gaia_rules.cards import Objective
from gaia_rules.vocabulary import Pos

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "docs" / "play" / "restrictions.toml"
OUT = ROOT / "docs" / "play" / "restriction-trials.json"
SQUARE_FIELDS = ("pos", "city", "source", "first", "second")
CARD_FIELDS = ("card", "objective")


def candidates(game: gr.Game, recent: list[gr.Action]) -> Iterator[gr.Action]:
    """Moves near the legal ones (and the last few taken), for the seat to move."""
    seat = game.to_move
    assert seat is not None
    hand = list(game.view(seat).hand)
    ids = [card for card, _ in game.rules.cards.cards]
    objectives = [card for card, face in game.rules.cards.cards if isinstance(face, Objective)]
    tiles = set(game.state.tiles) | {Pos(0, 0)}
    around = {Pos(p.x + dx, p.y + dy) for p in tiles for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    for action in [*game.legal_actions(), *recent]:
        names = [field.name for field in attrs.fields(type(action))]
        base: Any = attrs.evolve(action, player=seat) if "player" in names else action
        yield base
        for name in names:
            if name in SQUARE_FIELDS:
                for square in sorted(around, key=lambda p: (p.y, p.x)):
                    yield attrs.evolve(base, **{name: square})
            elif name in CARD_FIELDS:
                for card in dict.fromkeys(hand + objectives + ids[::5]):
                    yield attrs.evolve(base, **{name: card})


def search(clauses: list[str], seeds: int) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for level in ("basic", "advanced", "powers", "disasters"):
        rules = gr.Rules.from_dict({"format": 1, "level": level})
        for seed in range(seeds):
            game = gr.new_game(3, rules, seed)
            recent: list[gr.Action] = []
            step = 0
            while not game.is_over and step < 400:
                if step % 3 == 0:
                    for move in candidates(game, recent):
                        try:
                            game.copy().apply(move)
                        except gr.IllegalActionError as error:
                            if error.clause in clauses and error.clause not in found:
                                record = game.record().to_json()
                                found[error.clause] = {"record": record, "action": move.to_json()}
                        except gr.GaiaRulesError:
                            pass
                seat = game.to_move
                assert seat is not None
                action = RandomBot(seed * 1000 + step).choose(game.view(seat), game.legal_actions())
                recent = [*recent, action][-6:]
                game.apply(action)
                step += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    options = parser.parse_args()
    clauses = [entry["clause"] for entry in tomllib.loads(LIST.read_text())["restriction"]]
    found = search(clauses, options.seeds)
    ordered = {clause: found[clause] for clause in clauses if clause in found}
    OUT.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
    missing = [clause for clause in clauses if clause not in found]
    print(f"{len(ordered)} of {len(clauses)} restrictions found; none for {', '.join(missing)}")


if __name__ == "__main__":
    main()
