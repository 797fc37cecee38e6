"""The wheel's build hook: with ``GAIA_RULES_USE_MYPYC=1`` in the environment it compiles the
rules' hot modules with mypyc into a platform wheel, as black and mypy ship theirs; without it
(``pip install .``, ``python -m build``) it does nothing and the wheel is pure Python.

    GAIA_RULES_USE_MYPYC=1 python -m build --wheel

cibuildwheel sets the variable (``[tool.cibuildwheel.environment]`` in ``pyproject.toml``) and
builds a compiled wheel per platform and CPython; ``scripts/build_compiled.py`` builds one here
the way cibuildwheel does. The build then needs a C compiler; its Python requirements (mypy,
which brings mypyc, and setuptools, which drives the compiler) are added to the isolated build
environment only when the variable is set, so the pure build stays quick.

black builds its wheels with hatch-mypyc, a hook like this one; this hook does what it does
(mypyc's ``mypycify`` through setuptools, the extension modules beside the ``.py`` files, mypyc's
shared library at the top level of the wheel) with two differences that matter here: it compiles
a copy of the package in a temporary folder, where hatch-mypyc builds in the source tree and
renames ``pyproject.toml`` away while it runs (an interrupted build leaves a clone without it),
and the switch is the project's own variable.

The compiled wheel holds every ``.py`` file of the pure wheel and the extension modules beside
them (an extension module is imported before the ``.py`` file of the same name); the suite runs
on both.

What is compiled (COMPILED): the rules that run at every decision (drawing to world, ``flow``
among them, where ``Game.legal_actions`` and ``Game.apply`` hand over at once), ``chance`` and
``dealing`` (the draws and the deal of each sample of a search), ``actiondata`` (the reading of
recorded actions), ``viewfields`` (the building of a seat's view, whose class stays in
``views``), ``copies`` (one choice per face, asked at every turn's action), ``naming`` (the
piles named by face ids, at every draw and card played, and in every view), ``squares`` (a
square's neighbours, which the table's bookkeeping asks at every change of the world),
``playouts`` (the search bots' playouts, most of a search's time) and ``constructors`` (the
events, actions and steps a decision makes most often, made without attrs' interpreted
``__init__``). The rest stays pure Python in this wheel too, each for a reason seen in a build
of it:

- The value modules (``actions``, ``cards``, ``decisions``, ``events``, ``manifest``,
  ``rules``, ``state``, ``views``; ``record``, ``refusal`` and ``position`` hold attrs classes
  too): mypyc turns an attrs class into an interpreted class whose annotations are bare runtime
  classes (``tuple[CardId, ...]`` becomes ``tuple``, ``int | None`` becomes ``type``), and the
  converter and the schema read annotations. Compiled, ``events`` and ``decisions`` cannot read
  their JSON (cattrs: "Unsupported type: <class 'type'>"), ``views`` writes a view the JSON
  encoder refuses, and ``state``, ``cards`` and ``manifest`` give their fields such bare types.
  ``rules`` does not import ("Level object expected; got _CountingAttr": its ``attrs.field``
  defaults meet a type check), and in ``actions`` the plain base ``_Notated`` would be an
  extension class under attrs classes ("Non-extension classes may not inherit from extension
  classes"). ``wire`` and ``hooks`` stay interpreted with them: ``Wire`` is the base of every
  value. (``manifest``, which does build, measured no faster compiled.)
- The public API (``game``, ``determinize``, ``bots``, ``errors``) and ``vocabulary``: a
  compiled class or function has no docstring at runtime (``help()`` shows nothing), and the
  suite checks that every name ``gaia_rules`` exports has one (compiled, ``Game``,
  ``new_game``, ``Determinizer``, ``determinize`` and the errors failed it; the bots are public
  too); the enums of ``vocabulary`` get "mypyc filler docstring", which the schema publishes. A
  compiled function also refuses an argument of another type than its annotation with a bare
  ``TypeError``, before the input checks that raise the library's errors
  (``new_game(players="3")`` must raise ``RulesError``, ``game.view(1.0)`` ``SeatError``);
  ``setup`` is reached that way by ``new_game``. The hot part of ``Game`` moved to ``flow``
  instead (``flow.legal_actions``, ``flow.play``), and the hot part of a ``Determinizer``'s
  sample to ``chance`` and ``dealing``.
- ``schema`` reads class namespaces, ``untrusted`` (the rule for untrusted input) walks the
  value classes' annotations, ``serialization`` is cattrs' configuration, and the
  others (``notation``, ``position``, ``record``, ``svg``, ``text``, the CLI and the wings) are
  off the path of a decision.

A compiled module calls its rule functions directly, so a test that patches one of them in the
module (three oracle tests) runs only on the pure build (see ``tests/test_oracle.py``).

Measured with ``benchmarks/bench.py --quick`` (ratios to python-chess in the same run; see
``benchmarks/README.md``): the 13 rule modules alone gave a decision 0.50-0.52 of a chess ply
and SearchBot 69-76 decisions a second. ``Final`` module constants (read as C statics instead
of being looked up in the module's dict), ``Game``'s two calls handed to ``flow``, ``chance``
(``random.Random``'s ``shuffle`` and ``randrange`` are Python code) and ``actiondata`` brought
them to 0.46-0.48 and 80-89, and a record's ``from_json`` 12% faster; ``dealing`` SearchBot to
85-95. Compiling ``determinize`` and the bots whole would add 2-3 decisions a second more.
Compiling ``naming`` and ``squares``, the last rules of a decision that ran interpreted, with
the manifest's dicts read directly in the compiled rules, cut the instructions of a random
decision by 3% (callgrind: 20 random 4-player games at basic and 20 at disasters);
``playouts`` made SearchBot's decisions about 10% cheaper (``benchmarks/interleaved.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SWITCH = "GAIA_RULES_USE_MYPYC"
"""The environment variable that asks for the compiled wheel (``1``; unset or ``0``: pure)."""

COMPILED = (
    "drawing",
    "ending",
    "feeding",
    "flow",
    "legal",
    "life",
    "limits",
    "nature",
    "objectives",
    "powers",
    "satisfaction",
    "table",
    "world",
    "squares",
    "chance",
    "constructors",
    "dealing",
    "actiondata",
    "viewfields",
    "copies",
    "naming",
    "playouts",
)
"""The modules of `gaia_rules` compiled (paths under the package, without ``.py``)."""

OPT_LEVEL = "3"
"""mypyc's optimisation level (what the figures in the docstring were measured with)."""


GROUP = "gaia_rules_compiled"
"""The name of mypyc's shared library, ``gaia_rules_compiled__mypyc.*``, at the top level of the
wheel beside ``gaia_rules/`` (mypyc names it by a hash otherwise). The top level is where black's
and mypy's wheels carry theirs, and where mypyc's runtime expects it: a compiled module first
imported from another one inside the library gets a ``__file__`` made of the library's folder
and the module's dotted path, so a library inside the package gave 13 of the modules
``gaia_rules/gaia_rules/<module>.so``, a file that does not exist."""


def wanted() -> bool:
    """Whether this build was asked to compile (the switch set to anything but ``0``)."""
    return os.environ.get(SWITCH, "0").strip() not in ("", "0")


def compile_package(source: Path, work: Path) -> list[Path]:
    """Compile COMPILED from a copy of the package at ``source`` in ``work``; the extension
    modules built: one per module under ``gaia_rules/`` and mypyc's shared library (GROUP)
    beside it."""
    shutil.copytree(source, work / "gaia_rules")
    sources = [f"gaia_rules/{name}.py" for name in COMPILED]
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "sys.argv = ['setup.py', 'build_ext', '--inplace']\n"
        f"setup(name='gaia_rules_compiled', ext_modules=mypycify({sources!r}, "
        f"opt_level={OPT_LEVEL!r}, group_name={GROUP!r}))\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=work, check=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(
        [*(work / "gaia_rules").rglob(f"*{suffix}"), *work.glob(f"{GROUP}__mypyc{suffix}")]
    )


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles COMPILED into the wheel when SWITCH asks for it; otherwise does nothing."""

    PLUGIN_NAME = "mypyc"

    def dependencies(self) -> list[str]:
        """mypy, setuptools and the runtime dependencies (which mypy reads the types of), only
        when compiling: a pure build installs none of them."""
        if not wanted():
            return []
        requires = self.config.get("mypyc-requires", [])
        return [*requires, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile, and hand the extension modules to the wheel with a platform tag."""
        if self.target_name != "wheel" or version == "editable" or not wanted():
            return
        self._work = Path(tempfile.mkdtemp(prefix="gaia-rules-mypyc-"))
        package = Path(self.root) / "src" / "gaia_rules"
        for path in compile_package(package, self._work):
            build_data["force_include"][str(path)] = path.relative_to(self._work).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the compiler's work folder once the wheel is written."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
