"""The budgets of the engine in the browser (the docs site's static table and live examples),
measured in Debian's chromium on this machine, beside native CPython in the same run:

1. the first live position: from opening ``table/`` to the engine ready and a position opened
   and drawn (the ``board`` of a pictured situation), with a cold cache (a new browser
   profile) and a warm one (the same page opened again, once the first start has kept its
   snapshot); targets 3 s warm, 10 s cold; with the parts of each start (the worker's
   ``timings``: ``runtime``, Pyodide started, or restored from the snapshot; ``imports``;
   ``snapshot``, made; ``read``, the snapshot read from the browser's storage), and which
   start it was (``fresh`` or ``snapshot``);
2. a decision: the same bots' decisions of the same seeded games through the engine's JSON
   (``{"op": "bot"}``: the bot's choice and the action applied), in the Web Worker under
   Pyodide and here under native CPython (``gaia_rules.web.inbrowser.Engine``, the anchor);
   target: within 2x;
3. the bundle: every file of ``table/``, raw and compressed (gzip -9, as a static host serves
   it); aim: 15 MB or less compressed.

    python benchmarks/static_bench.py [--runs 3] [--decisions 300]

Needs /usr/bin/chromium, Playwright and the npm package pyodide (as the site's hook finds it).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import importlib.util
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from gaia_rules.web.inbrowser import Engine

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
GAMES = ((4, "greedy", 11), (3, "greedy", 12), (2, "search", 13))
"""The games whose decisions are timed: players, bot (every seat), seed."""


def _hook(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "hooks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


FIRST_POSITION = """async (record) => {
  const engine = window.gaia.engine;
  await engine.ready;
  const opened = await engine.openPosition(record);
  await engine.ask("board", { game: opened.game });
  return performance.now();
}"""

KEPT = "document.documentElement.dataset.engineKept === 'snapshot'"

DECISIONS = """async ([games, limit]) => {
  const engine = window.gaia.engine;
  let ms = 0, count = 0;
  for (const [players, bot, seed] of games) {
    const created = await engine.ask("create", { players, bots: Array(players).fill(bot), seed });
    const each = Math.floor(limit / games.length);
    for (let i = 0; i < each; i++) {
      const { data, ms: took } = await engine.ask("bot", { game: created.game }, { repeat: 1 });
      if (!data.ok) break;
      ms += took;
      count += 1;
    }
  }
  return [ms, count];
}"""


def native_decisions(limit: int) -> tuple[float, int]:
    """The same decisions under native CPython: milliseconds and how many."""
    engine = Engine()
    ms = 0.0
    count = 0
    for players, bot, seed in GAMES:
        request = {"op": "create", "players": players, "bots": [bot] * players, "seed": seed}
        game = json.loads(engine.handle(json.dumps(request)))["game"]
        for _ in range(limit // len(GAMES)):
            started = time.perf_counter()
            answer = json.loads(engine.handle(json.dumps({"op": "bot", "game": game})))
            took = (time.perf_counter() - started) * 1000
            if not answer.get("ok"):
                break
            ms += took
            count += 1
    return ms, count


def bundle_sizes(site: Path) -> tuple[int, int]:
    """The bytes of every file of ``table/``, raw and gzip -9."""
    raw = packed = 0
    for path in sorted((site / "table").rglob("*")):
        if path.is_file():
            content = path.read_bytes()
            raw += len(content)
            packed += len(gzip.compress(content, 9))
    return raw, packed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=300)
    options = parser.parse_args()
    table = _hook("static_table")
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        table.copy_bundle(site)
        record = _hook("pictures").tell("tile-placement").start
        handler = functools.partial(_Quiet, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}/table/"
        cold: list[float] = []
        warm: list[float] = []
        parts: dict[str, list[dict[str, Any]]] = {"cold": [], "warm": []}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for _ in range(options.runs):
                context = browser.new_context()
                page = context.new_page()
                for name, kind in (("cold", cold), ("warm", warm)):
                    page.goto(url)
                    page.wait_for_function("window.gaia && window.gaia.engine")
                    kind.append(page.evaluate(FIRST_POSITION, record) / 1000)
                    parts[name].append(page.evaluate("window.gaia.engine.timings"))
                    if name == "cold":  # the snapshot kept, as a reader's next visit finds it
                        page.wait_for_function(KEPT, timeout=120_000)
                context.close()
            context = browser.new_context()
            page = context.new_page()
            page.goto(url)
            page.wait_for_function("window.gaia && window.gaia.engine")
            page.evaluate(FIRST_POSITION, record)
            worker_ms, worker_count = page.evaluate(DECISIONS, [GAMES, options.decisions])
            timings = page.evaluate("window.gaia.engine.timings")
            context.close()
            browser.close()
        server.shutdown()
        native_ms, native_count = native_decisions(options.decisions)
        raw, packed = bundle_sizes(site)
    print(f"Python here: {sys.version.split()[0]}; in the worker: {timings['python']}")
    print("1. first live position (engine ready, a pictured position opened and drawn)")
    for name, times, target in (("cold", cold, 10), ("warm", warm, 3)):
        listed = [round(t, 2) for t in times]
        median = statistics.median(times)
        print(f"   {name} cache: median {median:.2f} s of {listed} (target {target} s)")
    for name, starts in parts.items():
        kinds = sorted({str(start.get("start")) for start in starts})
        split = {
            key: round(statistics.median(float(start.get(key, 0)) for start in starts) / 1000, 2)
            for key in ("read", "runtime", "wheels", "imports", "snapshot", "total")
            if any(key in start for start in starts)
        }
        print(f"   {name} starts ({', '.join(kinds)}), medians in parts (s): {split}")
    assert worker_count == native_count, (worker_count, native_count)
    per_worker = worker_ms / worker_count
    per_native = native_ms / native_count
    games = ", ".join(f"{p}-player {b}" for p, b, _ in GAMES)
    print(f"2. a decision ({worker_count} of {games} games)")
    print(f"   native CPython (anchor): {per_native:.2f} ms a decision")
    ratio = per_worker / per_native
    print(f"   Web Worker, Pyodide:     {per_worker:.2f} ms a decision, {ratio:.2f}x (target 2x)")
    print("3. the bundle (table/: runtime, wheels, page)")
    print(f"   {raw / 1e6:.1f} MB raw, {packed / 1e6:.1f} MB gzip -9 (aim 15 MB)")


if __name__ == "__main__":
    main()
