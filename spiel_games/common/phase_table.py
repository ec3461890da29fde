"""The phase table of the engine (spiel_games.common.engine): every phase's hooks, found by
their names, checked for coverage when a game is imported; and the generated copier of a
game's core."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any

import pyspiel

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
HOOK_KINDS = ("outcomes", "legal", "apply")

Core = Any  # each game's own __slots__ class (engine.py's docstring lists its engine slots)


class PhaseTableError(ValueError):
    """A phase table that does not cover its phases (raised when the game is imported)."""


def _not_chance(c: Core) -> list[tuple[int, float]]:
    raise ValueError("chance_outcomes called at a player node")


def _game_over(c: Core) -> list[tuple[int, float]]:
    raise ValueError("the game is over")


def _no_legal(c: Core) -> list[int]:
    return []


def _no_apply(c: Core, action: int) -> None:
    raise ValueError("the game is over")


class PhaseTable:
    """The hooks of every phase, indexed by phase id, and who moves in each phase."""

    __slots__ = (
        "phases",
        "outcomes",
        "legal",
        "apply",
        "mover",
        "chance",
        "end",
        "actor",
        "record",
    )

    def __init__(
        self,
        phases: type[enum.IntEnum],
        outcomes: tuple[Callable, ...],
        legal: tuple[Callable, ...],
        apply: tuple[Callable, ...],
        chance: frozenset[int],
        end: int,
        actor: Callable[[Core], int],
        record: Callable[[Core, int], None] | None = None,
    ):
        self.phases = phases
        self.outcomes = outcomes
        self.legal = legal
        self.apply = apply
        self.chance = chance
        self.end = end
        # per phase: CHANCE, TERMINAL, or None where actor(core) decides
        self.mover: tuple[int | None, ...] = tuple(
            CHANCE if ph in chance else TERMINAL if ph == end else None for ph in range(len(apply))
        )
        self.actor = actor
        self.record = record

    def mover_of(self, c: Core) -> int:
        """The player to decide at core ``c`` (CHANCE, TERMINAL or a player id)."""
        m = self.mover[c.phase]
        return self.actor(c) if m is None else m


def _hook_names(sources: Iterable[ModuleType | Mapping[str, Any]]) -> dict[str, Callable]:
    found: dict[str, Callable] = {}
    for src in sources:
        names = vars(src) if isinstance(src, ModuleType) else src
        for name, obj in names.items():
            if not callable(obj) or name.split("_", 1)[0] not in HOOK_KINDS or "_" not in name:
                continue
            if name in found and found[name] is not obj:
                raise PhaseTableError(f"hook {name} is defined twice")
            found[name] = obj
    return found


def _recorded(record: Callable[[Core, int], None], hook: Callable) -> Callable:
    """``hook`` preceded by ``record`` (the move noted before it is applied)."""

    def apply(c: Core, action: int) -> None:
        record(c, action)
        hook(c, action)

    return apply


def phase_table(
    phases: type[enum.IntEnum],
    sources: Iterable[ModuleType | Mapping[str, Any]],
    *,
    chance: Iterable[int],
    end: int,
    actor: Callable[[Core], int],
    record: Callable[[Core, int], None] | None = None,
) -> PhaseTable:
    """The table of a game's phases, from the hooks defined in ``sources`` (modules or
    name -> function mappings). ``actor(core)`` names the player to decide in a player
    phase; ``record(core, action)``, if given, notes each move before it is applied (a
    game that keeps its own move log). Raises PhaseTableError unless every phase has exactly its hooks (named after
    the phase in lower case) and every hook names a phase."""
    chance = frozenset(int(p) for p in chance)
    ids = [int(p) for p in phases]
    if sorted(ids) != list(range(len(ids))):
        raise PhaseTableError(f"{phases.__name__} ids must be 0..{len(ids) - 1}")
    hooks = _hook_names(sources)
    by_name = {p.name.lower(): int(p) for p in phases}
    stray = [n for n in hooks if n.split("_", 1)[1] not in by_name]
    if stray:
        raise PhaseTableError(f"hooks naming no phase of {phases.__name__}: {sorted(stray)}")
    wrong = []
    for name, ph in by_name.items():
        want = set() if ph == end else {"outcomes", "apply"} if ph in chance else {"legal", "apply"}
        have = {kind for kind in HOOK_KINDS if f"{kind}_{name}" in hooks}
        wrong += [f"{k}_{name} is missing" for k in sorted(want - have)]
        wrong += [f"{k}_{name} is not allowed" for k in sorted(have - want)]
    if wrong:
        raise PhaseTableError(f"{phases.__name__}: " + "; ".join(wrong))
    order = sorted(by_name.items(), key=lambda item: item[1])

    def column(kind: str, default: Callable, other: Callable | None = None) -> tuple:
        out = []
        for name, ph in order:
            hook = hooks.get(f"{kind}_{name}")
            out.append(hook if hook is not None else (other if ph == end and other else default))
        return tuple(out)

    apply = column("apply", _no_apply)
    if record is not None:  # the few games that keep a move log pay for it, not the others
        apply = tuple(hook if hook is _no_apply else _recorded(record, hook) for hook in apply)
    return PhaseTable(
        phases,
        outcomes=column("outcomes", _not_chance, _game_over),
        legal=column("legal", _no_legal),
        apply=apply,
        chance=chance,
        end=end,
        actor=actor,
        record=record,
    )


def install_copier(core_class: type, lists: Iterable[str] = ()) -> None:
    """Give a core class its ``__deepcopy__``: straight-line code (a getattr/setattr loop
    costs several times more) that shares every slot's value, copies the ``lists`` slots
    (the few mutable lists a game edits in place) and marks the copy ``owned``."""
    lists = set(lists)
    lines = ["def __deepcopy__(self, memo=None):", "    c = _new(cls)"]
    for k in getattr(core_class, "__slots__", ()):
        if k == "owned":
            lines.append("    c.owned = True")
        elif k in lists:
            lines.append(f"    c.{k} = self.{k}[:]")
        else:
            lines.append(f"    c.{k} = self.{k}")
    lines.append("    return c")
    scope = {"cls": core_class, "_new": object.__new__}
    exec("\n".join(lines), scope)  # noqa: S102 - generated from the class's own slot names
    core_class.__deepcopy__ = scope["__deepcopy__"]  # type: ignore[attr-defined]
