"""Prepare a release: the changelog's "Unreleased" section becomes the release's dated section
(a new, empty "Unreleased" above it) and ``src/gaia_rules/_version.py``, the one place the
version is written, takes the release's version.

    python scripts/release.py 0.2.0                 # today's date (UTC)
    python scripts/release.py 0.2.0 --date 2027-01-15
    python scripts/release.py --check 0.2.0         # the tree is release 0.2.0 (CI, on a tag)

CONTRIBUTING.md ("Making a release") gives the whole procedure: this, a commit, a tag.
"""

from __future__ import annotations

import argparse
import datetime
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHANGELOG = ROOT / "CHANGELOG.md"
VERSION_FILE = ROOT / "src" / "gaia_rules" / "_version.py"

RELEASE = re.compile(r"\d+\.\d+\.\d+")
"""A release's version: MAJOR.MINOR.PATCH (no pre-release or development suffix)."""
UNRELEASED = "## [Unreleased]"
VERSION_LINE = re.compile(r'^__version__ = "([^"]+)"$', re.M)


class ReleaseError(Exception):
    """What stops the release, said so that it can be fixed."""


def dated_changelog(text: str, version: str, date: datetime.date) -> str:
    """``text`` with its "Unreleased" section titled ``version`` and ``date`` and a new, empty
    "Unreleased" section above it."""
    if not RELEASE.fullmatch(version):
        raise ReleaseError(f"a release's version is MAJOR.MINOR.PATCH, not {version!r}")
    if f"## [{version}]" in text:
        raise ReleaseError(f"the changelog already has a section for {version}")
    if text.count(UNRELEASED) != 1:
        raise ReleaseError(f"the changelog needs exactly one {UNRELEASED!r} heading")
    start = text.index(UNRELEASED) + len(UNRELEASED)
    following = text.find("\n## [", start)
    body = text[start : following if following != -1 else len(text)]
    if not re.search(r"^- ", body, re.M):
        raise ReleaseError("the Unreleased section lists no change: nothing to release")
    heading = f"{UNRELEASED}\n\n## [{version}] - {date.isoformat()}"
    return text.replace(UNRELEASED, heading, 1)


def with_version(text: str, version: str) -> str:
    """The text of ``_version.py`` with ``version`` in it."""
    if len(VERSION_LINE.findall(text)) != 1:
        raise ReleaseError(f"{VERSION_FILE.name} must hold exactly one __version__ line")
    return VERSION_LINE.sub(f'__version__ = "{version}"', text)


def check(version: str) -> list[str]:
    """What keeps this tree from being release ``version`` (nothing: it is)."""
    problems = []
    found = VERSION_LINE.findall(VERSION_FILE.read_text(encoding="utf-8"))
    if found != [version]:
        problems.append(f"{VERSION_FILE.relative_to(ROOT)} says {found}, not {version!r}")
    dated = re.compile(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", re.M)
    if not dated.search(CHANGELOG.read_text(encoding="utf-8")):
        problems.append(f"CHANGELOG.md has no dated section '## [{version}] - YYYY-MM-DD'")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("version", help="the release's version, MAJOR.MINOR.PATCH")
    parser.add_argument("--date", type=datetime.date.fromisoformat, help="YYYY-MM-DD")
    parser.add_argument("--check", action="store_true", help="only check the tree is it")
    args = parser.parse_args()
    if args.check:
        problems = check(args.version)
        for problem in problems:
            print(problem)
        raise SystemExit(1 if problems else 0)
    date = args.date or datetime.datetime.now(datetime.UTC).date()
    try:
        changelog = dated_changelog(CHANGELOG.read_text(encoding="utf-8"), args.version, date)
        version_file = with_version(VERSION_FILE.read_text(encoding="utf-8"), args.version)
    except ReleaseError as error:
        raise SystemExit(f"release.py: {error}") from None
    CHANGELOG.write_text(changelog, encoding="utf-8")
    VERSION_FILE.write_text(version_file, encoding="utf-8")
    print(f"CHANGELOG.md and {VERSION_FILE.relative_to(ROOT)} now say {args.version} ({date})")


if __name__ == "__main__":
    main()
