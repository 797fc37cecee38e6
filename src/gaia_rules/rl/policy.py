"""A trained policy, saved to a file and played as a bot: ``gaia-rules simulate --bots
policy:agent.npz,random``.

A [`Policy`][gaia_rules.rl.policy.Policy] scores each legal action of a decision from the
compact observation ([`planes_observation`][gaia_rules.rl.planes.planes_observation]) and the
action's parts ([`decode`][gaia_rules.rl.codec.decode]), so it needs no game and no view
beyond the seat's:

* **state features** ([`state_features`][gaia_rules.rl.policy.state_features], 698): the
  observation's features (hand, backs, decks, displays, ...) as ``log(1 + count)``;
* **action features** ([`action_features`][gaia_rules.rl.policy.action_features], 193): the
  action's kind, face, seat and detail one-hot; the expanded planes
  ([`expand`][gaia_rules.rl.planes.expand]) at the square it names and its four neighbours;
  and, for each of those five squares, whether the city there needs what the card played
  brings (its land, or animals), with how many of a played city's needs its neighbours meet.

The score of an action is ``v . tanh(Wg s + Wa a + b) + u . a``, and the policy is the
softmax of the scores over the legal actions; a value head ``V(s)`` rides along for
training. The file is numpy's ``.npz``: the weights and a JSON header naming the format, its
version and the versions of the layouts it reads (``examples/train_agent.py`` writes one).
Needs numpy only; no deep-learning framework is needed to play a saved policy.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gaia_rules.actions import Action
from gaia_rules.decisions import ChooseKeptCard
from gaia_rules.rl.codec import FACE_CITY, KINDS, decode
from gaia_rules.rl.encoding import (
    ACTION_SPACE_VERSION,
    CARD_CLASSES,
    MAX_SEATS,
    action_space,
)
from gaia_rules.rl.planes import (
    EXPANDED_CHANNELS,
    HEADER,
    PLANES_CELLS,
    PLANES_SIZE,
    PLANES_VERSION,
    cells,
    city_needs,
    planes_observation,
    split,
)
from gaia_rules.rules import Rules
from gaia_rules.views import View
from gaia_rules.vocabulary import LANDS

__all__ = [
    "ACTION_FEATURES",
    "FEATURES_VERSION",
    "FORMAT",
    "STATE_FEATURES",
    "Policy",
    "PolicyBot",
    "action_features",
    "state_features",
]

FORMAT = "gaia-rules policy"
FEATURES_VERSION = 1
"""Bumped whenever a feature changes meaning."""

_DETAILS = 9
"""The most values a ``detail`` takes (an Objective's rank)."""
_NEIGHBOURHOOD = ((0, 0), (-1, 0), (0, 1), (1, 0), (0, -1))
"""The square an action names and its four neighbours, as (row, column) steps."""
_E = len(EXPANDED_CHANNELS)
_ANIMALS_FACE = FACE_CITY + 19
_CITY_FACES = 19

ACTION_FEATURES = (
    len(KINDS) + CARD_CLASSES + (MAX_SEATS - 1) + _DETAILS + len(_NEIGHBOURHOOD) * (_E + 1) + 1
)
"""How many features describe one action."""
STATE_FEATURES = PLANES_SIZE - PLANES_CELLS - len(HEADER)
"""How many features describe the seat's state: the observation's features (698)."""

FloatArray = npt.NDArray[np.float32]


def state_features(obs: npt.NDArray[np.int8]) -> FloatArray:
    """The state features of compact observations (``N x PLANES_SIZE`` gives ``N x 698``)."""
    return np.log1p(split(obs).features.astype(np.float32))


def action_features(
    obs: npt.NDArray[np.int8], legal: npt.NDArray[np.int64], rules: Rules
) -> FloatArray:
    """The features of each legal action: ``obs`` is ``N x PLANES_SIZE``, ``legal`` the
    ``N x L`` legal indices padded with ``-1``; gives ``N x L x ACTION_FEATURES`` (zeros
    where ``legal`` is ``-1``)."""
    count, width = legal.shape
    padding = legal < 0
    parts = decode(np.where(padding, 0, legal))
    columns: list[FloatArray] = [
        _one_hot(parts.kind, len(KINDS)),
        _one_hot(parts.face, CARD_CLASSES),
        _one_hot(parts.seat - 1, MAX_SEATS - 1),
        _one_hot(parts.detail, _DETAILS),
    ]
    planes, header, _ = split(obs)
    # the raw planes at the square named and its neighbours (N x L x 5 x 12), expanded there
    # only: expanding the whole canvas first would cost a hundred times more
    framed = np.pad(planes, ((0, 0), (0, 0), (1, 1), (1, 1)))
    rows, cols = cells(header, parts.square)
    off = rows < 0
    batch = np.arange(count)[:, None, None]
    steps = np.array(_NEIGHBOURHOOD)
    r = np.where(off, 0, rows + 1)[..., None] + steps[:, 0]
    c = np.where(off, 0, cols + 1)[..., None] + steps[:, 1]
    raw = framed[batch, :, r, c].astype(np.int64)  # N x L x 5 x 12
    raw[off] = 0
    lands = raw[..., 0:1] == np.arange(1, len(LANDS) + 1)
    needs = city_needs(rules)[raw[..., 2]].astype(bool)  # N x L x 5 x 7
    here = np.concatenate([lands, raw[..., 1:2], needs, raw[..., 3:]], axis=-1, dtype=np.float32)
    wanted = _wanted_need(parts.face)  # which need the card brings, -1 none
    brings = np.take_along_axis(needs, np.clip(wanted, 0, None)[..., None, None], axis=-1)
    brings = (brings[..., 0] & (wanted >= 0)[..., None]).astype(np.float32)  # N x L x 5
    columns.append(
        np.log1p(np.concatenate([here, brings[..., None]], axis=-1)).reshape(count, width, -1)
    )
    met = np.concatenate([lands, raw[..., 1:2] > 0], axis=-1)[..., 1:, :].any(axis=-2)
    is_city = (parts.face >= FACE_CITY) & (parts.face < FACE_CITY + _CITY_FACES) & ~off
    own = city_needs(rules)[np.where(is_city, parts.face - FACE_CITY + 1, 0)].astype(bool)
    columns.append((own & met).sum(axis=-1, dtype=np.float32)[..., None])
    found = np.concatenate(columns, axis=-1).astype(np.float32)
    found[padding] = 0.0
    assert found.shape == (count, width, ACTION_FEATURES)
    return found


def _one_hot(values: npt.NDArray[np.int64], size: int) -> FloatArray:
    inside = (values >= 0) & (values < size)
    found = np.zeros((*values.shape, size), dtype=np.float32)
    index = np.nonzero(inside)
    found[(*index, values[inside])] = 1.0
    return found


def _wanted_need(face: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The need a played card brings to the cities around it: a Nature card its land (0-5),
    an Animal card animals (6); -1 for any other card."""
    animals = (face >= _ANIMALS_FACE) & (face < _ANIMALS_FACE + len(LANDS) + 1)
    return np.where(face < len(LANDS), face, np.where(animals, len(LANDS), -1))


class Policy:
    """Weights that score legal actions (see the module docstring), and their file."""

    PARAMETERS = ("Wg", "Wa", "b", "v", "u", "Vg", "vb", "vv", "vc")

    def __init__(self, weights: dict[str, FloatArray], meta: dict[str, Any]) -> None:
        missing = [name for name in self.PARAMETERS if name not in weights]
        if missing:
            raise ValueError(f"a policy needs the weights {', '.join(missing)}")
        self.weights = {
            name: np.asarray(weights[name], dtype=np.float32) for name in self.PARAMETERS
        }
        self.meta = dict(meta)
        hidden = self.weights["b"].shape[0]
        shapes = {"Wg": (STATE_FEATURES, hidden), "Wa": (ACTION_FEATURES, hidden)}
        for name, shape in shapes.items():
            if self.weights[name].shape != shape:
                raise ValueError(
                    f"weights {name} are {self.weights[name].shape}, expected {shape}: "
                    f"a policy of another feature layout"
                )

    @staticmethod
    def initial(hidden: int = 64, value_hidden: int = 32, seed: int = 0) -> Policy:
        """A policy of small random weights (the start of training), from ``seed``."""
        rng = np.random.default_rng(seed)

        def normal(*shape: int) -> FloatArray:
            drawn: FloatArray = (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)
            return drawn

        weights = {
            "Wg": normal(STATE_FEATURES, hidden),
            "Wa": normal(ACTION_FEATURES, hidden),
            "b": np.zeros(hidden, dtype=np.float32),
            "v": (normal(hidden) * 0.1).astype(np.float32),
            "u": np.zeros(ACTION_FEATURES, dtype=np.float32),
            "Vg": normal(STATE_FEATURES, value_hidden),
            "vb": np.zeros(value_hidden, dtype=np.float32),
            "vv": (normal(value_hidden) * 0.1).astype(np.float32),
            "vc": np.zeros((), dtype=np.float32),
        }
        return Policy(weights, {})

    def scores(
        self, state: FloatArray, actions: FloatArray, legal: npt.NDArray[np.int64]
    ) -> FloatArray:
        """The score of each action (``N x L``), ``-inf`` where ``legal`` is ``-1``."""
        w = self.weights
        hidden = np.tanh((state @ w["Wg"])[:, None, :] + actions @ w["Wa"] + w["b"])
        found = hidden @ w["v"] + actions @ w["u"]
        return np.where(legal >= 0, found, -np.inf).astype(np.float32)

    def value(self, state: FloatArray) -> FloatArray:
        """The value head's estimate of each state's return (``N``)."""
        w = self.weights
        found: FloatArray = np.tanh(state @ w["Vg"] + w["vb"]) @ w["vv"] + w["vc"]
        return found

    def save(self, path: str | Path, **meta: Any) -> None:
        """Write the policy to ``path`` (``.npz``) with its header and ``meta``."""
        header = {
            "format": FORMAT,
            "features": FEATURES_VERSION,
            "planes": PLANES_VERSION,
            "action_space": ACTION_SPACE_VERSION,
            **self.meta,
            **meta,
        }
        with Path(path).open("wb") as stream:
            arrays: dict[str, Any] = {
                "header": np.array(json.dumps(header, sort_keys=True)),
                **self.weights,
            }
            np.savez(stream, **arrays)

    @staticmethod
    def load(path: str | Path) -> Policy:
        """The policy saved at ``path``.

        Raises:
            ValueError: the file is not a policy, or one of another version.
            OSError: the file cannot be read.
        """
        return _load(str(Path(path).resolve()), Path(path).stat().st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _load(path: str, modified: int) -> Policy:
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            weights = {name: data[name] for name in Policy.PARAMETERS if name in data}
    except (KeyError, ValueError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not a saved policy ({exc})") from None
    expected = {
        "format": FORMAT,
        "features": FEATURES_VERSION,
        "planes": PLANES_VERSION,
        "action_space": ACTION_SPACE_VERSION,
    }
    for key, value in expected.items():
        if header.get(key) != value:
            raise ValueError(
                f"{path}: {key} {header.get(key)!r}, expected {value!r} (saved by another version)"
            )
    return Policy(weights, header)


class PolicyBot:
    """A saved policy as a bot: it draws its action by the policy's probabilities, from its
    own seeded generator, as the policy was trained to play (or, with ``sample=False``, plays
    the action of the highest score, which can play much worse: a policy trained with an
    entropy bonus spreads its choices on purpose)."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int = 0, *, sample: bool = True) -> None:
        self.policy = policy
        self.sample = sample
        self._rng = random.Random(seed)

    @staticmethod
    def load(path: str | Path, seed: int = 0) -> PolicyBot:
        """The bot of the policy saved at ``path``."""
        return PolicyBot(Policy.load(path), seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The policy's choice among ``legal``, from ``view`` alone."""
        if len(legal) == 1:
            return legal[0]
        space = action_space(view.rules)
        stolen = view.stolen if isinstance(view.decision, ChooseKeptCard) else ()
        by_index = space.legal(legal, view.players, stolen)
        indices = np.fromiter(sorted(by_index), dtype=np.int64)[None, :]
        obs = planes_observation(view)[None, :]
        scores = self.policy.scores(
            state_features(obs), action_features(obs, indices, view.rules), indices
        )[0]
        if self.sample:
            weights = np.exp(scores - scores.max())
            pick = self._rng.choices(range(len(weights)), weights=weights.tolist())[0]
        else:
            best = np.flatnonzero(scores == scores.max())
            pick = int(best[self._rng.randrange(len(best))])
        return by_index[int(indices[0, pick])]
