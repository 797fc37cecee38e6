"""Find, for each restriction of ``docs/play/restrictions.toml``, a position where the engine
refuses a move citing its clause, and write them to ``docs/play/restriction-trials.json``:
what the docs' "Try it" of a restriction opens (a record, as its JSON text) and tries (the
refused action). The site's build checks each again (the engine still refuses it, by the same
clause) and fails on one that went stale; run this again then.

The search is seeded and bounded: random games at each level (3 players, seeds 0 to
``--seeds``), and at every few states, moves made from the legal ones by changing a square, a
card or the player, each tried on a copy of the game. A restriction that random play does not
reach (a choice between two Objectives, a Tornado against an empty hand, the last desert
gone) is tried from a position set up for it (`built`): its record starts there. A clause
neither breaks is named at the end, unless the list says why it cannot be tried
(``untriable``).

A restriction no move can break is tried all the same (`kept`): a position set up where it is
at stake, and the legal move the engine applies keeping it (an Animal card's four tokens, all
on its one tile; the pawns a raise puts; a stolen city's one owner; a city at four needs that
nothing raises; a Protection no Protection answers).

    python scripts/restriction_trials.py [--seeds 4] [--built-only]
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
from gaia_rules.position import PositionBuilder
from gaia_rules.vocabulary import CardKind, Land, Pos

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


def _rules(level: str) -> gr.Rules:
    return gr.Rules.from_dict({"format": 1, "level": level})


def _objective_choice(fulfilled: dict[str, int]) -> gr.Game:
    """The basic game, seat 0 to choose: deserts 2, seas 2, plains 2 in front (a sea just
    played) meet O01 (deserts and seas) and O04 (plains and seas), which share the two seas,
    so he chooses which to fulfil (spec 8.4); ``fulfilled``: the Objectives others have."""
    game = (
        PositionBuilder(players=2, rules=_rules("basic"))
        .tile(0, 0, Land.MOUNTAIN)
        .tableau(0, "N01", "N02", "N20", "N07", "N08")
        .hand(0, "N21")
        .objectives("O01", "O02", "O04", "O07", fulfilled=fulfilled)
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlayNature(0, "N21", Pos(1, 0)))
    return game


def _tornado() -> gr.Game:
    """Powers, three players: seat 0's Tornado; seat 1 holds a Nature and a Life card, seat
    2 holds nothing (spec 13.8a, 13.8d)."""
    game = (
        PositionBuilder(players=3, rules=_rules("powers"))
        .tile(0, 0, Land.MOUNTAIN)
        .hand(0, "P16", "N07")
        .hand(1, "N08", "A01")
        .hand(2)
        .objectives("O01", "O02", "O03", "O04", "O05")
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlayTornado(0, "P16"))
    return game


def _no_desert_left() -> gr.Game:
    """Disasters: the ten deserts all in play, and a mountain beside a plain (spec 14.3d)."""
    builder = PositionBuilder(players=2, rules=_rules("disasters"))
    for x in range(10):
        builder.tile(x, 0, Land.DESERT)
    return (
        builder.objectives("O01", "O02", "O03", "O04")
        .tile(0, 1, Land.MOUNTAIN)
        .tile(0, 2, Land.PLAIN)
        .hand(0, "P29")
        .turn(0, 1)
        .to_game()
    )


def _scarce_pawns() -> gr.Game:
    """The basic game, three players: seat 0 has 4 pawns on Objectives and 1 in supply, and
    a sea played raises two empty cities: he chooses which takes his last pawn (spec 10.5)."""
    game = (
        PositionBuilder(players=3, rules=_rules("basic"))
        .tile(0, 0, Land.DESERT)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.FOREST)
        .tile(0, -1, Land.PLAIN)
        .tile(1, -1, Land.SEA)
        .city(1, 1, "C12")
        .city(1, -1, "C19")
        .hand(0, "N20")
        .objectives(
            "O01",
            "O02",
            "O03",
            "O04",
            "O05",
            fulfilled=dict.fromkeys(("O01", "O02", "O03", "O04"), 0),
        )
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlayNature(0, "N20", Pos(1, 0)))
    return game


def _won() -> gr.Game:
    """The same game after seat 0's last pawn: he has won (spec 15.1)."""
    game = _scarce_pawns()
    game.apply(gr.PlaceCityPawn(0, Pos(1, 1)))
    return game


def _animals() -> gr.Game:
    """The basic game: seat 0 holds an Animal card of the forest, two forests in play; its
    only targets are whole tiles (spec 9.1c)."""
    return (
        PositionBuilder(players=2, rules=_rules("basic"))
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.FOREST)
        .tile(0, 1, Land.PLAIN)
        .hand(0, "A01")
        .objectives("O01", "O02", "O03", "O04")
        .turn(0, 1)
        .to_game()
    )


def _raise() -> gr.Game:
    """The basic game: Carthage at 3 needs with seat 1's pawn; seat 0's Animals on the
    forest beside it meet its fourth (spec 10.4)."""
    return (
        PositionBuilder(players=2, rules=_rules("basic"))
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.DESERT)
        .tile(0, 1, Land.FOREST)
        .city(0, 0, "C04", pawns=[1])
        .hand(0, "A01")
        .objectives("O01", "O02", "O03", "O04")
        .turn(0, 1)
        .to_game()
    )


def _steal() -> gr.Game:
    """The advanced rules: Troy at 2 needs, seat 1's; seat 0's Animals on the desert beside
    it raise it to 3 and steal it (spec 12.1)."""
    return (
        PositionBuilder(players=2, rules=_rules("advanced"))
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .city(0, 0, "C12", pawns=[1])
        .hand(0, "A09")
        .objectives("O01", "O02", "O03", "O04")
        .turn(0, 1)
        .to_game()
    )


def _at_four() -> gr.Game:
    """The advanced rules: Troy at 4 needs, seat 1's two pawns on it; seat 0 holds a plain
    card to play beside it (spec 12.2)."""
    return (
        PositionBuilder(players=2, rules=_rules("advanced"))
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.SEA, animals=4)
        .city(0, 0, "C12", pawns=[1, 1])
        .hand(0, "N07")
        .objectives("O01", "O02", "O03", "O04")
        .turn(0, 1)
        .to_game()
    )


def _protected() -> gr.Game:
    """Powers: seat 0, holding a Protection, has played a Sun on the plain beside seat 1's
    Nineveh; seat 1, holding a Protection, is asked (spec 13.9d)."""
    game = (
        PositionBuilder(players=2, rules=_rules("powers"))
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.MOUNTAIN)
        .city(0, 0, "C17", pawns=[1])
        .hand(0, "P01", "P21")
        .hand(1, "P20")
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlaySun(0, "P01", Pos(1, 0)))
    return game


def kept() -> dict[str, tuple[gr.Game, gr.Action]]:
    """For each restriction no move can break: a game where it is at stake and the legal
    move after which the engine has kept it."""
    return {
        "9.1c": (_animals(), gr.PlayAnimals(0, "A01", Pos(1, 0))),
        "10.4": (_raise(), gr.PlayAnimals(0, "A01", Pos(0, 1))),
        "12.1": (_steal(), gr.PlayAnimals(0, "A09", Pos(1, 0))),
        "12.2": (_at_four(), gr.PlayNature(0, "N07", Pos(0, 1))),
        "13.9d": (_protected(), gr.Protect(1, "P20")),
    }


def built() -> dict[str, tuple[gr.Game, gr.Action]]:
    """For each restriction random play does not reach: a game where it bites and the move
    it refuses."""
    basic = gr.new_game(3, _rules("basic"), 0)
    held = {card for hand in basic.state.hands for card in hand}
    elsewhere = next(card for card, _ in basic.rules.cards.cards if card not in held)
    return {
        "5.2": (basic, gr.PlayNature(0, elsewhere, Pos(1, 0))),
        "5.4": (basic, gr.DrawDeck(1, CardKind.NATURE)),
        "10.5": (_scarce_pawns(), gr.PlaceCityPawn(0, Pos(0, 0))),
        "15.1": (_won(), gr.DrawDeck(1, CardKind.NATURE)),
        "8.1": (_objective_choice({"O02": 1}), gr.FulfillObjective(0, "O02")),
        "8.4": (_objective_choice({}), gr.DeclineObjectives(0)),
        "13.1": (basic, gr.PlaySun(0, "P01", Pos(0, 0))),
        "13.8a": (_tornado(), gr.NameBack(0, 1, CardKind.POWER)),
        "13.8d": (_tornado(), gr.NameBack(0, 2, CardKind.NATURE)),
        "14.3d": (_no_desert_left(), gr.PlayEruption(0, "P29", Pos(0, 1))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument(
        "--built-only",
        action="store_true",
        help="set up the built positions again and keep the found ones of the file",
    )
    options = parser.parse_args()
    listed = tomllib.loads(LIST.read_text())["restriction"]
    clauses = [entry["clause"] for entry in listed]
    untriable = {entry["clause"] for entry in listed if "untriable" in entry}
    if options.built_only:
        found = json.loads(OUT.read_text(encoding="utf-8"))
    else:
        found = search(clauses, options.seeds)
    for clause, (game, action) in {**built(), **kept()}.items():
        found[clause] = {"record": game.record().to_json(), "action": action.to_json()}
    ordered = {clause: found[clause] for clause in clauses if clause in found}
    OUT.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
    missing = [clause for clause in clauses if clause not in found]
    print(
        f"{len(ordered)} of {len(clauses)} restrictions tried, {len(untriable)} kept by the engine"
    )
    if missing:
        print(f"none for {', '.join(missing)}")


if __name__ == "__main__":
    main()
