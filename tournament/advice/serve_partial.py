"""The advice engine's view of a search in progress: the agent it may stop (``terminate``)
and the partial answers (``reportDuringSearchEvery``) it sends while the search runs.

Partial answers come from the search agents (``mcts``, ``ismcts``, ``pimc``): their search
engine calls back every few simulations. Other agents (``cfr-search``,
``openspiel-ismcts``, policies, ``heuristic``, ...) send none: only their final answer.
"""

from __future__ import annotations

import time

from tournament.advice.moves import clip

FIRST_REPORT = 0.05  # seconds of search before the first partial answer (at most the interval)


class Running:
    """A query being answered: whether a terminate came, the agent working now, and
    whether that agent was stopped (an agent that cannot stop runs to its end)."""

    def __init__(self, qid):
        self.qid = qid
        self.terminated = False
        self.agent = None
        self.spec: str | None = None  # the agent's spec, for status
        self.began = 0.0  # perf_counter when its answering began
        self.halted = False

    def stop(self) -> None:
        """Terminate (the reader's thread): stop the agent working now, if it can stop."""
        self.terminated = True  # written before the agent is read, as start() does
        agent = self.agent
        if agent is not None and agent.halt():
            self.halted = True

    def start(self, agent, spec: str | None = None) -> None:
        """The worker's thread: ``agent`` begins; stopped at once after a terminate."""
        self.halted = False
        self.agent, self.spec = agent, spec
        if self.terminated and agent.halt():
            self.halted = True


def watcher(q, turn, running: Running, send, spec: str):
    """``on_agent`` for advise_state: remembers the agent (for terminate) and, with
    ``reportDuringSearchEvery``, sends the search's statistics so far at that interval,
    each naming the agent (``seconds``: since that agent's search began)."""

    def on_agent(agent, root) -> None:
        running.start(agent, spec)
        every = q.report_every
        engine = getattr(agent, "engine", None)
        if every is None or engine is None or not hasattr(agent, "partial"):
            return
        lo, hi = root.get_game().min_utility(), root.get_game().max_utility()
        start = time.perf_counter()
        # the next report's time: the first after FIRST_REPORT s (at most the interval);
        # kept as a time, not as the last report's less the interval (which lost the 0.05
        # to rounding for a huge interval: the first report came at once)
        due = [start + min(every, FIRST_REPORT)]

        def tick() -> None:
            now = time.perf_counter()
            if now < due[0]:
                return
            due[0] = now + every
            partial = agent.partial(root)
            moves = [m for m in partial.moves if m.visits][: q.top]
            moves.sort(key=lambda m: -m.visits)
            answer = {
                "id": q.qid,
                "isDuringSearch": True,
                "agent": spec,
                "seconds": round(now - start, 4),
                "moves": [
                    {
                        "action": m.action_str,
                        "id": int(m.action),
                        "visits": int(m.visits),
                        "value": m.value,
                        "lcb": clip(m.ci_low, lo, hi),  # as the final answer's ci_low
                    }
                    for m in moves
                ],
            }
            if turn is not None and q.analyze_turns:
                answer["turnNumber"] = turn
            send(answer)

        engine.on_tick = tick

    return on_agent
