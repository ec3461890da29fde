"""A copy of a state's history with some moves replaced, for resamplers that re-deal
hidden chance events.

pyspiel keeps a state's history in C++ and offers no setter; ``deserialize_state`` is the
one way to build a state with a chosen history without replaying it. A resampler re-deals
hidden outcomes in its copy of the position and rewrites the matching history entries, so
replaying ``history()`` from a new initial state rebuilds the resampled world (the
conformance suite checks this). Python attributes are not carried over: the caller
installs its own position on the returned state.
"""

from __future__ import annotations

import base64
import pickle

# An empty pickled attribute dict: the new state keeps the attributes its __init__ set.
_NO_ATTRIBUTES = base64.b64encode(pickle.dumps({})).decode("ascii")
_TAG = "history="


def with_history_changes(state, changes: dict[int, int]):
    """A new state of ``state``'s game whose history is ``state``'s with the move at each
    index of ``changes`` replaced by the given action (same player); its position is the
    game's initial one until the caller installs another."""
    probe = state.clone()
    probe.__dict__.clear()  # serialize the C++ history only, not the position
    head = probe.serialize().split("\n", 1)[0]
    if not head.startswith(_TAG):
        raise ValueError("unexpected serialization: no history line")
    moves = head[len(_TAG) :].split(",") if len(head) > len(_TAG) else []
    for i, action in changes.items():
        player = moves[i].split(":", 1)[0]
        moves[i] = f"{player}:{action}"
    text = f"{_TAG}{','.join(moves)}\nmove_number={len(moves)}\n__dict__={_NO_ATTRIBUTES}"
    return state.get_game().deserialize_state(text)
