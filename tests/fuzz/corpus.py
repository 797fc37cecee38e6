"""The real documents and objects the fuzz suite starts from: games stopped at every kind of
decision at every level, and everything they write.

Seeded games (every player count, level and switch, plays preferred in half of them so that
worlds grow and pawns run short) are stopped at the first time each kind of decision is
asked at each level, and now and then elsewhere; finished games are kept too. From them come
the payloads of every reader (records, records that start from a position, positions, every
seat's view, states, actions, events, decisions and steps, notations) and the objects the
object entry points are handed (actions, positions, views, records, games).
"""

from __future__ import annotations

import functools
import gc
import random
from dataclasses import dataclass
from typing import Any

import gaia_rules as gr
from gaia_rules.notation import format_action
from tests.strategies import random_playout, spread

__all__ = ["Corpus", "corpus"]

GAMES = 48
"""Seeded games played to collect the corpus."""


@dataclass(frozen=True)
class Corpus:
    """What the fuzz suite mutates (see the module docstring)."""

    games: tuple[gr.Game, ...]
    """Games at a decision, to hand actions to (copy one before changing it)."""
    finished: tuple[gr.Game, ...]
    """Games that are over."""
    payloads: dict[str, tuple[Any, ...]]
    """JSON-ready data by the reader it belongs to."""
    notations: tuple[str, ...]
    actions: tuple[gr.Action, ...]
    positions: tuple[gr.Position, ...]
    views: tuple[gr.View, ...]
    records: tuple[gr.GameRecord, ...]

    @property
    def kinds(self) -> set[str]:
        """The kinds of decision the corpus's games and positions stand at."""
        return {type(game.decision).__name__ for game in self.games}


def _snapshots() -> tuple[list[gr.Game], list[gr.Game]]:
    """Games stopped at every kind of decision at every level, and finished games."""
    kept: list[gr.Game] = []
    finished: list[gr.Game] = []
    seen: set[tuple[str, gr.Level]] = set()
    for index in range(GAMES):
        players, rules = spread(index)
        game = gr.new_game(players, rules, seed=20_000 + index, first_player=index % players)
        rng = random.Random(index)
        prefer = 0.9 if index % 2 else 0.0
        while not game.is_over:
            key = (type(game.decision).__name__, rules.level)
            if key not in seen or rng.random() < 0.01:
                seen.add(key)
                kept.append(game.copy())
            random_playout(game, rng, 1, prefer_plays=prefer)
        if index % 6 == 0:
            finished.append(game)
    return kept, finished


@functools.cache
def corpus() -> Corpus:
    """The corpus, built once per process (a few seconds)."""
    games, finished = _snapshots()
    positions = [gr.Position.from_game(game) for game in games]
    views = [game.view(seat) for game in (*games, *finished) for seat in range(game.players)]
    records = [game.record() for game in (*games[::2], *finished)]
    for position in positions[::5]:  # records that start from a position (16.8)
        restarted = position.to_game()
        random_playout(restarted, random.Random(len(records)), 8)
        records.append(restarted.record())
    actions: list[gr.Action] = []
    events: dict[str, Any] = {}
    steps: dict[str, Any] = {}
    for game in (*games, *finished):
        actions += list(game.legal_actions())[:12]
        actions += game.actions[-6:]
        for event in game.events[-60:]:
            events.setdefault(f"{type(event).__name__}/{len(events) % 3}", event)
        for step in game.state.steps:
            steps.setdefault(f"{type(step).__name__}/{len(steps) % 2}", step)
    rules = (
        gr.Rules.basic(),
        gr.Rules.advanced(four_need_drop=gr.FourNeedDrop.EMPTY_AT_TWO),
        gr.Rules.powers(objectives=gr.Objectives.OPTIONAL),
        gr.Rules.disasters(lightnings=2, eruption_on_city=False),
        gr.Rules.basic(edition=gr.Edition.FIRST, feeding=gr.Feeding.EVERY_CITY),
    )
    payloads: dict[str, tuple[Any, ...]] = {
        "record": tuple(record.to_data() for record in records),
        "position": tuple(position.to_data() for position in positions),
        "view": tuple(view.to_data() for view in views),
        "state": tuple(game.state.to_data() for game in (*games, *finished)),
        "action": tuple(gr.to_data(action) for action in actions),
        "event": tuple(gr.to_data(event) for event in events.values()),
        "step": tuple(gr.to_data(step) for step in steps.values()),
        "rules": tuple(r.to_dict() for r in rules),
        "manifest": tuple(gr.Manifest.builtin(edition).to_dict() for edition in gr.Edition),
    }
    found = Corpus(
        games=tuple(games),
        finished=tuple(finished),
        payloads=payloads,
        notations=tuple(sorted({format_action(action) for action in actions})),
        actions=tuple(actions),
        positions=tuple(positions),
        views=tuple(views),
        records=tuple(records),
    )
    # the corpus lives as long as the process: kept out of the collector's full passes, so
    # that the time an input takes is the time the library takes on it
    gc.collect()
    gc.freeze()
    return found
