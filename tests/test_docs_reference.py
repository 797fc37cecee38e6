"""The API reference of the docs site (``docs/reference/``) covers the whole public API.

Every name of ``gaia_rules.__all__`` is rendered by a ``::: gaia_rules.<module>`` directive
of some reference page and has a docstring; the functions and methods that raise the
library's errors say so, in a Google-style ``Raises:`` section that names the error, and
raise it; every reference page is in the site's navigation. Building the site (and so
checking that every directive and cross-reference resolves) is the job of CI, not of
these tests.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

import attrs
import pytest

import gaia_rules as gr
from gaia_rules import notation, serialization, svg, svg_cards

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"
SOURCE = ROOT / "src" / "gaia_rules"
MKDOCS = ROOT / "mkdocs.yml"

PUBLIC = sorted(name for name in gr.__all__ if name != "__version__")
"""The names the reference must render (the version is a plain string)."""

UNDOCUMENTED: frozenset[str] = frozenset()
"""Constants and type aliases of ``__all__`` allowed to go without a docstring (none)."""

OWN_MODULES = (
    "actions",
    "cards",
    "errors",
    "events",
    "game",
    "manifest",
    "notation",
    "position",
    "record",
    "rules",
    "schema",
    "serialization",
    "state",
    "svg",
    "svg_cards",
    "vocabulary",
)
"""The modules whose docstrings are written for the reference pages (Markdown, no roles)."""


# -- reading the pages ----------------------------------------------------------------------


@dataclass(frozen=True)
class Directive:
    """One ``::: path`` of a reference page, with its ``members`` option if it has one."""

    page: str
    path: str
    members: tuple[str, ...] | None


def _members(options: list[str]) -> tuple[str, ...] | None:
    """The ``members:`` of a directive's options, written ``[a, b]`` or as a YAML list."""
    for index, line in enumerate(options):
        match = re.fullmatch(r"\s*members:\s*(?P<value>.*)", line)
        if match is None:
            continue
        value = match["value"].strip()
        if value.startswith("["):
            return tuple(m.strip() for m in value.strip("[]").split(",") if m.strip())
        listed = []
        for item in options[index + 1 :]:
            entry = re.fullmatch(r"\s*-\s*(?P<name>\w+)\s*", item)
            if entry is None:
                break
            listed.append(entry["name"])
        return tuple(listed)
    return None


@cache
def directives() -> tuple[Directive, ...]:
    """Every mkdocstrings directive of every reference page, in page order."""
    found = []
    for page in sorted(REFERENCE.glob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            if not line.startswith("::: "):
                continue
            options = []
            for option in lines[index + 1 :]:
                if option and not option[0].isspace():
                    break
                options.append(option)
            found.append(Directive(page.name, line[4:].strip(), _members(options)))
    return tuple(found)


@cache
def module_tree(module: str) -> ast.Module:
    """The syntax tree of one module of the package (``gaia_rules.x`` or a package)."""
    relative = Path(*module.split(".")[1:])
    path = SOURCE / relative.with_suffix(".py")
    if not path.is_file():
        path = SOURCE / relative / "__init__.py"
    return ast.parse(path.read_text(encoding="utf-8"))


def _assigned(statement: ast.stmt) -> list[str]:
    """The names a top-level statement assigns (``X = ...`` or ``X: T = ...``)."""
    if isinstance(statement, ast.Assign):
        return [t.id for t in statement.targets if isinstance(t, ast.Name)]
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return [statement.target.id]
    return []


def package_modules() -> list[str]:
    """Every module of the package, by its dotted name."""
    modules = []
    for path in sorted(SOURCE.rglob("*.py")):
        parts = path.relative_to(SOURCE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.append(".".join(("gaia_rules", *parts)))
    return modules


def _is_own(value: object) -> bool:
    """Whether ``value`` is a class or function of the package (``CardId`` is ``str``)."""
    is_code = inspect.isclass(value) or inspect.isfunction(value)
    return is_code and str(getattr(value, "__module__", "")).startswith("gaia_rules")


def defined_in(name: str) -> str:
    """The module that defines a public name: the one a class or function says, or else the
    one whose top level assigns it (a constant or a type alias)."""
    value = getattr(gr, name)
    if _is_own(value):
        return str(value.__module__)
    owners = [
        module
        for module in package_modules()
        if module != "gaia_rules" and any(name in _assigned(s) for s in module_tree(module).body)
    ]
    assert len(owners) == 1, f"{name} is assigned in {owners}, expected one module"
    return owners[0]


def attribute_docstring(module: str, name: str) -> str | None:
    """The string literal right after the top-level assignment of ``name``, if any."""
    body = module_tree(module).body
    for statement, following in itertools.pairwise(body):
        if name in _assigned(statement):
            if (
                isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                return following.value.value
            return None
    return None


# -- (a) every public name is on a page -------------------------------------------------------


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_is_rendered_by_a_reference_page(name: str) -> None:
    module = defined_in(name)
    rendering = [
        d
        for d in directives()
        if d.path == f"{module}.{name}"
        or (d.path == module and (d.members is None or name in d.members))
    ]
    assert rendering, (
        f"gaia_rules.{name} (defined in {module}) is on no page of docs/reference/: add "
        f"'::: {module}' to a page, or add {name} to the 'members' of its directive"
    )


def test_every_directive_names_a_module_or_object_that_exists() -> None:
    assert directives(), "docs/reference/ has no mkdocstrings directive"
    for directive in directives():
        module, rest = directive.path, ""
        while True:
            try:
                value: object = importlib.import_module(module)
                break
            except ModuleNotFoundError as exc:
                if exc.name is not None and not f"{module}.".startswith(f"{exc.name}."):
                    value = None  # the module needs an optional extra not installed here
                    break
                module, _, last = module.rpartition(".")
                rest = f"{last}.{rest}" if rest else last
        if value is None:
            continue
        for part in rest.split(".") if rest else ():
            value = getattr(value, part)
        for member in directive.members or ():
            assert hasattr(value, member), (directive.page, directive.path, member)


# -- (b) every public name has a docstring ----------------------------------------------------


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_has_a_docstring(name: str) -> None:
    value = getattr(gr, name)
    if inspect.isclass(value) and _is_own(value):
        doc = vars(value).get("__doc__")  # its own, never one inherited from a base class
    elif inspect.isfunction(value):
        doc = value.__doc__
    else:
        doc = attribute_docstring(defined_in(name), name)
        if name in UNDOCUMENTED:
            return
    assert isinstance(doc, str) and doc.strip(), f"gaia_rules.{name} has no docstring"


def _own_callables(cls: type) -> list[tuple[str, Callable[..., object]]]:
    """The public methods and properties a class defines itself."""
    found: list[tuple[str, Callable[..., object]]] = []
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, staticmethod | classmethod):
            found.append((name, member.__func__))
        elif isinstance(member, property) and member.fget is not None:
            found.append((name, member.fget))
        elif inspect.isfunction(member):
            found.append((name, member))
    return found


@pytest.mark.parametrize(
    "name", [n for n in PUBLIC if inspect.isclass(getattr(gr, n)) and _is_own(getattr(gr, n))]
)
def test_every_public_method_of_a_public_class_has_a_docstring(name: str) -> None:
    missing = [m for m, f in _own_callables(getattr(gr, name)) if not (f.__doc__ or "").strip()]
    assert not missing, f"gaia_rules.{name}: no docstring on {missing}"


@pytest.mark.parametrize("module", OWN_MODULES)
def test_the_docstrings_of_the_reference_use_no_sphinx_roles(module: str) -> None:
    """mkdocstrings writes a role like :class:`X` as it is; the docstrings use Markdown."""
    text = (SOURCE / f"{module}.py").read_text(encoding="utf-8")
    roles = re.findall(r":(?:class|meth|func|attr|mod|data|exc|obj):`[^`]*`", text)
    assert not roles, f"gaia_rules/{module}.py: {roles}"


# -- (c) the errors are documented, and true --------------------------------------------------


def _game() -> gr.Game:
    return gr.new_game(players=2, seed=1)


def _bad_record() -> gr.GameRecord:
    record = _game().record()
    return attrs.evolve(record, actions=(gr.DrawDeck(1, gr.CardKind.NATURE),))


def _finished_game() -> gr.Game:
    """A game that is over."""
    game, rng = _game(), random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _impossible_position() -> gr.PositionBuilder:
    return gr.PositionBuilder(players=2).tile(3, 3, gr.Land.SEA)  # not at (0, 0): 3.1


@dataclass(frozen=True)
class Raises:
    """A function or method, the errors its ``Raises:`` section must name, and a call that
    raises the first of them."""

    owner: object
    name: str
    errors: tuple[str, ...]
    call: Callable[[], object]

    @property
    def label(self) -> str:
        owner = getattr(self.owner, "__name__", "")
        return f"{owner}.{self.name}" if inspect.isclass(self.owner) else self.name

    def function(self) -> object:
        return getattr(self.owner, self.name)


RAISES = [
    Raises(gr, "new_game", ("RulesError",), lambda: gr.new_game(players=1)),
    Raises(
        gr.Game,
        "apply",
        ("IllegalActionError",),
        lambda: _game().apply(gr.DrawDeck(1, gr.CardKind.NATURE)),
    ),
    Raises(gr.Game, "view", ("SeatError",), lambda: _game().view(2)),
    Raises(gr.Game, "events_for", ("SeatError",), lambda: _game().events_for(-1)),
    Raises(gr.Game, "pawns_placed", ("SeatError",), lambda: _game().pawns_placed(7)),
    Raises(gr.GameRecord, "replay", ("RecordError",), lambda: _bad_record().replay()),
    Raises(gr.GameRecord, "from_json", ("RecordError",), lambda: gr.GameRecord.from_json("[]")),
    Raises(gr.GameRecord, "from_data", ("RecordError",), lambda: gr.GameRecord.from_data(7)),
    Raises(gr.Position, "from_json", ("PositionError",), lambda: gr.Position.from_json("{}")),
    Raises(
        gr.Position, "to_game", ("PositionError",), lambda: _impossible_position().build().to_game()
    ),
    Raises(
        gr.Position,
        "from_game",
        ("PositionError",),
        lambda: gr.Position.from_game(_finished_game()),
    ),
    Raises(gr.PositionBuilder, "build", ("PositionError",), lambda: gr.PositionBuilder(9).build()),
    Raises(
        gr.PositionBuilder, "to_game", ("PositionError",), lambda: _impossible_position().to_game()
    ),
    Raises(gr.Rules, "basic", ("RulesError", "TypeError"), lambda: gr.Rules.basic(lightnings=2)),
    Raises(
        gr.Rules,
        "advanced",
        ("RulesError", "TypeError"),
        lambda: gr.Rules.advanced(eruption_on_city=False),
    ),
    Raises(gr.Rules, "powers", ("RulesError", "TypeError"), lambda: gr.Rules.powers(lightnings=3)),
    Raises(
        gr.Rules, "disasters", ("RulesError", "TypeError"), lambda: gr.Rules.disasters(lightnings=6)
    ),
    Raises(
        gr.Rules,
        "evolve",
        ("RulesError", "TypeError"),
        lambda: gr.Rules.basic().evolve(feeding="nobody"),
    ),
    Raises(gr.Rules, "from_dict", ("RulesError",), lambda: gr.Rules.from_dict([])),
    Raises(gr.Rules, "from_json", ("RulesError",), lambda: gr.Rules.from_json("{")),
    Raises(gr.Manifest, "from_json", ("ManifestError",), lambda: gr.Manifest.from_json("{")),
    Raises(gr.Manifest, "from_dict", ("ManifestError",), lambda: gr.Manifest.from_dict({})),
    Raises(serialization, "from_json", ("JsonError",), lambda: gr.from_json("{", gr.View)),
    Raises(serialization, "from_data", ("JsonError",), lambda: serialization.from_data(1, gr.View)),
    Raises(notation, "parse_action", ("NotationError",), lambda: notation.parse_action("1 draw")),
    Raises(
        notation,
        "format_action",
        ("NotationError",),
        lambda: notation.format_action(cast(Any, gr.TurnBegan(0))),  # not an action
    ),
    Raises(svg, "world_svg", ("GaiaRulesError",), lambda: svg.world_svg(cast(Any, 3))),
    Raises(svg, "table_svg", ("GaiaRulesError",), lambda: svg.table_svg(cast(Any, _game()))),
    Raises(svg, "card_svg", ("GaiaRulesError",), lambda: svg.card_svg(gr.Rules.basic(), "X1")),
    Raises(svg_cards, "face_svg", ("GaiaRulesError",), lambda: svg_cards.face_svg(cast(Any, 1))),
    Raises(svg_cards, "back_svg", ("GaiaRulesError",), lambda: svg_cards.back_svg(cast(Any, 1))),
]
"""The functions and methods that raise the library's errors."""

ERRORS: dict[str, type[Exception]] = {
    "GaiaRulesError": gr.GaiaRulesError,
    "IllegalActionError": gr.IllegalActionError,
    "JsonError": gr.JsonError,
    "ManifestError": gr.ManifestError,
    "NotationError": notation.NotationError,
    "PositionError": gr.PositionError,
    "RecordError": gr.RecordError,
    "RulesError": gr.RulesError,
    "SeatError": gr.SeatError,
    "TypeError": TypeError,
    "ValueError": ValueError,
}


def raises_section(doc: str) -> dict[str, str]:
    """The entries of a Google-style ``Raises:`` section: error name to its description."""
    lines = doc.splitlines()
    assert "Raises:" in lines, "no 'Raises:' section"
    entries: dict[str, str] = {}
    for line in lines[lines.index("Raises:") + 1 :]:
        if line.strip() and not line.startswith(" "):
            break
        entry = re.fullmatch(r" {4}(?P<error>\w+): (?P<text>.+)", line)
        if entry is not None:
            entries[entry["error"]] = entry["text"]
    return entries


@pytest.mark.parametrize("raises", RAISES, ids=lambda r: r.label)
def test_each_documented_error_is_in_a_raises_section(raises: Raises) -> None:
    doc = inspect.getdoc(raises.function())
    assert doc, f"{raises.label} has no docstring"
    entries = raises_section(doc)
    for error in raises.errors:
        assert error in entries, f"{raises.label}: 'Raises:' does not name {error} ({entries})"


@pytest.mark.parametrize("raises", RAISES, ids=lambda r: r.label)
def test_each_documented_error_is_the_one_raised(raises: Raises) -> None:
    with pytest.raises(ERRORS[raises.errors[0]]):
        raises.call()


# -- (d) the pages are in the navigation ------------------------------------------------------


def nav_pages() -> list[str]:
    """The reference pages the ``nav`` of ``mkdocs.yml`` lists, in order."""
    text = MKDOCS.read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return re.findall(r"^\s+- (?:[^:\n]+: )?(reference/[\w-]+\.md)\s*$", nav, re.M)


def test_every_reference_page_is_in_the_navigation_and_every_entry_is_a_page() -> None:
    pages = sorted(f"reference/{p.name}" for p in REFERENCE.glob("*.md"))
    listed = nav_pages()
    assert len(listed) == len(set(listed)), f"a page is listed twice: {listed}"
    assert sorted(listed) == pages


def test_the_overview_links_every_other_reference_page() -> None:
    index = (REFERENCE / "index.md").read_text(encoding="utf-8")
    for page in sorted(REFERENCE.glob("*.md")):
        if page.name != "index.md":
            assert f"]({page.name})" in index, page.name
