"""What a search agent's values assume about the other players, in words, and the one
switch that changes it (``opponents=``), for the advice commands.

A search's move values are expected returns *against the players it models*: the same
position is worth more against players who follow the game's heuristic than against
players who search for themselves. Advice names the model so a player can judge whether
it fits the table, and chooses another with ``--opponents``.
"""

from __future__ import annotations

from solvers.registry import AgentSpec, resolve
from solvers.search.params import resolve_auto
from solvers.spec import AgentSpecError

MODELS = {
    "heuristic": "every other player plays the game's heuristic",
    "search": "every other player is searched on its own returns (plays well for itself)",
    "infer": "each other player plays the heuristic's move as often as its moves so far "
    "in this game matched it, and is searched otherwise",
    "blueprint": "every other player plays the MCCFR blueprint's mixed strategy (the "
    "heuristic where the blueprint has no entry)",
}
CHOICES = ("auto", *MODELS)
# agents that search with a fixed model of the other players (no opponents= to choose)
FIXED = {
    "cfr-search": "every player, the one to move included, plays the depth-limited subgame's "
    "CFR solution for themselves (the others' strategies solved on their own returns, as "
    "the mover's); past the depth the game's heuristic plays the rollout, then the game's "
    "evaluation scores the position",
    "openspiel-ismcts": "every other player is searched on its own returns in the same tree "
    "(OpenSpiel's IS-MCTS, or MCTS on perfect-information games, with random rollouts to "
    "the end); no game knowledge",
}


def with_opponents(spec: str | AgentSpec, model: str | None) -> AgentSpec:
    """``spec`` with its opponent model replaced by ``model`` (None or an agent without
    one: unchanged); AgentSpecError for an unknown model, whatever the agent."""
    agent = resolve(spec)
    if model is not None and model not in CHOICES:
        raise AgentSpecError(f"unknown opponent model {model!r}; choose from {', '.join(CHOICES)}")
    if model is None or "opponents" not in agent.params:
        return agent
    return agent.with_params({"opponents": model})


def searches(spec: str | AgentSpec) -> bool:
    """Whether ``spec``'s values assume a model of the other players (a searching agent:
    one with ``opponents=``, or one of ``FIXED``)."""
    agent = resolve(spec)
    return "opponents" in agent.params or agent.kind.name in FIXED


def assumed_opponents(game, spec: str | AgentSpec) -> str:
    """One line: the opponent model ``spec`` resolves to on ``game``, and what it means."""
    agent = resolve(spec)
    if agent.kind.name in FIXED:
        return f"{agent.kind.name} (fixed): {FIXED[agent.kind.name]}"
    if "opponents" not in agent.params:
        return f"{agent.kind.name}: no opponent model (the agent does not search)"
    chosen = resolve_auto(game, dict(agent.params))
    model = str(chosen["opponents"])
    until = float(chosen.get("opp_until", 0.0))
    if until <= 0.0:
        return f"opponents={model}: {MODELS[model]}"
    return (
        f"opponents={model}, opp_until={until:g}: {MODELS[model]}; a searched decision is "
        f"the heuristic's move until the search has reached it {until:g} x sims times"
    )
