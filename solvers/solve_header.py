"""The first line of ``meeple solve``: which algorithm runs, and the units of its figures.

    header(cfg, plan)  # "cfr+ on kuhn_poker: exact CFR+ (OpenSpiel) on the whole tree; ..."

MCCFR picks its variant from the game: classic MCCFR (counterfactual weighting, no
discount, batch 1) where exploitability is computable (a registered game's 2-player tiny
configuration, exactly as listed, or a non-meeple OpenSpiel game of any number of
players); on any other game string
(a full game, or a tiny one with a parameter added, ``utility=`` included) the full-game
variant (windowed external sampling or sampled weighting with baselines, Linear CFR,
batch 64). The line says which, so the switch is never silent, and names a restricted
Nash response (``--rnr``), whose strategy does not aim at an equilibrium.
"""

from __future__ import annotations

from solvers.solve_request import Plan, SolveConfig, exploitability_computable, is_registered
from solvers.train import train_spec

__all__ = ["header", "rnr_note", "units"]

_EXACT = {"cfr": "CFR", "cfr+": "CFR+", "dcfr": "DCFR"}


def units(game) -> str:
    """What nash_conv measures, and in which utility (OpenSpiel's convention)."""
    players = game.num_players()
    utility = game.get_parameters().get("utility")
    scale = {
        "rank": "rank utility, returns in [-1, 1], zero-sum",
        "win": "win utility, constant-sum",
        "score": "points (utility=score: general-sum, so CFR carries no Nash guarantee "
        "and nash_conv need not fall to 0)",
    }.get(utility, "the game's returns")
    return (
        f"nash_conv = the players' best-response gains summed (exploitability = nash_conv"
        f" / {players}), in {scale}"
    )


def header(cfg: SolveConfig, plan: Plan) -> str:
    """One line: solver, game, the variant that runs and what its figures mean."""
    start = f"{cfg.solver} on {cfg.game}: "
    if plan.is_exact:
        return (
            start + f"exact {_EXACT[cfg.solver]} (OpenSpiel) on the whole tree; " + units(plan.game)
        )
    spec = train_spec(cfg, plan)
    exact = exploitability_computable(plan.game)
    if spec.variant == "es":
        sampling = f"windowed external sampling ({spec.es_leaves} playouts)"
        if not spec.es_leaves:
            sampling = "external sampling"
    else:
        sampling = f"outcome sampling (epsilon {spec.epsilon:g}), {spec.weighting} weighting"
        sampling += ", baselines" if spec.baselines else ""
    workers = f"{spec.workers} worker{'s' if spec.workers > 1 else ''}"
    kind = "full-game MCCFR"
    if exact:
        which = "a tiny configuration" if is_registered(plan.game) else "an OpenSpiel game"
        kind = f"classic MCCFR ({which})"
    line = (
        f"{start}{kind}: {sampling}, {'Linear CFR' if spec.linear else 'no discount'}, "
        f"batch {spec.batch} x {workers}"
    )
    if spec.model_share:
        line += "; " + rnr_note(spec.model_share, exact)
    return line + ("; " + units(plan.game) if exact else "")


def rnr_note(share: float, nash_conv: bool) -> str:
    """What a restricted Nash response is, and what its nash_conv (where reported) means."""
    note = (
        f"a restricted Nash response (--rnr {share:g}: each other seat plays the game's "
        "heuristic in that share of the traversals), which exploits the heuristic rather "
        "than aiming at an equilibrium"
    )
    if nash_conv:
        note += (
            "; nash_conv then measures how far this strategy in every seat is from one "
            "(it need not fall to 0)"
        )
    return note
