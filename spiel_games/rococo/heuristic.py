"""placeholder"""
def heuristic_action(state, rng=None):
    return state.legal_actions()[0]
