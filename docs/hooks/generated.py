"""Files the build writes itself, placed for the language being built.

The i18n plugin builds the default language at the site's root, then each other language
under its code; a hook that adds a page, a picture or a data file calls :func:`generated`,
so that each language's site links its own copy, and runs its ``on_files`` after the
plugin's (which reads files from ``docs/`` only).
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

AFTER_I18N = -110
"""The ``event_priority`` of a hook's ``on_files`` that adds files: after the i18n plugin's
(-100)."""


def build_language(config: MkDocsConfig) -> str | None:
    """The language of the site being built when it is not the default one (``"de"``), or
    None: the i18n plugin builds the default language at the root, then each other language
    under its code."""
    plugin = config.plugins.get("i18n")
    current = getattr(plugin, "current_language", None)
    default = getattr(plugin, "default_language", None)
    return current if isinstance(current, str) and current != default else None


def generated(config: MkDocsConfig, uri: str, content: str | bytes) -> File:
    """A generated file, under the language's folder in another language's build
    (``de/rules/05-turn/``)."""
    file = File.generated(config, uri, content=content)
    language = build_language(config)
    if language is not None:
        file.dest_uri = f"{language}/{file.dest_uri}"
    return file
