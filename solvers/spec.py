"""Agent spec strings: ``kind`` or ``kind(key=value,...)``.

Values are parsed as int, float, bool (true/false) or left as strings. Parsing is
pure; validation against an agent kind's parameters happens in the registry
(``solvers.registry.resolve``, which returns an ``AgentSpec`` value).
"""

from __future__ import annotations

import re

from spiel_games.common.errors import MeepleError

_SPEC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*(?:\((.*)\))?\s*$", re.S)
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class AgentSpecError(MeepleError):
    """A malformed or unknown agent spec; the message is one line for the user."""


def parse_value(text: str):
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        pass
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return t


def _split_args(body: str) -> list[str]:
    """Split on commas that are not inside brackets or quotes."""
    parts, depth, quote, cur = [], 0, "", []
    for ch in body:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """'mcts(sims=800,uct_c=1.4)' -> ('mcts', {'sims': 800, 'uct_c': 1.4})."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("empty agent spec")
    m = _SPEC.match(spec)
    if not m:
        raise AgentSpecError(f"malformed agent spec {spec!r}: expected kind or kind(key=value,...)")
    kind, body = m.group(1), m.group(2)
    params: dict[str, object] = {}
    if body is not None and body.strip():
        for part in _split_args(body):
            if "=" not in part:
                raise AgentSpecError(
                    f"malformed parameter {part.strip()!r} in {spec!r}: expected key=value"
                )
            key, value = part.split("=", 1)
            key = key.strip()
            if not _KEY.match(key):
                raise AgentSpecError(f"malformed parameter name {key!r} in {spec!r}")
            if key in params:
                raise AgentSpecError(f"parameter {key!r} given twice in {spec!r}")
            params[key] = parse_value(value)
    return kind, params


def format_spec(kind: str, params: dict[str, object]) -> str:
    if not params:
        return kind
    return f"{kind}(" + ",".join(f"{k}={params[k]}" for k in sorted(params)) + ")"


def is_single_value(value: object) -> bool:
    """Whether ``value`` written into a spec stays one parameter's value: not text such as
    ``"5,time=3"`` that would set another parameter, or ``"a)"`` that breaks the spec."""
    if isinstance(value, str) and (not value.strip() or not value.isprintable()):
        return False  # empty, or a newline or control character inside the spec text
    try:
        return list(parse_spec(format_spec("x", {"k": value}))[1]) == ["k"]
    except AgentSpecError:
        return False
