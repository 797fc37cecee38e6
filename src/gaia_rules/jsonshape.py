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
