"""The ``gaia-rules`` command line: parse the arguments, run one command, map its failures
to exit statuses (0 done, 1 a failure such as a bad record or file, 2 a usage error).

Commands: ``demo`` (a seeded game between bots, printed), ``simulate`` (many games between
bots, and who wins), ``replay`` (check a record and print it), ``play`` (a person against
bots in the terminal), ``serve`` (the game server and its page, with the ``web`` extra) and
``schema`` (the JSON Schema of the wire format).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from gaia_rules._version import __version__
from gaia_rules.bots import BOTS
from gaia_rules.cli import demo, play, replay, serve, simulate
from gaia_rules.cli.common import (
    CommandError,
    Console,
    LineSource,
    UsageError,
    add_game_options,
)
from gaia_rules.errors import GaiaRulesError

__all__ = ["main"]

_EXAMPLES = argparse.RawDescriptionHelpFormatter


def _schema(args: argparse.Namespace, console: Console) -> int:
    from gaia_rules.schema import render  # noqa: PLC0415 (only this command needs it)

    console.out.write(render())
    return 0


def _bots_help(what: str) -> str:
    return (
        f"{what}; the bots: {', '.join(sorted(BOTS))} (default random); search:P[:H[:W]] searches "
        "with P playouts per decision, of H decisions each, over the W best candidates; "
        "ismcts:I[:H[:W]] searches a tree of information sets, I iterations per decision "
        "(strong is ismcts:300:32:8); policy:FILE plays a saved policy (the rl extra)"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gaia-rules",
        description="The rules engine for the card-and-tile game Gaïa: play, simulate and "
        "replay games from the command line.",
        epilog="examples:\n"
        "  gaia-rules demo --players 4 --seed 2024\n"
        "  gaia-rules simulate --games 200 --bots greedy,random --jobs 4\n"
        "  gaia-rules replay game.json --seat 1\n"
        "  gaia-rules play --players 3 --bots greedy\n"
        "  gaia-rules serve --port 8000\n"
        "\nRun 'gaia-rules COMMAND --help' for a command's options.",
        formatter_class=_EXAMPLES,
    )
    parser.add_argument("--version", action="version", version=f"gaia-rules {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo_parser = commands.add_parser(
        "demo",
        help="play a seeded game between bots and print it",
        description="Play a seeded game between bots; print its events in the action "
        "notation, then the final world. The same seed and bots print the same game.",
        epilog="examples:\n"
        "  gaia-rules demo --players 4 --seed 2024\n"
        "  gaia-rules demo --level disasters --bots greedy,random,random",
        formatter_class=_EXAMPLES,
    )
    add_game_options(demo_parser)
    demo_parser.add_argument("--seed", type=int, default=2024, help="the seed (default 2024)")
    demo_parser.add_argument(
        "--bots",
        default="random",
        help=_bots_help("one name per seat, a shorter line-up repeated around the table"),
    )
    demo_parser.set_defaults(run=demo.run)

    sim = commands.add_parser(
        "simulate",
        help="play many games between bots and count who wins",
        description="Play many seeded games between bots and print who won them: wins by "
        "bot (with a 95% interval) and by seat, how the games ended, their length and "
        "the speed. Game i is seeded from --seed and i, and the bots rotate one seat per "
        "game, so the results are the same whatever --jobs is.",
        epilog="examples:\n"
        "  gaia-rules simulate --games 1000 --players 2 --bots greedy,random --jobs 0\n"
        "  gaia-rules simulate --games 100 --level powers --records games/ --json\n"
        "  gaia-rules simulate --games 10000 --backend ray --address ray://head:10001 --ship\n"
        "  gaia-rules simulate --games 400 --players 2 --bots policy:agent.npz,random",
        formatter_class=_EXAMPLES,
    )
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    add_game_options(sim)
    sim.add_argument(
        "--bots",
        default="random",
        help=_bots_help(
            "one name per seat, a shorter line-up repeated around the table (the line-up of game 0)"
        ),
    )
    sim.add_argument("--seed", type=int, default=0, help="the base seed (default 0)")
    sim.add_argument(
        "--jobs", type=int, default=1, help="processes to play in (0: one per processor)"
    )
    sim.add_argument(
        "--records", metavar="DIR", help="write each game's record (JSON) into this folder"
    )
    sim.add_argument(
        "--backend",
        choices=simulate.BACKENDS,
        default="processes",
        help="where to play: local processes (default), or a Ray cluster (the ray extra; "
        "--jobs is then the size of a local cluster)",
    )
    sim.add_argument(
        "--address",
        metavar="ADDR",
        help="the Ray cluster to join (ray://host:10001, or auto); default: start a local one",
    )
    sim.add_argument(
        "--runtime-env",
        metavar="JSON",
        help="Ray's runtime environment for the workers, as JSON or @FILE (with --backend ray)",
    )
    sim.add_argument(
        "--ship",
        action="store_true",
        help="send this gaia-rules to the Ray workers, which then need only Ray",
    )
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument(
        "--quiet", action="store_true", help="no progress bar (shown only on a terminal)"
    )
    sim.set_defaults(run=simulate.run)

    rep = commands.add_parser(
        "replay",
        help="check a game record and print the game",
        description="Read a game record (JSON, as written by 'simulate --records' or "
        "game.record().to_json()), replay it checking every action, and print the game: "
        "its events, the final world and the result. A record that does not replay is "
        "reported with the index of the first diverging action (exit status 1).",
        epilog="examples:\n"
        "  gaia-rules replay game.json\n"
        "  gaia-rules replay game.json --seat 2\n"
        "  gaia-rules replay game.json --svg world.svg",
        formatter_class=_EXAMPLES,
    )
    rep.add_argument("file", metavar="FILE", help="the record to replay")
    rep.add_argument("--seat", type=int, help="print the game as this seat saw it (no hidden card)")
    rep.add_argument("--svg", metavar="OUT", help="write the final world as SVG to OUT")
    rep.set_defaults(run=replay.run)

    ply = commands.add_parser(
        "play",
        help="play a seat in the terminal against bots",
        description="Play one seat against bots. You see your view of the table (your "
        "hand, the displays, the world) at your first decision, then what changed before "
        "each; answer with a number or an action in the notation (card ids in any case). "
        "'view' shows the whole table, and 'help' and 'quit' work at every prompt.",
        epilog="examples:\n"
        "  gaia-rules play\n"
        "  gaia-rules play --players 3 --seat 1 --bots greedy --seed 7",
        formatter_class=_EXAMPLES,
    )
    add_game_options(ply, players=2)
    ply.add_argument("--seat", type=int, default=0, help="your seat (default 0, who begins)")
    ply.add_argument(
        "--bots",
        default="random",
        help=_bots_help("one name per other seat, a shorter line-up repeated around them"),
    )
    ply.add_argument("--seed", type=int, help="the seed (default: a fresh one, shown at the end)")
    ply.add_argument("--record", metavar="FILE", help="write the game's record here at the end")
    ply.set_defaults(run=play.run)

    srv = commands.add_parser(
        "serve",
        help="run the game server: play in a browser",
        description="Run the game server and its page: open the printed link in a browser, "
        "create a game (any level, 2-5 seats, bots in any seat) and send each player the "
        "link of their seat. Games are kept in a SQLite file (or a PostgreSQL database, which "
        "several server processes may share) and resume when the server starts again. "
        "Needs the web extra: pip install 'gaia-rules[web]'.",
        epilog="examples:\n"
        "  gaia-rules serve\n"
        "  gaia-rules serve --host 0.0.0.0 --port 8080 --db games.sqlite3\n"
        "  gaia-rules serve --port 8001 --db postgresql://gaia@localhost/gaia --proxy 127.0.0.1",
        formatter_class=_EXAMPLES,
    )
    serve.add_arguments(srv)
    srv.set_defaults(run=serve.run)

    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of the wire format",
        description="Print the JSON Schema of the wire format (actions, events, decisions, "
        "views, states, positions, records, rules, manifests).",
        epilog="example:\n  gaia-rules schema > gaia-rules.schema.json",
        formatter_class=_EXAMPLES,
    )
    schema.set_defaults(run=_schema)
    return parser


def _quiet_stdout(console: Console) -> None:
    """After a broken pipe, point the process's standard output at nothing, so that the
    interpreter's last flush does not fail again."""
    if console.out is sys.stdout:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: LineSource | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line with ``argv`` (default: the process's arguments); returns the
    exit status: 0 done, 1 a failure (bad record, unreadable or unwritable file, a game
    that failed), 2 a usage error. Never raises; the streams may be replaced (for tests)."""
    console = Console(
        out=sys.stdout if stdout is None else stdout,
        err=sys.stderr if stderr is None else stderr,
        inp=sys.stdin if stdin is None else stdin,
    )
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error
        return exc.code if isinstance(exc.code, int) else 2
    try:
        status: int = args.run(args, console)
        console.out.flush()
    except UsageError as exc:
        console.err.write(f"gaia-rules: {args.command}: {exc}\n")
        return 2
    except (CommandError, GaiaRulesError, OSError) as exc:
        if isinstance(exc, BrokenPipeError):
            _quiet_stdout(console)
            return 0
        console.err.write(f"gaia-rules: {exc}\n")
        return 1
    except KeyboardInterrupt:
        console.err.write("\ngaia-rules: interrupted\n")
        return 130
    return status
