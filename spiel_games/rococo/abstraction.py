NAME = "rococo-coarse"
VERSION = 1
def abstract_key(state, player):
    return state.information_state_string(player)
