"""`meeple solve` says which algorithm runs and what its figures mean (was: the MCCFR
variant switched silently with the game string, nash_conv had no convention or utility
scale, and the mean of the largest sampled, discounted regrets printed as "average
regret")."""

from __future__ import annotations

import spiel_games
from solvers.solve_header import header
from solvers.solve_request import SolveConfig, validate

TINY = spiel_games.get_spec("coloretto").tiny_configs[0]


def _header(game: str, solver: str, tmp_path) -> str:
    cfg = SolveConfig(game=game, solver=solver, iterations=1, out=str(tmp_path / "x.parquet"))
    return header(cfg, validate(cfg))


def test_the_header_names_the_mccfr_variant_the_game_string_picks(tmp_path):
    tiny = _header(TINY, "mccfr-os", tmp_path)
    assert "classic MCCFR" in tiny and "counterfactual weighting, no discount, batch 1" in tiny
    assert "exploitability = nash_conv / 2" in tiny and "rank utility" in tiny
    # a parameter added to a tiny string takes it off the list: the full-game variant
    scored = _header(TINY[:-1] + ",utility=score)", "mccfr-os", tmp_path)
    assert "full-game MCCFR" in scored and "Linear CFR, batch 64" in scored
    full = _header("python_coloretto(players=3)", "mccfr-es", tmp_path)
    assert "windowed external sampling" in full and "nash_conv" not in full


def test_exact_solvers_state_the_nash_conv_convention_and_scale(tmp_path):
    kuhn = _header("kuhn_poker", "cfr+", tmp_path)
    assert kuhn.startswith("cfr+ on kuhn_poker: exact CFR+")
    assert "best-response gains summed (exploitability = nash_conv / 2)" in kuhn
    scored = _header(TINY[:-1] + ",utility=score)", "cfr", tmp_path)
    assert "points" in scored and "no Nash guarantee" in scored


def test_the_sampled_regret_figure_is_not_called_average_regret():
    from tournament.cli.solvers import _figure

    shown = _figure("avg_regret", 0.01)
    assert shown == "mean max sampled regret = 0.01 (not a regret bound)"


def test_a_restricted_nash_response_is_named_with_what_its_nash_conv_measures(tmp_path):
    """Was: --rnr ran under "classic MCCFR ... nash_conv = ..." and nothing said the
    strategy does not aim at an equilibrium."""
    cfg = SolveConfig(TINY, "mccfr-os", 1, str(tmp_path / "x.parquet"), rnr=0.5)
    line = header(cfg, validate(cfg))
    assert "restricted Nash response (--rnr 0.5" in line and "need not fall to 0" in line
    cfg = SolveConfig("python_coloretto(players=3)", "mccfr-os", 1, str(tmp_path / "y.npz"))
    cfg.rnr = 0.8
    full = header(cfg, validate(cfg))
    assert "restricted Nash response (--rnr 0.8" in full and "nash_conv" not in full


def test_an_openspiel_game_of_three_players_gets_classic_mccfr_with_its_units(tmp_path):
    """Was: kuhn_poker(players=3) ran "full-game MCCFR" (Linear CFR, windowed sampling,
    batch 64) and reported nash_conv with no units, while the docs promised classic
    MCCFR on OpenSpiel games."""
    line = _header("kuhn_poker(players=3)", "mccfr-es", tmp_path)
    assert "classic MCCFR (an OpenSpiel game): external sampling, no discount, batch 1" in line
    assert "exploitability = nash_conv / 3" in line
