"""Schedule counts, seat balance, duplicate sets and deterministic game ids."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import pytest

from tournament.config import build_config
from tournament.schedule import auto_batch_size, batches, rotations, schedule

GAME3 = "python_coloretto(players=3)"


def _cfg(**t):
    # distinct specs (hence distinct agent ids) without relying on other agent kinds
    agents = t.pop("agents", {"random": "random", "greedy": "heuristic"})
    return build_config(
        {"tournament": {"game": GAME3, "seeds_per_lineup": 3, "seed": 1, **t}, "agents": agents}
    )


@pytest.fixture
def pool4():
    from solvers.registry import all_kinds

    if not {"mcts", "ismcts"} <= {k.name for k in all_kinds()}:
        pytest.skip("search agents not registered")
    return {
        "random": "random",
        "greedy": "heuristic",
        "mcts": "mcts(sims=5)",
        "ismcts": "ismcts(sims=5)",
    }


def test_round_robin_plays_every_combination_under_every_rotation(pool4):
    cfg = _cfg(agents=pool4)
    tasks = schedule(cfg)
    assert len(tasks) == comb(4, 3) * 3 * 3  # line-ups x rotations x seeds
    assert {frozenset(t.lineup) for t in tasks} == {
        frozenset(c) for c in itertools.combinations(pool4, 3)
    }


def test_every_agent_sits_in_every_seat_equally_often(pool4):
    tasks = schedule(_cfg(agents=pool4))
    seat_counts = Counter((name, p) for t in tasks for p, name in enumerate(t.seats))
    per_agent = {name: [seat_counts[(name, p)] for p in range(3)] for name in pool4}
    for counts in per_agent.values():
        assert len(set(counts)) == 1 and counts[0] > 0


def test_rotations_of_a_duplicate_set_share_the_chance_seed():
    tasks = schedule(_cfg(self_play=True))
    by_set: dict = {}
    for t in tasks:
        by_set.setdefault((t.lineup, t.seed_index), set()).add(t.seed)
    assert all(len(s) == 1 for s in by_set.values())
    # and different duplicate sets get different seeds
    assert len({next(iter(s)) for s in by_set.values()}) == len(by_set)
    assert sorted(Counter(t.rotation for t in tasks).values()) == [len(by_set)] * 3


def test_self_play_lineups_skip_the_all_same_lineup():
    tasks = schedule(_cfg(self_play=True))
    lineups = {t.lineup for t in tasks}
    assert all(len(set(lu)) > 1 for lu in lineups)
    assert len(lineups) == 2  # (r, g, g) and (r, r, g) in some order


def test_gauntlet_puts_the_focus_agent_in_every_game(pool4):
    tasks = schedule(_cfg(agents=pool4, schedule="gauntlet", focus="mcts"))
    assert len(tasks) == comb(3, 2) * 3 * 3
    assert all("mcts" in t.seats for t in tasks)


def test_ladder_adds_one_agent_per_budget():
    from solvers.registry import all_kinds

    if "mcts" not in {k.name for k in all_kinds()}:
        pytest.skip("mcts not registered")
    raw = {
        "tournament": {
            "game": "python_coloretto(players=2)",
            "schedule": "ladder",
            "seeds_per_lineup": 2,
        },
        "agents": {"greedy": "heuristic"},
        "ladder": {"agent": "mcts", "param": "sims", "values": [5, 10, 20]},
    }
    cfg = build_config(raw)
    assert [(a.name, a.budget) for a in cfg.agents][1:] == [
        ("mcts@5", 5.0),
        ("mcts@10", 10.0),
        ("mcts@20", 20.0),
    ]
    assert len(schedule(cfg)) == comb(4, 2) * 2 * 2


def test_game_ids_are_deterministic_and_unique():
    a, b = schedule(_cfg(self_play=True)), schedule(_cfg(self_play=True))
    assert [t.game_id for t in a] == [t.game_id for t in b]
    assert len({t.game_id for t in a}) == len(a)
    other = schedule(_cfg(self_play=True, seed=2))
    assert not {t.game_id for t in a} & {t.game_id for t in other}


def test_rotations_are_cyclic():
    assert rotations(("a", "b", "c")) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def test_batches_never_split_a_duplicate_set():
    tasks = schedule(_cfg(self_play=True, seeds_per_lineup=7))
    for size in (1, 2, 4, 5, 100):
        chunks = batches(tasks, size)
        assert [t for c in chunks for t in c] == tasks
        for c in chunks:
            assert c[0].rotation == 0 and len(c) % 3 == 0


def test_auto_batch_size_gives_several_tasks_per_worker():
    assert auto_batch_size(1600, 2) == 100
    assert auto_batch_size(10, 2) == 1
    assert auto_batch_size(10**6, 2) == 2000


def test_fixed_tables_play_each_given_lineup_under_every_rotation():
    """schedule = "fixed": only the listed tables, a name may hold two seats, and each seat
    is held by each agent in turn (every cyclic rotation of the line-up)."""
    tasks = schedule(_cfg(schedule="fixed", tables=[["greedy", "random", "greedy"]]))
    assert {t.lineup for t in tasks} == {("greedy", "greedy", "random")}
    assert len(tasks) == 3 * 3  # seeds x rotations
    assert all(Counter(t.seats) == Counter(greedy=2, random=1) for t in tasks)
    assert {t.seats.index("random") for t in tasks} == {0, 1, 2}


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        (None, "tournament.tables is required"),
        ([["greedy", "random"]], "has 2 seats; the game has 3 players"),
        ([["greedy", "greedy", "greedy"]], "seats one agent only"),
        ([["greedy", "nobody", "random"]], "'nobody' is not an agent"),
        ([["greedy", "random", "random"], ["random", "greedy", "random"]], "repeats"),
        ([["greedy", 3, "random"]], "must be a list of agent names"),
    ],
)
def test_bad_fixed_tables_name_the_key(tables, message):
    from tournament.config import ConfigError

    t = {"schedule": "fixed"} if tables is None else {"schedule": "fixed", "tables": tables}
    with pytest.raises(ConfigError) as e:
        _cfg(**t)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_fixed_tables_must_seat_every_agent_and_need_the_fixed_schedule(pool4):
    from tournament.config import ConfigError

    with pytest.raises(ConfigError, match="agents.mcts sits at none of tournament.tables"):
        _cfg(agents=pool4, schedule="fixed", tables=[["greedy", "random", "ismcts"]])
    with pytest.raises(ConfigError, match='only used with schedule = "fixed"'):
        _cfg(tables=[["greedy", "random", "greedy"]])


def test_tables_enter_the_config_hash_only_when_set():
    plain = _cfg(self_play=True)
    assert "tables" not in plain.identity()
    one = _cfg(schedule="fixed", tables=[["greedy", "random", "greedy"]])
    two = _cfg(schedule="fixed", tables=[["greedy", "random", "random"]])
    assert one.identity()["tables"] == [["greedy", "greedy", "random"]]
    assert len({plain.config_hash, one.config_hash, two.config_hash}) == 3


def _after(seats: tuple[str, ...], a: str, b: str) -> bool:
    """b plays right after a (the next seat, cyclically)."""
    n = len(seats)
    return any(seats[i] == a and seats[(i + 1) % n] == b for i in range(n))


def test_rotations_always_seat_each_agent_after_the_same_one(pool4):
    """The default seating: each agent sits in each seat, but at 3 players the order of
    play around the table is the same in every game (the bias permutations remove)."""
    three = {k: pool4[k] for k in ("greedy", "mcts", "ismcts")}
    tasks = schedule(_cfg(agents=three, schedule="fixed", tables=[["greedy", "mcts", "ismcts"]]))
    assert len(tasks) == 3 * 3
    assert len({_after(t.seats, "mcts", "ismcts") for t in tasks}) == 1


def test_permutations_play_every_seat_order_and_balance_who_plays_after_whom(pool4):
    cfg = _cfg(
        agents={k: pool4[k] for k in ("greedy", "mcts", "ismcts")},
        schedule="fixed",
        tables=[["greedy", "mcts", "ismcts"]],
        seating="permutations",
    )
    tasks = schedule(cfg)
    assert len(tasks) == 3 * 6  # seeds x 3! orders
    one_set = [t for t in tasks if t.seed_index == 0]
    assert len({t.seats for t in one_set}) == 6
    assert len({t.seed for t in one_set}) == 1  # one deal for every order
    assert sum(_after(t.seats, "mcts", "ismcts") for t in one_set) == 3
    assert sum(_after(t.seats, "ismcts", "mcts") for t in one_set) == 3
    # the first orders are the rotations, as with the default seating
    assert [t.seats for t in one_set[:3]] == rotations(one_set[0].lineup)
    assert [t.rotation for t in one_set] == list(range(6))


def test_permutations_of_a_table_with_a_repeated_agent_are_distinct_orders():
    from tournament.config import num_games, num_orders

    cfg = _cfg(schedule="fixed", tables=[["greedy", "random", "greedy"]], seating="permutations")
    tasks = schedule(cfg)
    assert num_orders(("greedy", "greedy", "random")) == 3  # 3! / 2!
    assert len(tasks) == num_games(cfg) == 3 * 3
    assert len({t.seats for t in tasks}) == 3
    assert num_orders(("a", "a", "b", "c")) == 12


def test_a_round_robin_with_permutations_counts_every_order_of_every_lineup(pool4):
    from tournament.config import num_games

    cfg = _cfg(agents=pool4, seating="permutations")
    assert len(schedule(cfg)) == num_games(cfg) == comb(4, 3) * 6 * 3


def test_seating_enters_the_config_hash_only_when_not_the_default():
    plain = _cfg(self_play=True)
    assert "seating" not in plain.identity()
    assert _cfg(self_play=True, seating="rotations").config_hash == plain.config_hash
    perm = _cfg(self_play=True, seating="permutations")
    assert perm.identity()["seating"] == "permutations"
    assert perm.config_hash != plain.config_hash


def test_a_bad_seating_is_a_one_line_error():
    from tournament.config import ConfigError

    with pytest.raises(ConfigError) as e:
        _cfg(self_play=True, seating="shuffled")
    assert str(e.value) == (
        "tournament.seating must be one of rotations, permutations, balanced, got 'shuffled'"
    )


def test_more_seat_orders_than_the_ledger_holds_is_a_one_line_error(monkeypatch):
    """The ledger stores a seating's index as int8; a game with 6 or more players would
    have 720 orders per line-up. Shown here by lowering the limit below the 3 orders of a
    3-player line-up with one agent in two seats."""
    import tournament.config as config

    assert config.MAX_ORDERS == 127  # 5 players: 120 orders, the most a meeple game has
    monkeypatch.setattr(config, "MAX_ORDERS", 2)
    with pytest.raises(config.ConfigError) as e:
        _cfg(self_play=True, seating="permutations")
    assert "more than 2 seat orders" in str(e.value) and "\n" not in str(e.value)
    assert len(schedule(_cfg(self_play=True))) > 0  # rotations are unaffected


def test_balanced_seating_plays_every_seat_order_over_more_deals(pool4):
    """balanced: each seed the rotations of one order of play, the orders in turn, so over
    K seeds (K = 2 orders of play at 3 players) it plays the same seat orders as
    permutations does at one seed, each order of play on its own deals."""
    from tournament.config import num_games

    three = {k: pool4[k] for k in ("greedy", "mcts", "ismcts")}
    table = dict(agents=three, schedule="fixed", tables=[["greedy", "mcts", "ismcts"]])
    cfg = _cfg(**table, seating="balanced", seeds_per_lineup=4)
    tasks = schedule(cfg)
    assert len(tasks) == num_games(cfg) == 4 * 3  # seeds x rotations
    perm = schedule(_cfg(**table, seating="permutations", seeds_per_lineup=1))
    index = {t.seats: t.rotation for t in perm}
    by_seed: dict = {}
    for t in tasks:
        by_seed.setdefault(t.seed_index, []).append(t)
        assert t.rotation == index[t.seats]  # the ledger's index is the permutations'
    assert len({t.seed for t in tasks}) == 4  # four deals
    for games in by_seed.values():
        assert len({t.seed for t in games}) == 1  # a duplicate set shares its deal
        assert len({_after(t.seats, "mcts", "ismcts") for t in games}) == 1  # one order
        assert sorted(t.seats for t in games) == sorted(rotations(games[0].seats))
    # seeds 0 and 1 together: every seat order once; seed 0 is the rotations' seed 0
    assert sorted(t.seats for t in by_seed[0] + by_seed[1]) == sorted(index)
    assert [t.seats for t in by_seed[0]] == [t.seats for t in perm[:3]]
    order = [_after(by_seed[s][0].seats, "mcts", "ismcts") for s in range(4)]
    assert order[0] != order[1] and order[:2] == order[2:]  # the orders of play alternate


def test_balanced_seating_with_a_repeated_agent_counts_each_order_of_play_once():
    """At 4 players with one agent in two seats there are 12 seat orders in 3 orders of
    play (4 rotations each); at 3 players with one agent in two seats, a single one."""
    from tournament.config import num_games
    from tournament.seating import cyclic_orders

    lineup = ("a", "a", "b", "c")
    groups = cyclic_orders(lineup)
    assert [len(g) for g in groups] == [4, 4, 4]
    assert sorted(q for g in groups for _, q in g) == sorted(set(itertools.permutations(lineup)))
    # (a, b, a, b) repeats itself after two seats: two distinct rotations
    assert [len(g) for g in cyclic_orders(("a", "a", "b", "b"))] == [4, 2]
    cfg = _cfg(
        schedule="fixed",
        tables=[["greedy", "random", "greedy"]],
        seating="balanced",
        seeds_per_lineup=3,
    )
    # greedy, greedy, random has one order of play (3 rotations), so every seed plays it
    assert len(schedule(cfg)) == num_games(cfg) == 3 * 3


def test_batches_and_manifest_seeds_follow_balanced_duplicate_sets(pool4):
    """A balanced set at an odd seed starts with a seat order whose index is not 0: the
    batches still never split a set nor merge two (the old rule, a set starts at rotation
    0, merged seeds 0 and 1), and the manifest lists one seed per set."""
    from tournament.runner import seeds_by_lineup

    three = {k: pool4[k] for k in ("greedy", "mcts", "ismcts")}
    cfg = _cfg(
        agents=three,
        schedule="fixed",
        tables=[["greedy", "mcts", "ismcts"]],
        seating="balanced",
        seeds_per_lineup=4,
    )
    tasks = schedule(cfg)
    assert tasks[3].seed_index == 1 and tasks[3].rotation != 0
    chunks = batches(tasks, 1)
    assert [len(c) for c in chunks] == [3, 3, 3, 3]
    assert [{t.seed_index for t in c} for c in chunks] == [{0}, {1}, {2}, {3}]
    seeds = seeds_by_lineup(tasks)
    assert list(seeds.values()) == [[t.seed for t in tasks[::3]]]


def test_balanced_seed_counts_not_a_multiple_of_the_orders_of_play():
    """(a, a, b, b) at 4 players: one order of play in 4 rotations and one, a-b-a-b, in 2;
    three seeds play the first, the second, then the first again: 4 + 2 + 4 games."""
    from tournament.config import num_games

    cfg = build_config(
        {
            "tournament": {
                "game": "python_coloretto(players=4)",
                "seeds_per_lineup": 3,
                "seed": 1,
                "schedule": "fixed",
                "tables": [["greedy", "greedy", "random", "random"]],
                "seating": "balanced",
            },
            "agents": {"random": "random", "greedy": "heuristic"},
        }
    )
    tasks = schedule(cfg)
    assert len(tasks) == num_games(cfg) == 10
    assert [sum(t.seed_index == s for t in tasks) for s in range(3)] == [4, 2, 4]


def test_balanced_seating_enters_the_hash_and_keeps_the_seat_order_limit(monkeypatch):
    import tournament.config as config

    perm = _cfg(self_play=True, seating="permutations")
    bal = _cfg(self_play=True, seating="balanced")
    assert bal.identity()["seating"] == "balanced" and bal.config_hash != perm.config_hash
    monkeypatch.setattr(config, "MAX_ORDERS", 2)
    with pytest.raises(config.ConfigError) as e:
        _cfg(self_play=True, seating="balanced")
    assert 'seating = "balanced"' in str(e.value) and "more than 2 seat orders" in str(e.value)


def test_an_unknown_seating_name_is_refused_by_the_seat_order_functions():
    from tournament.seating import seatings

    with pytest.raises(ValueError, match="unknown seating 'shuffled'"):
        seatings(("a", "b", "c"), "shuffled")


def test_a_parameter_added_with_its_default_keeps_every_deal(pool4, monkeypatch):
    # the deals hash the parameters set away from their defaults, so a later version that
    # adds a parameter (its default the old behaviour) deals the same cards to the same
    # configuration; the canonical spec, which spells every parameter, changes
    from dataclasses import replace

    from solvers import registry
    from solvers.base import Param

    old = _cfg(agents=pool4)
    extra = Param("added_later", int, 0, "a parameter a later version adds")
    ismcts = registry.KINDS["ismcts"]
    grown = replace(ismcts, params=(*ismcts.params, extra))
    monkeypatch.setitem(registry.KINDS, "ismcts", grown)
    new = _cfg(agents=pool4)
    assert new.agent("ismcts").canonical != old.agent("ismcts").canonical
    assert [t.seed for t in schedule(new)] == [t.seed for t in schedule(old)]
