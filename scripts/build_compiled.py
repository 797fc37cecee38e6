"""Build the optional compiled wheel: the pure-Python wheel with the rules' hot modules compiled
by mypyc (as black and mypy ship). The pure-Python wheel stays the reference; this one must pass
the same suite (`.ci/run` builds it and runs the suite on it).

    python scripts/build_compiled.py --outdir dist-compiled

It builds the pure wheel with `python -m build`, compiles the modules of COMPILED from a copy of
`src/` with `mypyc.build.mypycify` (mypy's dev dependency brings it, with setuptools), and writes
a platform wheel holding the pure wheel's files and the compiled extensions beside them (an
extension module is imported before the `.py` file of the same name).

What is compiled (COMPILED): the rules that run at every decision (drawing to world, `flow`
among them, where `Game.legal_actions` and `Game.apply` hand over at once), `chance` and
`dealing` (the draws and the deal of each sample of a search), `actiondata` (the reading
of recorded actions) and `viewfields` (the building of a seat's view, whose class stays in
`views`). The rest stays pure Python in this wheel too, each for a reason seen in
a build of it:

- The value modules (`actions`, `cards`, `decisions`, `events`, `manifest`, `rules`, `state`,
  `views`; `record`, `refusal` and `position` hold attrs classes too): mypyc turns an attrs
  class into an interpreted class whose annotations are bare runtime classes
  (`tuple[CardId, ...]` becomes `tuple`, `int | None` becomes `type`), and the converter and
  the schema read annotations. Compiled, `events` and `decisions` cannot read their JSON
  (cattrs: "Unsupported type: <class 'type'>"), `views` writes a view the JSON encoder
  refuses, and `state`, `cards` and `manifest` give their fields such bare types. `rules`
  does not import ("Level object expected; got _CountingAttr": its `attrs.field` defaults
  meet a type check), and in `actions` the plain base `_Notated` would be an extension class
  under attrs classes ("Non-extension classes may not inherit from extension classes").
  `wire` and `hooks` stay interpreted with them: `Wire` is the base of every value.
  (`manifest`, which does build, measured no faster compiled.)
- The public API (`game`, `determinize`, `bots`, `errors`) and `vocabulary`: a compiled class or
  function has no docstring at runtime (`help()` shows nothing), and the suite checks that every
  name `gaia_rules` exports has one (compiled, `Game`, `new_game`, `Determinizer`, `determinize`
  and the errors failed it; the bots are public too); the enums of `vocabulary` get "mypyc
  filler docstring", which the schema publishes. A compiled function also refuses an argument of
  another type than its annotation with a bare `TypeError`, before the input checks that raise
  the library's errors (`new_game(players="3")` must raise `RulesError`, `game.view(1.0)`
  `SeatError`); `setup` is reached that way by `new_game`. The hot part of `Game` moved to
  `flow` instead (`flow.legal_actions`, `flow.play`), and the hot part of a `Determinizer`'s
  sample to `chance` and `dealing`.
- `schema` reads class namespaces, `untrusted` (the rule for untrusted input) walks the value
  classes' annotations, `serialization` is cattrs' configuration, and the others
  (`notation`, `position`, `record`, `svg`, `text`, the CLI and the wings) are off the path of
  a decision.

A compiled module calls its rule functions directly, so a test that patches one of them in
the module (three oracle tests) runs only on the pure build (see `tests/test_oracle.py`).

Measured with `benchmarks/bench.py --quick` (ratios to python-chess in the same run; see
`benchmarks/README.md`): the 13 rule modules alone gave a decision 0.50-0.52 of a chess ply
and SearchBot 69-76 decisions a second. `Final` module constants (read as C statics instead
of being looked up in the module's dict), `Game`'s two calls handed to `flow`, `chance`
(`random.Random`'s `shuffle` and `randrange` are Python code) and `actiondata` brought them
to 0.46-0.48 and 80-89, and a record's `from_json` 12% faster; `dealing` SearchBot to 85-95.
Compiling `determinize` and the bots whole would add 2-3 decisions a second more.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

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
    "chance",
    "dealing",
    "actiondata",
    "viewfields",
)
"""The modules of `gaia_rules` compiled (paths under the package, without ``.py``)."""


def _compile(work: Path) -> list[Path]:
    """Compile COMPILED in a copy of the package under ``work``; the extension files built."""
    shutil.copytree(ROOT / "src" / "gaia_rules", work / "gaia_rules")
    sources = [f"gaia_rules/{name}.py" for name in COMPILED]
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "sys.argv = ['setup.py', 'build_ext', '--inplace']\n"
        f"setup(name='gaia_rules_compiled', ext_modules=mypycify({sources!r}, opt_level='3'))\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=work, check=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(work.glob(f"*{suffix}")) + sorted((work / "gaia_rules").rglob(f"*{suffix}"))


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _platform_tag() -> str:
    version = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{version}-{version}-{platform}"


def build(outdir: Path) -> Path:
    """Build the compiled wheel into ``outdir``; its path."""
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(work / "pure"), str(ROOT)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (pure,) = (work / "pure").glob("*.whl")
        extensions = _compile(work / "compile")
        tag = _platform_tag()
        target = outdir / pure.name.replace("py3-none-any", tag)
        records: list[str] = []
        with zipfile.ZipFile(pure) as source, zipfile.ZipFile(target, "w") as wheel:
            record_name = next(n for n in source.namelist() if n.endswith(".dist-info/RECORD"))
            for info in source.infolist():
                if info.filename == record_name:
                    continue
                data = source.read(info)
                if info.filename.endswith(".dist-info/WHEEL"):
                    text = data.decode().replace("Root-Is-Purelib: true", "Root-Is-Purelib: false")
                    data = text.replace("Tag: py3-none-any", f"Tag: {tag}").encode()
                wheel.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
                records.append(_record_line(info.filename, data))
            for path in extensions:
                name = path.relative_to(work / "compile").as_posix()
                data = path.read_bytes()
                wheel.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
                records.append(_record_line(name, data))
            records.append(f"{record_name},,")
            wheel.writestr(record_name, "\n".join(records) + "\n")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist-compiled")
    args = parser.parse_args()
    print(build(args.outdir))


if __name__ == "__main__":
    main()
