"""Is already-parsed data shaped as JSON could have produced it?

Readers that accept already-parsed data (``from_data``, ``Rules.from_dict``,
``Manifest.from_dict``) may be handed dicts that no JSON text can describe: keys that are
numbers, booleans or ``None``. :func:`non_text_key` finds the first such key, so the reader
can refuse it with its own typed error instead of failing somewhere deeper.
"""

from __future__ import annotations

from typing import Any

__all__ = ["non_text_key"]


def non_text_key(data: Any) -> str | None:
    """The path (``$.actions[3]``) of the first dict holding a key that is not a text, if any.

    Walks with an explicit stack, so arbitrarily deep data cannot exhaust the call stack.
    """
    # Hot path: every document read walks its whole data here, and almost all of it is
    # well formed, so the first walk keeps no paths; only a refusal walks again to name one.
    stack: list[Any] = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key in value:
                if not isinstance(key, str):
                    return _path_of_non_text_key(data)
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return None


def _path_of_non_text_key(data: Any) -> str | None:
    stack: list[tuple[str, Any]] = [("$", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return f"{path}: key {key!r} is not a text"
                stack.append((f"{path}.{key}", item))
        elif isinstance(value, list | tuple):
            stack.extend((f"{path}[{i}]", item) for i, item in enumerate(value))
    return None
