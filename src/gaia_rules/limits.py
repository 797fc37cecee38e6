"""The sizes of the box, and the limits they set on every document a reader accepts (1.10).

A reader of untrusted input refuses a document larger than any game could write before it
parses it, so that a hostile document costs no more than a real one. Each limit is drawn
from the box: its 48 tiles, its 110 cards, and the longest game they allow (15.5).
"""

from __future__ import annotations

from gaia_rules.manifest import (
    BOX_CARDS,
    MAX_MANIFEST_CHARS,
    NATURE_OBJECTIVES,
    POWER_OBJECTIVES,
    TILE_COUNTS,
)

__all__ = [
    "BOX_CARDS",
    "BOX_TILES",
    "EVENTS_PER_ACTION",
    "LONGEST_GAME_TURN_ACTIONS",
    "MAX_DOCUMENT_CHARS",
    "MAX_MANIFEST_CHARS",
    "MAX_RECORD_ACTIONS",
    "MAX_RECORD_CHARS",
    "WHOLE_NUMBERS",
]

BOX_TILES = sum(TILE_COUNTS.values())
"""The 48 land tiles (2.1): no world holds more, so no document lists more squares."""

_HELD_CARDS = BOX_CARDS - NATURE_OBJECTIVES - POWER_OBJECTIVES
"""The cards that can be in a deck, a display or a hand: every card but the Objectives."""

LONGEST_GAME_TURN_ACTIONS = 2 * _HELD_CARDS + 1
"""No game has more turn actions (15.5): each action that does not end the game lowers
2 x (cards in decks and displays) + (cards in hands) by at least 1, from at most twice the
cards that can be held, and one more action ends it."""

MAX_RECORD_ACTIONS = 100 * LONGEST_GAME_TURN_ACTIONS
"""The most actions a record may list: the turn actions of the longest game, each with room
for 99 more decisions (feedings, pawns, Objectives, limit discards, Protections, Tornado
choices). The cities (19), Objectives (9) and seats (5) of the box keep real games far
below it: the longest of hundreds of random 5-player games lists a few hundred."""

MAX_DOCUMENT_CHARS = MAX_MANIFEST_CHARS
"""The longest JSON text of anything but a record: a position, a view, a state, rules, a
manifest, an action or an event. The largest a game writes is a few kilobytes (a manifest,
the longest part, about 6)."""

MAX_RECORD_CHARS = 8 * 1024 * 1024
"""The longest JSON text of a record: its rules and manifest, a start position, and
``MAX_RECORD_ACTIONS`` actions of well under 300 characters each."""

EVENTS_PER_ACTION = 100
"""A bound on the events one action logs, with everything the engine takes by itself after
it (a whole turn's feeding, a city's fall and what it raises, a Tornado's thefts): a seat's
information-set key, which holds its log, lists at most this many per action of the record
(1.10, 1.16)."""
WHOLE_NUMBERS = range(-(2**63), 2**63)
"""Every whole number a document may hold (1.10): the 64-bit range, which holds every seat,
count and number of random draws a game makes, and every seed (the library draws 63-bit
ones). A number beyond it is no game's; Python would write one of more than 4300 digits
nowhere, not even in an error message."""
