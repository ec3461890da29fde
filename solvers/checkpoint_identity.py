"""A checkpoint's identity against this run's, as the user's options name them.

    mismatch(dir, ["model_share"], old, new)
    # "checkpoint DIR was written for --rnr 0.5 (this run: --rnr 0.8); delete it or ..."

The identity's fields are the solver's own names (``model_share``, ``variant``); the line
names the ``meeple solve`` option that set each, with the checkpoint's value and this
run's, and the settings that follow from another (``es_leaves`` from ``--solver``) only
when what they follow from is the same.
"""

from __future__ import annotations

from typing import Any

__all__ = ["mismatch"]

# identity field -> the option that sets it (None: no option, a setting of the solver)
_OPTIONS: dict[str, str | None] = {
    "game": "the game",
    "solver": "--solver",
    "variant": "--solver",
    "abstraction": "--abstraction",
    "seed": "--seed",
    "batch": "--batch",
    "workers": "--workers",
    "model_share": "--rnr",
}
# settings another field decides (MCCFR's es_leaves: windowed external sampling or none)
_FOLLOWS = {"es_leaves": "variant"}


def mismatch(where: Any, diff: list[str], old: dict, new: dict) -> str:
    """One line: the checkpoint ``where`` was written for other values of ``diff``."""
    parts = []
    for name in diff:
        if _FOLLOWS.get(name) in diff:
            continue
        option = _OPTIONS.get(name)
        was, now = _shown(name, old.get(name)), _shown(name, new.get(name))
        if option is None:  # abstraction_version, algorithm, epsilon...: the code's settings
            parts.append(f"{name.replace('_', ' ')} {was} (this run: {now})")
        elif option.startswith("--"):
            parts.append(f"{option} {was} (this run: {option} {now})")
        else:
            parts.append(f"{option} {was} (this run: {now})")
    return (
        f"checkpoint {where} was written for {', '.join(parts)}; delete it or choose another --out"
    )


def _shown(name: str, value: Any) -> str:
    if name == "variant" and isinstance(value, str):
        return f"mccfr-{value}"
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "none"
    return str(value)
