"""The page of every disagreement, written from ``spec/disagreements.toml``.

Each item of the rulebooks' comparison that the specification decides gets a block with
its number as anchor (``#d47``, ``#a17``): the question, each rulebook's reading quoted
briefly, what the engine does and the clauses that say so, and the switch that plays
another reading. The functions are pure, so the build hook and the tests call them alike.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import spec_pages

PAGE = f"{spec_pages.RULES_DIR}/disagreements/all.md"
"""Where the page lives in the site."""

SOURCES = ("EN", "DE", "FR", "HU", "BGA")


@dataclass(frozen=True)
class Item:
    """One numbered item of the comparison: a disagreement (D) or an open point (A)."""

    id: str
    question: str
    clauses: tuple[str, ...]
    answer: str
    switch: str | None
    readings: tuple[tuple[str, str, str], ...]

    @property
    def anchor(self) -> str:
        """The item's anchor on the page, e.g. ``d47``."""
        return self.id.lower()


def read_items(path: Path) -> tuple[Item, ...]:
    """Every item of the data file, in its order.

    Raises ``ValueError`` for an item that lacks a field or quotes an unknown source.
    """
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    items = []
    for raw in data["item"]:
        readings = tuple((str(s), str(q), str(g)) for s, q, g in raw.get("readings", ()))
        for source, _, _ in readings:
            if source not in SOURCES:
                raise ValueError(f"{raw['id']}: unknown source {source!r}")
        items.append(
            Item(
                id=str(raw["id"]),
                question=str(raw["question"]),
                clauses=tuple(str(c) for c in raw["clauses"]),
                answer=str(raw["answer"]),
                switch=raw.get("switch"),
                readings=readings,
            )
        )
    return tuple(items)


def _links(item: Item, spec: spec_pages.Spec) -> str:
    return ", ".join(f"[{c}]({spec.clause_link(c, PAGE)})" for c in item.clauses)


def _switch(item: Item) -> str:
    """The switch that plays another reading, in words, linked to its page."""
    if item.switch is None:
        return ""
    name = switch_name(item.switch)
    page = spec_pages.SWITCH_PAGES.get(item.switch)
    return f" Switch: [{name}]({page})." if page else f" Switch: {name}."


def switch_name(switch: str) -> str:
    """A switch as the rules name it (spec 1.3), with a capital: "The Objectives"."""
    name = spec_pages.SWITCH_NAMES[switch]
    return name[0].upper() + name[1:]


def page_markdown(items: tuple[Item, ...], spec: spec_pages.Spec) -> str:
    """The Markdown of the page: a count, then one block per item, D items first."""
    disagreements = [i for i in items if i.id.startswith("D")]
    gaps = [i for i in items if i.id.startswith("A")]
    switched = sum(1 for i in items if i.switch)
    out = [
        "# Every disagreement, by number",
        "",
        "The five rule texts of Gaïa were compared point by point. Each **D** item is a "
        "point where they disagree, or where one of them alone says something; each **A** "
        "item is a point they leave open. This page lists every one the specification "
        f"decides: {len(disagreements)} D items and {len(gaps)} A items, {switched} of "
        "them with a switch of the rules that plays another reading. Each gives the readings "
        "(quoted briefly, with an English gloss), what the engine does by default, and the "
        "clauses that decide it, where the full quotes and reasons are.",
        "",
        "The [switches](index.md) have pages of their own with the readings played side by "
        "side, and the [card counts](../card-counts.md) sort out the numbers the boxes print.",
        "",
        "## Disagreements (D)",
        "",
    ]
    for item in disagreements:
        out += _item(item, spec)
    out += ["## Points the rulebooks leave open (A)", ""]
    for item in gaps:
        out += _item(item, spec)
    return "\n".join(out)


def _item(item: Item, spec: spec_pages.Spec) -> list[str]:
    out = [
        f'<div class="disagreement" id="{item.anchor}" markdown>',
        "",
        f"[**{item.id}**](#{item.anchor}) {item.question}",
        "",
    ]
    for source, quote, gloss in item.readings:
        english = f" ({gloss})" if gloss else ""
        out.append(f"- {source}: “{quote}”{english}")
    if item.readings:
        out.append("")
    out += [
        f"**The rules:** {item.answer.rstrip('.')} ({_links(item, spec)}).{_switch(item)}",
        "",
        "</div>",
        "",
    ]
    return out
