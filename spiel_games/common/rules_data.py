"""Rules data files (rules.toml) with a source for every number.

Every fact is a table with ``value`` and ``source``. Published numbers cite
where they come from; unpublished ones say ``source = "assumed"`` and give a
one-line ``reason``. Facts may be grouped in nested tables; their key is the
dotted path. Example::

    [deck]
    cards_per_colour = { value = 9, source = "rulebook: components" }
    [twoplayer]
    row_capacities = { value = [1, 2, 3], source = "assumed", reason = "..." }
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Fact:
    key: str
    value: object
    source: str
    reason: str = ""

    @property
    def assumed(self) -> bool:
        return self.source == "assumed"


class RulesData:
    def __init__(self, facts: dict[str, Fact], meta: dict):
        self.facts = facts
        self.meta = meta

    def __getitem__(self, key: str):
        try:
            return self.facts[key].value
        except KeyError:
            raise KeyError(f"rules data has no fact {key!r}") from None

    def assumptions(self) -> list[str]:
        return [f"{f.key} = {f.value!r}: {f.reason}" for f in self.facts.values() if f.assumed]


def _walk(prefix: str, table: dict, out: dict[str, Fact]) -> None:
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict) and "value" in v:
            source = v.get("source")
            if not isinstance(source, str) or not source:
                raise ValueError(f"rules fact {key!r} has no source")
            reason = v.get("reason", "")
            if source == "assumed" and not reason:
                raise ValueError(f"assumed rules fact {key!r} needs a one-line reason")
            extra = set(v) - {"value", "source", "reason"}
            if extra:
                raise ValueError(f"rules fact {key!r} has unknown fields {sorted(extra)}")
            out[key] = Fact(key, v["value"], source, reason)
        elif isinstance(v, dict):
            _walk(key, v, out)
        else:
            raise ValueError(f"rules entry {key!r} must be a table with value and source")


def parse_rules(text: str) -> RulesData:
    data = tomllib.loads(text)
    meta = data.pop("meta", {})
    facts: dict[str, Fact] = {}
    _walk("", data, facts)
    return RulesData(facts, meta)


def load_rules(package: str, filename: str = "rules.toml") -> RulesData:
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return parse_rules(text)
