"""The site's table with no server, and the engine its live examples run on.

Adds to the site, under ``table/``:

- ``index.html`` and ``static/``: the page of a gaia-rules server (the package's
  ``gaia_rules/web/static``) started by ``static/offline.js``, whose engine runs in the
  browser (``inbrowser.js``, ``worker.js``);
- ``pyodide/``: the Pyodide runtime, from the npm package ``pyodide`` at ``PYODIDE_VERSION``
  (its ``node_modules`` folder is looked for in ``$GAIA_PYODIDE``, ``.ci-node/`` and
  ``node_modules/`` of the repository; when none holds it, the build installs it with
  ``npm install --prefix .ci-node pyodide@PYODIDE_VERSION``, and fails saying so when npm
  cannot: a strict build never goes without the table);
- ``wheels/``: the pure wheel of gaia-rules built from this tree (``pip wheel``), the wheels of
  its dependencies (attrs, cattrs, typing_extensions) made from the installed distributions,
  each with its modules' bytecode for the runtime's CPython beside their sources (compiled by
  that runtime, in node, as the site is built: the worker imports the wheels from their zips,
  and a module imported from a zip takes its ``.pyc`` beside it, checked against the source's
  hash), and ``index.json``, the list the worker puts on Python's path in order.

Nothing of it is fetched from outside the site when the page runs.
"""

from __future__ import annotations

import functools
import hashlib
import html
import importlib.util
import io
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata, resources
from pathlib import Path

import languages
from generated import AFTER_I18N, build_language
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[2]

PYODIDE_VERSION = "314.0.7"
"""The Pyodide release the site ships (its npm package holds the whole runtime)."""

RUNTIME = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The runtime's files the site serves (the package's own pages and maps are left out)."""

DEPENDENCIES = ("typing_extensions", "attrs", "cattrs")
"""The distributions the wheel needs besides itself, in the order they are unpacked."""

TABLE = "table"


def pyodide_folder() -> Path:
    """The npm package ``pyodide`` at ``PYODIDE_VERSION``, installed if it is nowhere."""
    places = [Path(os.environ["GAIA_PYODIDE"])] if os.environ.get("GAIA_PYODIDE") else []
    places += [ROOT / ".ci-node" / "node_modules" / "pyodide", ROOT / "node_modules" / "pyodide"]
    for place in places:
        if _version(place) == PYODIDE_VERSION:
            return place
    command = ["npm", "install", "--prefix", str(ROOT / ".ci-node"), f"pyodide@{PYODIDE_VERSION}"]
    try:
        subprocess.run(command, check=True, capture_output=True, timeout=600)
    except (OSError, subprocess.SubprocessError) as error:
        raise PluginError(
            f"the static table needs the npm package pyodide@{PYODIDE_VERSION}: none in "
            f"{', '.join(map(str, places))}, and `{' '.join(command)}` failed ({error}). "
            "Install it so (or set GAIA_PYODIDE to its folder) and build again."
        ) from error
    installed = ROOT / ".ci-node" / "node_modules" / "pyodide"
    if _version(installed) != PYODIDE_VERSION:
        raise PluginError(f"{installed}: expected pyodide {PYODIDE_VERSION}")
    return installed


def _version(folder: Path) -> str | None:
    try:
        data = json.loads((folder / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("version")
    return version if isinstance(version, str) else None


@functools.cache
def own_wheel() -> tuple[str, bytes]:
    """The pure wheel of gaia-rules, built from this tree: its file name and bytes."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet"]
        if importlib.util.find_spec("hatchling") is not None:
            command.append("--no-build-isolation")  # the backend is here: no download
        command += ["--wheel-dir", folder, str(ROOT)]
        environment = {k: v for k, v in os.environ.items() if k != "GAIA_RULES_USE_MYPYC"}
        done = subprocess.run(command, check=False, capture_output=True, text=True, env=environment)
        built = sorted(Path(folder).glob("gaia_rules-*-py3-none-any.whl"))
        if done.returncode != 0 or len(built) != 1:
            raise PluginError(f"could not build the wheel of gaia-rules: {done.stderr[-2000:]}")
        return built[0].name, built[0].read_bytes()


def installed_wheel(name: str, *, natives: bool = False) -> tuple[str, bytes]:
    """A wheel of the installed distribution ``name``, made from its installed files (pure
    Python only: what the worker unpacks is what this build's Python runs; ``natives``: leave
    out the compiled modules of a distribution that runs without them)."""
    dist = metadata.distribution(name)
    files = dist.files or []
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(files, key=str):
            path = Path(str(dist.locate_file(file)))
            if file.suffix in (".pyc", ".so", ".pyd") or "__pycache__" in file.parts:
                if file.suffix in (".so", ".pyd") and not natives:
                    raise PluginError(f"{name} is not pure Python: {file}")
                continue
            if path.is_file() and not str(file).startswith(".."):  # no scripts outside
                archive.writestr(zipfile.ZipInfo(str(file).replace(os.sep, "/")), path.read_bytes())
    wheel = f"{dist.metadata['Name'].replace('-', '_')}-{dist.version}-py3-none-any.whl"
    return wheel, buffer.getvalue()


BYTECODE = """\
import { loadPyodide } from "%(runtime)s";
import fs from "node:fs";
const [folder, ...names] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/wheels");
for (const name of names) {
  const wheel = new Uint8Array(fs.readFileSync(`${folder}/${name}`));
  pyodide.FS.writeFile(`/wheels/${name}`, wheel);
}
pyodide.runPython(`%(python)s`);
for (const name of names) {
  fs.writeFileSync(`${folder}/${name}`, pyodide.FS.readFile(`/wheels/${name}`));
}
"""
"""Run by node: each wheel of the folder given, its modules compiled by Pyodide's CPython."""

COMPILE = """
import importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
for name in %(names)s:
    path = "/wheels/" + name
    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as wheel:
        for info, data in entries:
            wheel.writestr(info, data)
            if info.filename.endswith(".py"):
                code = compile(data, info.filename, "exec", dont_inherit=True)
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), True)
                wheel.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), bytes(pyc))
    with open(path, "wb") as file:
        file.write(out.getvalue())
"""
"""Each wheel rewritten with ``module.pyc`` beside each ``module.py`` (where an import from a
zip looks for it), checked against its source's hash when imported."""


def with_bytecode(wheels: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The wheels, each with its modules compiled by the runtime's own CPython (run in node,
    which installed the runtime's npm package)."""
    runtime = pyodide_folder() / "pyodide.mjs"
    names = [name for name, _ in wheels]
    with tempfile.TemporaryDirectory() as folder:
        for name, content in wheels:
            (Path(folder) / name).write_bytes(content)
        python = COMPILE % {"names": repr(names)}
        script = BYTECODE % {"runtime": runtime.as_uri(), "python": python.replace("`", "\\`")}
        (Path(folder) / "compile.mjs").write_text(script, "utf-8")
        command = ["node", str(Path(folder) / "compile.mjs"), folder, *names]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
        except (OSError, subprocess.SubprocessError) as error:
            why = f"the wheels' bytecode needs node, to run Pyodide: {error}"
            raise PluginError(why) from error
        if done.returncode != 0:
            raise PluginError(f"the wheels' bytecode was not compiled: {done.stderr[-2000:]}")
        return [(name, (Path(folder) / name).read_bytes()) for name in names]


def _page_files() -> dict[str, bytes]:
    """The page's static files (the package's ``web/static``), by path under it."""
    found: dict[str, bytes] = {}
    root = resources.files("gaia_rules.web") / "static"

    def walk(folder: resources.abc.Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            elif not entry.name.endswith((".pyc", ".py")):
                found[f"{prefix}{entry.name}"] = entry.read_bytes()

    walk(root, "")
    return found


def page_html(server_page: str) -> str:
    """The server's page turned into the static table's: its files beside it, started by
    ``offline.js``, its links home to the lobby of this page."""
    page = server_page.replace('src="/static/app.js"', 'src="static/offline.js"')
    page = page.replace('href="/static/', 'href="static/')
    page = page.replace('href="/"', 'href="./"')
    if re.search(r'\b(?:src|href|action)="/', page):
        raise PluginError("table/index.html: the page still names a server's path")
    return page


def table_files() -> dict[str, bytes]:
    """Every file of ``table/``, by its path in the site."""
    out: dict[str, bytes] = {}
    statics = _page_files()
    out[f"{TABLE}/index.html"] = page_html(statics["index.html"].decode("utf-8")).encode()
    for path, content in statics.items():
        out[f"{TABLE}/static/{path}"] = content
    runtime = pyodide_folder()
    for name in RUNTIME:
        out[f"{TABLE}/pyodide/{name}"] = (runtime / name).read_bytes()
    wheels = with_bytecode([installed_wheel(name) for name in DEPENDENCIES] + [own_wheel()])
    for name, content in wheels:
        out[f"{TABLE}/wheels/{name}"] = content
    digest = hashlib.sha256(b"".join(content for _, content in wheels)).hexdigest()[:16]
    index = {"wheels": [name for name, _ in wheels], "pyodide": PYODIDE_VERSION, "digest": digest}
    out[f"{TABLE}/wheels/index.json"] = json.dumps(index, indent=1).encode()
    return out


def clause_index() -> dict[str, str]:
    """Each clause of ``spec/`` and its address from the site's root (``table/clauses.json``:
    where the live examples link the clause a refusal cites)."""
    import spec_pages  # noqa: PLC0415 (a hook module, on the path while mkdocs builds)

    spec = spec_pages.read_spec(ROOT / "spec")
    index = {}
    for clause, uri in spec.clause_pages.items():
        page = uri.removesuffix(".md")
        page = page.removesuffix("index") if page.endswith("/index") else page + "/"
        index[clause] = f"{page}#clause-{clause}"
    return index


PLAY = ROOT / "docs" / "play"
TRIALS = PLAY / "restriction-trials.json"
"""A position and a move for each restriction: one the engine refuses, or, where no move can
break it, one after which the engine has kept it (``scripts/restriction_trials.py`` writes
it)."""

TRANSLATED_KEYS = ("words", "why", "tried")
"""What a restriction of ``restrictions.toml`` says in each translated language
(``words_de``, ...): the words its try shows, and for one no move can break, the reason
(``why``) and its move's words (``tried``)."""


def translations(entry: dict[str, object]) -> dict[str, str]:
    """The words of a restriction in each translated language (``words_de``: the words the
    English page shows, ``tried`` or ``named`` first; ``why_de`` and ``tried_de`` for one no
    move can break), each required: a restriction lacking one fails the build."""
    keys = TRANSLATED_KEYS if "untriable" in entry else TRANSLATED_KEYS[:1]
    out = {}
    for language in languages.TRANSLATED:
        for key in keys:
            text = entry.get(f"{key}_{language}")
            if not isinstance(text, str) or not text.strip():
                clause = entry["clause"]
                raise PluginError(f"restrictions.toml: {clause} has no {key}_{language}")
            out[f"{key}_{language}"] = text
    return out


def restriction_trials() -> dict[str, dict[str, str]]:
    """Each restriction of ``restrictions.toml``: its words, the record to open and the move,
    checked again. A move the engine refuses must still be refused by the restriction's clause;
    the move of a restriction no move can break (``untriable``: its ``why``, and its
    ``heading``, the move's words), applied as legal. A move gone stale fails the build: run
    ``scripts/restriction_trials.py`` again. Each carries its words in the translated
    languages too (``translations``)."""
    import tomllib  # noqa: PLC0415

    import gaia_rules as gr  # noqa: PLC0415
    from gaia_rules.serialization import from_json  # noqa: PLC0415

    listed = tomllib.loads((PLAY / "restrictions.toml").read_text("utf-8"))["restriction"]
    trials = json.loads(TRIALS.read_text("utf-8"))
    out: dict[str, dict[str, str]] = {}
    for entry in listed:
        clause = entry["clause"]
        trial = trials.get(clause)
        if trial is None:
            continue
        game = gr.GameRecord.from_json(trial["record"]).replay()
        action = from_json(trial["action"], gr.Action)
        why = entry.get("untriable")
        try:
            game.apply(action)
        except gr.IllegalActionError as error:
            if why is not None:
                raise PluginError(f"{TRIALS.name}: {clause}'s move is refused ({error})") from None
            if error.clause != clause:
                stale = f"{TRIALS.name}: {clause}'s move is refused by {error.clause}"
                raise PluginError(stale) from None
        else:
            if why is None:
                raise PluginError(f"{TRIALS.name}: {clause}'s move is no longer refused")
        if why is not None:
            words = entry["named"][0]
            out[clause] = {"page": entry["page"], "words": words, "why": why, **trial}
            out[clause]["heading"] = entry.get("tried", words)
        else:
            words = entry.get("tried", entry.get("named", [clause])[0])
            out[clause] = {"page": entry["page"], "words": words, **trial}
        out[clause] |= translations(entry)
    return out


def try_data(clause: str, trial: dict[str, str]) -> dict[str, object]:
    """What the "Try it" of a restriction opens (``assets/tryit.js``): a move refused, tried
    from its record; or, for a restriction no move can break, its record as the start (its
    legal choices outlined) and the move after which the engine has kept it (``kept``)."""
    move = {k: trial[k] for k in ("record", "action")}
    name = f"restriction-{clause}"
    if "why" not in trial:
        refusal = {"heading": trial["words"], "clause": clause, **move}
        return {"name": name, "start": None, "refusals": [refusal]}
    held = {"heading": trial["heading"], "clause": clause, "words": trial["words"], **move}
    return {"name": name, "start": trial["record"], "refusals": [], "kept": [held]}


@event_priority(AFTER_I18N)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add ``table/`` to the site, and the positions of the restrictions to try: once, at
    the site's root, which every language's pages open."""
    trials = restriction_trials()
    _state["trials"] = trials
    if build_language(config) is not None:
        return files
    for uri, content in table_files().items():
        files.append(File.generated(config, uri, content=content))
    index = json.dumps(clause_index(), indent=0).encode()
    files.append(File.generated(config, f"{TABLE}/clauses.json", content=index))
    for clause, trial in trials.items():
        uri = f"rules/try/restriction-{clause}.json"
        files.append(File.generated(config, uri, content=json.dumps(try_data(clause, trial))))
    return files


_state: dict[str, dict[str, dict[str, str]]] = {}


TRY_HEADING = "Try the restrictions"

TRY_INTRO = (
    "Each restriction of this page, live: *Try it* opens a game where it bites, then "
    "*Try the refused move* asks the engine, which refuses it and says why, citing its "
    "clause. A restriction no move can break opens where it is at stake: *Try the move* "
    "(or a move of your own) shows the engine keeping it."
)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Each "How to play" page of a level ends with its restrictions to try, in its language
    (``basic.de.md`` in German: the words of ``restrictions.toml``'s ``words_de``, ...)."""
    import spec_pages  # noqa: PLC0415

    uri = page.file.src_uri
    language = languages.localization(uri)
    english = uri.removesuffix(f".{language}.md") + ".md" if language else uri
    trials = [(c, t) for c, t in _state.get("trials", {}).items() if f"play/{t['page']}" == english]
    if not trials:
        return markdown
    spec = spec_pages.read_spec(ROOT / "spec")
    # raw HTML: its links go from the page's address (``play/basic.de.md`` is served at
    # ``de/play/basic/``); every language's page opens the positions, the script and the
    # table at the site's root, where the default build writes them
    here = english.removesuffix(".md")
    if language:
        here = f"{language}/{here}"
    table = posixpath.relpath("table", here) + "/"
    script = posixpath.relpath("assets/tryit.js", here)
    heading = languages.TRY_HEADING[language] if language else TRY_HEADING
    intro = languages.TRY_INTRO[language] if language else TRY_INTRO
    label = languages.TRY_OPEN[language] if language else "Try it"
    out = [markdown.rstrip(), "", f"## {heading}", "", intro, ""]
    for clause, trial in trials:
        src = posixpath.relpath(f"rules/try/restriction-{clause}.json", here)
        link = spec.clause_link(clause, uri)
        said = "" if language is None else f"_{language}"
        words = trial[f"words{said}"]
        why = f": {trial[f'why{said}']}" if "why" in trial else ""
        # a translated page's box carries its words, which the position's file (at the root,
        # for every language) gives in English: the move's heading, and what held
        own = ""
        if language:
            move = trial[f"tried{said}"] if "why" in trial else words
            own = f' data-heading="{html.escape(move)}" data-words="{html.escape(words)}"'
        out += [
            f"- {words} ([{clause}]({link})){why}",
            "",
            f'    <div class="gaia-try" data-try="restriction-{clause}" data-src="{src}" '
            f'data-table="{table}"{own}><button type="button" class="md-button gaia-try-open" '
            f"data-try-open>{label}</button></div>",
            "",
        ]
    out += [f'<script type="module" src="{script}"></script>', ""]
    return "\n".join(out)


def copy_bundle(target: Path) -> None:
    """Write ``table/`` into the folder ``target`` (for the tests and the benchmark)."""
    if target.exists():
        shutil.rmtree(target)
    for uri, content in table_files().items():
        path = target / uri
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
