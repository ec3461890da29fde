"""The refusals of the search agents' parameters that depend on several parameters or on
the game (one-line errors), and the game's pieces they look for."""

from __future__ import annotations

from solvers import value_model
from solvers.blueprint import load_blueprint, shipped_for
from solvers.policy_file import PolicyFileError
from solvers.search.leaf import game_evaluation, learned_evaluation
from solvers.spec import AgentSpecError
from spiel_games.common.registry import get_spec

# the opponent-model parameters that only one value of ``opponents`` reads, and their
# defaults (a non-default value under another model is refused)
OPPONENT_OPTIONS: dict[str, tuple[str, object]] = {
    "opp_eps": ("heuristic", 0.0),
    "opp_share": ("infer", 0.5),
    "opp_prior": ("infer", 4.0),
    "opp_fit": ("infer", "match"),
}


def game_heuristic(game):
    """The registered game's heuristic, or None (also for games outside the registry)."""
    try:
        return get_spec(game.get_type().short_name).heuristic
    except (KeyError, ValueError):
        return None


def evaluation_or_none(game):
    try:
        return game_evaluation(game)
    except ValueError:
        return None


def refuse(kind: str, game, params: dict) -> None:
    """Raise AgentSpecError when ``params`` (resolved) cannot work together on ``game``."""
    needs_heuristic = (
        ("settle", "on"),
        ("rollout", "heuristic"),
        ("prior", "heuristic"),
        ("opponents", "heuristic"),
        ("opponents", "infer"),
    )
    if params["opp_until"] > 0 and game_heuristic(game) is None:
        raise AgentSpecError(f"agent {kind!r}: this game has no heuristic for opp_until")
    for name, value in needs_heuristic:
        if params[name] == value and game_heuristic(game) is None:
            raise AgentSpecError(f"agent {kind!r}: this game has no heuristic for {name}={value}")
    for name, (model, default) in OPPONENT_OPTIONS.items():
        if params[name] != default and params["opponents"] != model:
            raise AgentSpecError(
                f"agent {kind!r}: {name} is an option of opponents={model}, but the "
                f"opponents here are {params['opponents']!r}"
            )
    if params["opp_until"] > 0 and params["opponents"] not in ("search", "infer"):
        raise AgentSpecError(
            f"agent {kind!r}: opp_until warms up searched opponent decisions, so it needs "
            f"opponents=search or infer (here opponents={params['opponents']!r})"
        )
    if params["unprune"] > 0 and params["prior"] not in ("heuristic", "blueprint"):
        raise AgentSpecError(
            f"agent {kind!r}: unprune opens a node with the prior's move, so it "
            f"needs prior=heuristic or blueprint (here prior={params['prior']!r})"
        )
    _refuse_blueprint(kind, game, params)
    if params["eval"] in ("game", "learned") and evaluation_or_none(game) is None:
        raise AgentSpecError(
            f"agent {kind!r}: this game has no evaluation for eval={params['eval']}"
        )
    if params["model"] and params["eval"] != "learned":
        raise AgentSpecError(
            f"agent {kind!r}: model is the value model of eval=learned, but eval is "
            f"{params['eval']!r}"
        )
    if params["eval"] == "learned":
        try:
            learned_evaluation(game, params["model"])
        except value_model.ValueModelError as e:
            raise AgentSpecError(f"agent {kind!r}: {e}") from None


def _refuse_blueprint(kind: str, game, params: dict) -> None:
    uses = [n for n in ("prior", "opponents", "rollout") if params[n] == "blueprint"]
    if params["blueprint"] and not uses:
        raise AgentSpecError(
            f"agent {kind!r}: blueprint is the file of prior=, opponents= or rollout=blueprint, "
            "but none is set"
        )
    if uses:
        try:
            load_blueprint(params["blueprint"] or shipped_for(game, "blueprint"), game)
        except (PolicyFileError, AgentSpecError) as e:
            raise AgentSpecError(f"agent {kind!r}: {e}") from None
