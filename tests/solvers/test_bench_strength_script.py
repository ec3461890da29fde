"""scripts/bench_strength.py: the tables it plays, and a fixed table through the runner."""

import math

import pytest


@pytest.fixture
def module(load_script):
    return load_script("bench_strength")


def test_each_measured_agent_sits_at_every_pool_table(module):
    """Every measured agent meets every pool member, and a searcher sits at every table
    but one (the issue's "with another searcher at the table")."""
    agents, seats = module.tables({"default": "ismcts(sims=400)", "I": "ismcts(sims=9)"})
    assert len(seats) == 2 * len(module.TABLES)
    assert {a for t in seats for a in t} == set(module.POOL) | {"default", "I"}
    for m in ("default", "I"):
        mine = [t for t in seats if t[0] == m]
        assert {a for t in mine for a in t[1:]} == set(module.POOL)
        bare = [t for t in mine if not any("sims" in agents[a] for a in t[1:])]
        assert len(bare) <= 1
    assert ["default", "heuristic", "S"] in seats
    assert agents["H"] == "ismcts(sims=400,opponents=heuristic)"
    assert agents["S"] == "ismcts(sims=400,opponents=search)"


def test_the_budget_ladder_doubles_from_100_with_s_at_the_table():
    from tournament.budget_ladder import ladder_tables

    agents, seats = ladder_tables(800)
    assert seats == [
        ["sims100", "sims200", "S"],
        ["sims200", "sims400", "S"],
        ["sims400", "sims800", "S"],
    ]
    assert agents["sims800"] == "ismcts(sims=800)"
    quick, _ = ladder_tables(800, 50)
    assert quick["sims100"] == "ismcts(sims=2)" and quick["S"].startswith("ismcts(sims=8,")


def test_a_share_converts_to_the_elo_of_the_logistic_model():
    from tournament.budget_ladder import elo

    assert elo(0.5) == 0.0
    assert elo(0.64) == pytest.approx(100, abs=1)
    assert elo(1.0) == float("inf") and elo(0.0) == float("-inf")


def test_bad_options_are_one_line_errors(module, capsys):
    assert module.main(["--games", "chess"]) == 1
    assert module.main(["--candidate", "S=ismcts"]) == 1
    assert module.main(["--seeds", "0"]) == 1
    assert module.main(["--equal-time", "-1"]) == 1
    assert module.main(["--tune", "-1"]) == 1
    assert module.main(["--sprt-against", "H,nobody"]) == 1
    assert module.main(["--sprt-elo", "35"]) == 1
    assert module.main(["--sprt-elo", "35,0"]) == 1
    assert module.main(["--sprt-read", "--sprt-only"]) == 1  # no --sprt-dir to read
    assert module.main(["--ladder-only"]) == 1  # no --ladder N
    assert module.main(["--ladder-only", "--ladder", "800", "--ladder-read"]) == 1  # no dir
    assert module.main(["--ladder-seeds", "-1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 12 and all(x.startswith("error: ") for x in err)


def _report_parts(text: str, gs: str) -> list[str]:
    """What a game's section must hold, in order (the format, never the figures)."""
    block = text[text.index(f"<!-- game: {gs} -->") : text.index(f"<!-- /game: {gs} -->")]
    marks = [
        "    python scripts/bench_strength.py",
        "| agent | spec | s per decision |",
        "| agent | ahead of | win share | 95% interval |",
        "| agent | Elo | 95% interval | Plackett-Luce | 95% interval | games |",
        "| target | holds | figure |",
    ]
    missing = [m for m in marks if m not in block]
    pos = [block.index(m) for m in marks if m in block]
    return missing + (["out of order"] if pos != sorted(pos) else [])


def test_a_quick_run_writes_every_part_of_the_report(tmp_path, module, monkeypatch):
    # the tuning is never scaled by --quick: a cheap agent and pool for the format check
    monkeypatch.setattr(module, "TUNE_AGENT", "ismcts(sims=5)")
    monkeypatch.setattr(module, "TUNE_PARAMS", ("uct_c", "opponents"))
    monkeypatch.setattr(module, "TUNE_OPPONENTS", ("heuristic", "random"))
    out = tmp_path / "s.md"
    args = ["--quick", "--games", "coloretto", "--ladder", "200", "--out", str(out)]
    args += ["--tune", "4", "--tune-confirm", "6", "--tune-dir", str(tmp_path / "t")]
    args += ["--equal-time", "0.01"]
    assert module.main(args) == 0
    text = out.read_text()
    assert "meeple tune 'python_coloretto(players=3)' --params uct_c,opponents --budget 4" in text
    assert "| recommended | `ismcts(" in text and "| start | `ismcts(" in text
    assert "| uct_c | 1.4* |" in text and "| opponents | infer* |" in text
    assert "Confirmation" in text
    assert "Equal time (0.01 s per decision each), 1 deals" in text
    assert "| default | S | " in text.split("Equal time")[1]
    assert (tmp_path / "t" / "tune-python_coloretto" / "evaluations.jsonl").exists()
    assert text.startswith("\n".join(module.HEADER))
    assert _report_parts(text, "python_coloretto(players=3)") == []
    assert "| budget | s per decision | ahead of half the budget |" in text
    for member in module.POOL:
        assert f"| default | {member} |" in text


def test_the_shipped_report_has_the_format_the_script_writes(module):
    """docs/STRENGTH.md is the script's output: its header, and every game's section."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "STRENGTH.md").read_text()
    assert text.startswith("\n".join(module.HEADER))
    for gs in module.GAMES.values():
        assert _report_parts(text, gs) == [], gs


def test_a_fixed_table_with_the_heuristic_in_two_seats_is_played_and_rated(tmp_path, module):
    """The 4-player table of the benchmark goes through the tournament runner: balanced
    seating plays the 12 distinct seat orders (the heuristic in two seats) over 3 seeds,
    one order of play (4 rotations) per seed, and the heuristic's two seats give two
    pairs per game against each search."""
    agents = {"heuristic": "heuristic", "a": "ismcts(sims=8)", "b": "ismcts(sims=16)"}
    seats = [["heuristic", "a", "b", "heuristic"]]
    r = module.play("python_coloretto(players=4)", agents, 3, 1, "serial", tmp_path / "x", seats)
    rows = {(a, b): (n, d) for a, b, _, n, d in module.shares(r)}
    assert rows[("a", "b")][0] == 12  # three seeds x four rotations
    assert rows[("a", "heuristic")][0] == 24  # two heuristic seats in each of the twelve games
    # the score difference is a's mean score minus b's over the games of the ledger
    from tournament.ledger import read_ledger

    ids = {x.name: x.id for x in r.agents}
    games = read_ledger(tmp_path / "x", ["agents", "scores"]).table.to_pylist()
    diffs = [
        g["scores"][g["agents"].index(ids["a"])] - g["scores"][g["agents"].index(ids["b"])]
        for g in games
    ]
    assert len(diffs) == 12
    assert rows[("a", "b")][1] == pytest.approx(sum(diffs) / len(diffs))
    orders = read_ledger(tmp_path / "x", ["agents", "seed_index"]).table.to_pylist()
    assert len({tuple(g["agents"]) for g in orders}) == 12  # every seat order once
    assert len({g["seed_index"] for g in orders}) == 3  # on three deals
    # the intervals bracket the point values, and the table shows them
    ci = module.intervals(tmp_path / "x", r)
    for a, b, share, _, diff in module.shares(r):
        s_lo, s_hi, d_lo, d_hi = ci[(a, b)]
        assert s_lo <= share <= s_hi and d_lo <= diff + 1e-9 and diff - 1e-9 <= d_hi
    line = next(x for x in module.table(r, ci) if x.startswith("| a | b |"))
    assert line.count("..") == 2


def test_a_pair_seen_on_one_deal_has_no_interval(tmp_path, module):
    """One deal: every bootstrap draw would be that deal (a point that covers nothing),
    so there is no interval, and the table says so."""
    agents = {"heuristic": "heuristic", "random": "random"}
    seats = [["heuristic", "random", "random"]]
    r = module.play("python_coloretto(players=3)", agents, 1, 1, "serial", tmp_path / "y", seats)
    ci = module.intervals(tmp_path / "y", r, draws=50)
    assert ci and all(all(x != x for x in bounds) for bounds in ci.values())  # NaN
    line = next(x for x in module.table(r, ci) if x.startswith("| heuristic | random |"))
    assert line.count("n/a (one deal)") == 2


def test_a_game_without_scores_counts_in_the_share_not_the_difference(tmp_path, module):
    """Under rank-last a failed game keeps its ranks but its scores are NaN: the ratings
    leave it out of the score difference, and so must the intervals (a NaN drawn into
    a bootstrap mean would make the bounds arbitrary)."""
    import pyarrow.parquet as pq

    agents = {"heuristic": "heuristic", "random": "random"}
    r = module.play("python_coloretto(players=3)", agents, 2, 1, "serial", tmp_path / "z")
    part = sorted((tmp_path / "z").glob("part-*.parquet"))[0]
    t = pq.read_table(part)
    scores = t.column("scores").to_pylist()
    scores[0] = [float("nan")] * len(scores[0])
    t = t.set_column(t.schema.get_field_index("scores"), "scores", [scores])
    pq.write_table(t, part)
    ci = module.intervals(tmp_path / "z", r, draws=200)
    for s_lo, s_hi, d_lo, d_hi in ci.values():
        assert all(x == x for x in (s_lo, s_hi, d_lo, d_hi))  # no NaN
        assert s_lo <= s_hi and d_lo <= d_hi


@pytest.mark.parametrize(
    "table,seeds,text",
    [
        (["heuristic", "ismcts400", "ismcts1600"], 10, "every seat order"),
        (["heuristic", "ismcts400", "ismcts1600", "heuristic"], 12, "every seat order"),
        (
            ["heuristic", "ismcts400", "ismcts1600", "heuristic"],
            2,
            "8 of 12 seat orders, unevenly (2 seeds over 3 orders of play",
        ),
    ],
)
def test_the_heading_says_which_seat_orders_were_played(table, seeds, text, module):
    assert module.orders_played(table, seeds).startswith(text)


def test_sprt_mode_confirms_a_clear_gap_and_not_a_reversed_one(tmp_path, module):
    """--sprt runs each comparison through tournament.sprt: a clear gap is SPRT-confirmed
    (H1), the reversed comparison is not (H0)."""
    specs = {"strong": "heuristic", "weak": "random"}
    lines = module.sprt_table(
        "python_coloretto(players=2)",
        (("strong", "weak"), ("weak", "strong")),
        specs,
        "gain",
        400,
        1,
        "serial",
        tmp_path,
    )
    rows = [x for x in lines if x.startswith("| strong") or x.startswith("| weak")]
    assert rows[0].startswith("| strong | weak | H1 | yes |")
    assert rows[1].startswith("| weak | strong | H0 | no |")
    assert (tmp_path / "sprt-strong-weak" / "manifest.json").exists()  # an ordinary ledger


def test_a_kept_sprt_ledger_resumes_with_its_own_bounds_and_reports_alike(tmp_path, module):
    """--sprt-dir keeps the ledgers and --sprt-elo sets the bounds: a second run finds the
    finished SPRT in its ledger and reports the same line without playing a game more."""
    specs = {"strong": "heuristic", "weak": "random"}

    def run():
        return module.sprt_table(
            "python_coloretto(players=2)", (("strong", "weak"),), specs, "gain", 400, 1,
            "serial", tmp_path, seed=5, elo=(0.0, 60.0),
        )  # fmt: skip

    first = run()
    parts = sorted((tmp_path / "sprt-strong-weak").glob("part-*.parquet"))
    assert first[0].startswith("SPRTs (Elo bounds 0, 60; ") and "master seed 5" in first[0]
    assert first[-1].startswith("| strong | weak | H1 | yes |")
    assert run() == first
    assert sorted((tmp_path / "sprt-strong-weak").glob("part-*.parquet")) == parts


def test_sprt_read_reports_a_ledger_as_it_stands_and_refuses_another_test(tmp_path, module):
    """--sprt-read never plays: a finished ledger is reported with the code version that
    played it (even when today's code would give its agents other ids), and a ledger of
    another test (other seed) is a one-line error, not a wrong row."""
    import json

    specs = {"strong": "heuristic", "weak": "random"}
    args = ("python_coloretto(players=2)", (("strong", "weak"),), specs, "gain", 400, 1, "serial")
    played = module.sprt_table(*args, tmp_path, seed=5, elo=(0.0, 60.0))
    where = tmp_path / "sprt-strong-weak"
    manifest = json.loads((where / "manifest.json").read_text())
    for a in manifest["agents"]:  # as if another code version had played
        a["id"] = "old-" + a["id"]
    for part in where.glob("part-*.parquet"):
        import pyarrow.parquet as pq

        t = pq.read_table(part)
        ids = [["old-" + x for x in row] for row in t.column("agents").to_pylist()]
        pq.write_table(t.set_column(t.schema.get_field_index("agents"), "agents", [ids]), part)
    manifest["code_version"] = "0ld"
    (where / "manifest.json").write_text(json.dumps(manifest))
    read = module.sprt_table(*args, tmp_path, seed=5, elo=(0.0, 60.0), read=True)
    assert read[-1].rsplit("|", 2)[0] == played[-1].rsplit("|", 2)[0]  # same verdict and Elo
    assert read[-1].endswith("| 0ld |") and read[-1].startswith("| strong | weak | H1 | yes |")
    with pytest.raises(ValueError, match="another test"):
        module.sprt_table(*args, tmp_path, seed=6, elo=(0.0, 60.0), read=True)
    other_game = ("python_coloretto(players=3)", *args[1:])  # same name, other configuration
    with pytest.raises(ValueError, match="another test"):
        module.sprt_table(*other_game, tmp_path, seed=5, elo=(0.0, 60.0), read=True)


def test_sprt_only_writes_its_own_block_after_the_section_and_keeps_it(tmp_path, module):
    """--sprt-only plays only the SPRTs and writes them in a block of their own, after the
    game's section, which stays; a later full section leaves the block in place."""
    from unittest import mock

    out = tmp_path / "s.md"
    gs = module.GAMES["coloretto"]
    out.write_text("\n".join([f"<!-- game: {gs} -->", "section v1", f"<!-- /game: {gs} -->"]))
    rows = ["SPRTs, ...", "", "| A | B |", "|---|---|", "| default | H | H0 | no | 6 | -5 |"]
    with mock.patch.object(module, "sprt_table", return_value=rows) as st:
        argv = ["--games", "coloretto", "--sprt-only", "--sprt-against", "H"]
        assert module.main([*argv, "--sprt-seed", "7", "--out", str(out)]) == 0
    assert st.call_args.args[1] == [("default", "H")] and st.call_args.kwargs["seed"] == 7
    text = out.read_text()
    assert text.index("section v1") < text.index(f"<!-- sprt: {gs} -->")
    assert "--sprt-only --sprt-against H --sprt-seed 7" in text and rows[-1] in text
    new = [f"<!-- game: {gs} -->", "section v2", f"<!-- /game: {gs} -->"]
    text = module.merge(out, {gs: new})
    assert "section v2" in text and "section v1" not in text and rows[-1] in text


def test_a_section_is_replaced_and_the_others_kept_under_the_current_header(tmp_path, module):
    path = tmp_path / "s.md"
    rococo, staufer = module.GAMES["rococo"], module.GAMES["staufer"]
    old = ["# an old title", "", "a round-by-round log"]
    old += [f"<!-- game: {staufer} -->", "staufer v1", f"<!-- /game: {staufer} -->"]
    path.write_text("\n".join(old))
    text = module.merge(
        path, {rococo: [f"<!-- game: {rococo} -->", "rococo v1", f"<!-- /game: {rococo} -->"]}
    )
    assert text.startswith("\n".join(module.HEADER)) and "round-by-round log\n" not in text
    assert text.index("rococo v1") < text.index("staufer v1")  # in GAMES order
    path.write_text(text)
    text = module.merge(
        path, {staufer: [f"<!-- game: {staufer} -->", "staufer v2", f"<!-- /game: {staufer} -->"]}
    )
    assert "staufer v2" in text and "staufer v1" not in text and "rococo v1" in text


def test_ladder_only_plays_a_kept_ladder_reads_it_back_and_refuses_another(
    tmp_path, module, capsys
):
    """--ladder-only writes the ladder in its own block after the game's section (which
    stays); --ladder-dir keeps its ledger: a rerun resumes it (plays nothing new) and
    --ladder-read reports it as it stands; a ledger of another ladder is a one-line error."""
    out = tmp_path / "s.md"
    gs = module.GAMES["coloretto"]
    out.write_text("\n".join([f"<!-- game: {gs} -->", "section v1", f"<!-- /game: {gs} -->"]))
    keep = tmp_path / "ladders"
    argv = ["--quick", "--games", "coloretto", "--ladder-only", "--ladder", "200"]
    argv += ["--ladder-dir", str(keep), "--out", str(out)]
    assert module.main(argv) == 0
    text = out.read_text()
    block = text[text.index(f"<!-- ladder: {gs} -->") :]
    assert text.index("section v1") < text.index(f"<!-- ladder: {gs} -->")
    assert "| budget | s per decision | ahead of half the budget |" in block
    assert "| 200 | " in block and "| sims200 | " in block and "| S | " in block
    where = keep / "ladder-python_coloretto"
    parts = sorted(where.glob("part-*.parquet"))
    assert parts and module.main(argv) == 0  # resumed: finished, nothing new played
    assert sorted(where.glob("part-*.parquet")) == parts
    assert module.main([*argv, "--ladder-read"]) == 0
    read = out.read_text()
    assert "read from its ledger as it stands: 3 of 3 games played by code " in read
    assert "| every rung | | " in read
    assert module.main([*argv, "--ladder-read", "--ladder", "400"]) == 1  # another ladder
    assert module.main([*argv, "--ladder-read", "--ladder-seeds", "2"]) == 1
    assert "another ladder than the one asked for: its deals, 1" in capsys.readouterr().err


def test_a_rung_without_games_yet_says_so(tmp_path):
    """A ladder read while its top rung has no game shows that rung as not played."""
    from tournament.budget_ladder import ladder_lines, ladder_tables, pooled_doubling
    from tournament.pool import intervals, play, shares

    agents, seats = ladder_tables(200, 50)
    out = tmp_path / "l"
    r = play("python_coloretto(players=3)", agents, 1, 1, "serial", out, seats)
    lines = ladder_lines(r, intervals(out, r), [100, 200, 400], {"sims400": 0.5})
    assert lines[2].startswith("| 200 | n/a | ") and lines[2].endswith("| 3 |")
    assert lines[3] == "| 400 | 0.50 | not played yet | | | | 0 |"
    share, lo, _, n = pooled_doubling(out, r)  # one rung: its share; one deal: no interval
    assert n == 3 and share == next(x[2] for x in shares(r) if x[:2] == ("sims200", "sims100"))
    assert math.isnan(lo)


def test_the_pooled_doubling_resamples_deals_across_rungs(tmp_path):
    """Two rungs of two deals (each table its own: four), widened to contain Wilson's."""
    from solvers.intervals import wilson
    from tournament.budget_ladder import ladder_tables, pooled_doubling
    from tournament.pool import pair_outcomes, play

    (agents, seats), out = ladder_tables(400, 50), tmp_path / "l"
    r = play("python_coloretto(players=3)", agents, 2, 1, "serial", out, seats)
    share, lo, hi, n = pooled_doubling(out, r)
    deals = {k for pair, by in pair_outcomes(out, r).items() if pair[1] != "S" for k in by}
    w_lo, w_hi = wilson(share, len(deals))
    assert len(deals) == 4 and n == 12
    assert lo <= w_lo + 1e-12 <= share <= w_hi - 1e-12 <= hi
