"""The README is the project's page on PyPI too, where a relative link or picture is broken: each
of its links is absolute, to the repository or the documentation site that ``[project.urls]``
names, and each points at a file or page that exists. (``nox -s dist`` checks that PyPI can
render it: ``twine check --strict``.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
"""A Markdown link or picture: its target."""


def urls() -> dict[str, str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        found: dict[str, str] = tomllib.load(file)["project"]["urls"]
    return found


def targets() -> list[str]:
    return LINK.findall(README.read_text(encoding="utf-8"))


def test_the_project_names_its_pages() -> None:
    assert set(urls()) == {"Documentation", "Source", "Changelog", "Issues"}
    source = urls()["Source"]
    assert all(url.startswith(("https://", "http://")) for url in urls().values())
    assert urls()["Changelog"].startswith(f"{source}/blob/")
    assert urls()["Issues"] == f"{source}/issues"


def test_every_link_of_the_readme_is_absolute() -> None:
    assert targets(), "the README has links"
    relative = [target for target in targets() if not target.startswith(("https://", "#"))]
    assert relative == []


def test_every_link_into_the_project_points_at_what_exists() -> None:
    source = urls()["Source"]
    docs = urls()["Documentation"]
    raw = source.replace("https://github.com/", "https://raw.githubusercontent.com/")
    for target in targets():
        path = target.split("#", 1)[0]
        if path.startswith(f"{source}/blob/main/"):
            assert (ROOT / path.removeprefix(f"{source}/blob/main/")).is_file(), target
        elif path.startswith(f"{raw}/main/"):
            assert (ROOT / path.removeprefix(f"{raw}/main/")).is_file(), target
        elif path.startswith(docs):
            page = path.removeprefix(docs).removeprefix("latest/").strip("/")
            assert (ROOT / "docs" / f"{page}.md").is_file() or (
                ROOT / "docs" / page / "index.md"
            ).is_file(), target
        else:
            assert path == source or "gaia-rules" not in path, f"{target}: not the project's URLs"
