"""The release procedure's script (``scripts/release.py``): the changelog's Unreleased section
becomes a dated one, and the version is written in its one place."""

from __future__ import annotations

import datetime
import tomllib
from pathlib import Path

import pytest

import gaia_rules as gr
from tests.loading import load_file

ROOT = Path(__file__).resolve().parent.parent


release = load_file("release", ROOT / "scripts" / "release.py")

CHANGELOG = """# Changelog

Intro.

## [Unreleased]

### Added
- A new thing.

### Fixed
- A bug.

## [0.1.0] - 2026-12-01

### Added
- The first thing.
"""
DAY = datetime.date(2027, 1, 15)


def test_unreleased_becomes_the_dated_section_under_a_new_empty_unreleased() -> None:
    text = release.dated_changelog(CHANGELOG, "0.2.0", DAY)
    assert text == CHANGELOG.replace(
        "## [Unreleased]\n", "## [Unreleased]\n\n## [0.2.0] - 2027-01-15\n"
    )
    # the section just released is the one the next release finds already dated
    again = release.dated_changelog(
        text.replace("## [0.2.0]", "- Later.\n\n## [0.2.0]"), "0.3.0", DAY
    )
    assert again.index("## [0.3.0] - 2027-01-15") < again.index("- Later.")
    assert again.index("- Later.") < again.index("## [0.2.0]")


@pytest.mark.parametrize(
    ("text", "version", "says"),
    [
        (CHANGELOG, "0.2", "MAJOR.MINOR.PATCH"),
        (CHANGELOG, "0.2.0.dev0", "MAJOR.MINOR.PATCH"),
        (CHANGELOG, "0.1.0", "already has a section for 0.1.0"),
        (CHANGELOG.replace("## [Unreleased]", "## Next"), "0.2.0", "exactly one"),
        (CHANGELOG.replace("- A new thing.\n", "").replace("- A bug.\n", ""), "0.2.0", "no change"),
    ],
)
def test_what_cannot_be_released_is_refused_with_the_reason(
    text: str, version: str, says: str
) -> None:
    with pytest.raises(release.ReleaseError, match=says):
        release.dated_changelog(text, version, DAY)


def test_the_version_is_written_in_its_one_place() -> None:
    text = (ROOT / "src" / "gaia_rules" / "_version.py").read_text(encoding="utf-8")
    assert f'__version__ = "{gr.__version__}"' in text
    assert '__version__ = "0.2.0"' in release.with_version(text, "0.2.0")
    with pytest.raises(release.ReleaseError, match="exactly one"):
        release.with_version(text + text, "0.2.0")
    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/gaia_rules/_version.py"


def test_the_check_names_what_is_missing() -> None:
    problems = release.check("99.0.0")
    assert any("_version.py" in problem for problem in problems)
    assert any("no dated section '## [99.0.0]" in problem for problem in problems)
