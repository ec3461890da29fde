"""Ratings from one or more ledgers: a joint Bradley–Terry Elo (OpenSpiel's MM fit,
``pyspiel.elo``) with bootstrap confidence intervals, plus the tables around it.

- Each N-player game becomes N(N-1)/2 pairwise results by final rank; equal ranks are draws.
  Void games (no ranks) are left out.
- Confidence intervals resample whole duplicate sets (run, seed): games that share a deck
  are not independent, so resampling single games would make the intervals too narrow.
- Ratings are anchored at the mean: the average Elo is 0 (Ordo's default), so no agent's
  interval depends on how well one reference agent is measured. ``--anchor NAME=ELO`` (or
  ``NAME``, meaning 0) pins one agent instead. Bootstrap samples use the same anchor.
- The fit is OpenSpiel's with its default prior: ``smoothing_factor`` 0.01 added to
  every pair's wins each way (a virtual 0.01 win each way, a draw of weight 0.02), so a
  perfect record stays finite: 400 wins of 400 put the two agents 400 log10(400.01 / 0.01)
  = 1841 Elo apart. It is reported with every table (``Ratings.prior``).
- Separated results leave a rating unbounded on one side (or both): an agent that won (or
  lost) every one of its pairwise games, or a group that won (lost) every game against the
  others (``tournament.ratings.separation`` has the rule). Its interval is open there,
  reported as such (``Ratings.one_sided``), its finite side an exact bound on the games
  across the separation, its point estimate only what the prior allows; such agents do not
  count in the mean anchor, nor do agents separated in more than (1 - confidence)/2 of
  ``separation.ANCHOR_RESAMPLES`` fixed resamples (so the anchor, and every point rating, is the same
  whatever ``--seed`` and ``--bootstrap``; the report names the anchor's agents when some
  are left out). An end that more than (1 - confidence)/2 of the bootstrap resamples leave
  unbounded (399 wins of 400) is open too. Without resamples (``--bootstrap 0``, a single
  duplicate set) a two-sided interval is not measured: its bounds are NaN (``-``, null).
- Beside Elo: Plackett-Luce ratings on whole finishing orders with a seat term
  (``tournament.ratings.plackett_luce``), likelihood of superiority, a crosstable, seat advantage, games per agent,
  a warning when the comparison graph is disconnected, and α-Rank (OpenSpiel's
  ``egt.alpharank``) on the empirical pairwise payoff table.
"""

from __future__ import annotations

import math

import numpy as np

from tournament.ratings.elo import (
    alpha_rank,
    components,
    fit_elo,
    fit_elo_many,
    los_matrix,
    majority_cycle,
    prior_text,
)
from tournament.ratings.pairs import (
    Games,
    PairRecords,
    block_bounds,
    block_weights,
    bound_noise,
    pairwise,
    score_diffs,
    seat_table,
    small_sample_factor,
)
from tournament.ratings.plackett_luce import PLRatings, fit_plackett_luce
from tournament.ratings.separation import (
    anchor_beats,
    anchor_words,
    exact_bounds,
    open_ends,
    with_resamples,
)
from tournament.ratings.table import AgentInfo, AnchorError, Ratings, RatingsError
from tournament.ratings.unrated import reason as unrated_reason
from tournament.ratings.unrated import split_unrated
from tournament.sprt.gsprt import MAX_ELO

DEFAULT_BOOTSTRAP = 200


FEW_SETS = 5  # below this many duplicate sets the report says the intervals are stretched


def rate(
    agents: list[AgentInfo],
    groups: list[Games],
    bootstrap: int = DEFAULT_BOOTSTRAP,
    anchor: tuple[str, float] | None = None,
    seed: int = 0,
    void_games: int = 0,
    confidence: float = 0.95,
    plackett_luce: bool = True,
    unrated: list[AgentInfo] | None = None,
) -> Ratings:
    """The ratings of ``agents`` from ``groups``; an agent without a rated game against
    another (``tournament.ratings.unrated``) is left out of the fit and the anchor and
    listed in ``Ratings.unrated`` (with ``unrated``, those already left out)."""
    agents, groups, unrated = _rated(agents, groups, unrated)
    k = len(agents)
    parts = [pairwise(g, k) for g in groups]
    blk, a, b, w = (np.concatenate([p[i] for p in parts]) for i in range(4))
    num_blocks = int(max((g.blocks.max() + 1 for g in groups if len(g.blocks)), default=0))
    rec = PairRecords(blk, a, b, w, k, num_blocks)
    wins, draws = rec.matrices()
    names = [x.name for x in agents]
    anchor_index, anchor_value, anchor_text = _anchor(agents, anchor, unrated)
    raw = fit_elo(wins, draws)
    samples, beats = _bootstrap(rec, bootstrap, seed)
    fixed = anchor_beats(rec) if anchor_index is None else []
    sep, resampled = with_resamples(wins + draws > 0, beats, anchor_index, confidence, fixed)
    finite = sep.anchor  # the mean anchor averages the agents with a finite rating
    if anchor_index is None:
        anchor_text = anchor_words(names, finite, confidence)

    def anchored(r):
        if anchor_index is None:
            return r - r[finite].mean() + anchor_value
        return r - r[anchor_index] + anchor_value

    elo = anchored(raw)
    lo, hi, noise = _bootstrap_bounds(samples, anchored, elo, num_blocks, confidence)
    ref = _reference(anchor_index, finite)
    lo[ref] = hi[ref] = elo[ref]
    games_per, score_diff = _game_counts(groups, k)
    comps = [[names[i] for i in c] for c in components(wins, draws)]
    ci_low, ci_high = np.minimum(lo, elo), np.maximum(hi, elo)
    exact = exact_bounds(wins + draws / 2.0, sep, anchored, confidence)
    sided = open_ends(names, sep, ci_low, ci_high, exact, resampled, confidence)
    pl = None
    if plackett_luce:
        boot = bootstrap if num_blocks > 1 else 0
        pl = fit_plackett_luce(groups, k, num_blocks, anchored, boot, seed + 1, confidence)
        _pl_ends(pl, ci_low, ci_high, ref)
    return Ratings(
        agents=agents,
        elo=elo,
        ci_low=ci_low,
        ci_high=ci_high,
        games=games_per,
        wins=wins,
        draws=draws,
        score_diff=score_diff,
        los=los_matrix(wins),
        seats=[row for g in groups for row in seat_table(g)],
        alpharank=alpha_rank(wins, draws),
        intransitive=majority_cycle(wins, draws),
        anchor=anchor_text,
        bootstrap=bootstrap if num_blocks > 1 else 0,
        blocks=num_blocks,
        void_games=void_games,
        components=comps,
        warnings=_warnings(comps, num_blocks, bootstrap, confidence),
        prior=prior_text(),
        one_sided=sided,
        bound_noise=_largest_noise(noise, sided, ci_low, ci_high, ref, names),
        plackett_luce=pl,
        anchor_set=finite.copy(),
        unrated=unrated,
        confidence=confidence,
    )


def _bootstrap_bounds(samples, anchored, elo: np.ndarray, num_blocks: int, confidence: float):
    """(low, high, their Monte Carlo errors): the percentile bounds of the anchored
    replicates; NaN without resamples (not measured)."""
    if not len(samples):
        nan = np.full(len(elo), np.nan)
        return nan, nan.copy(), (nan, nan)
    reps = [anchored(x) for x in samples]
    lo, hi = block_bounds(reps, elo, num_blocks, confidence)
    return lo, hi, bound_noise(reps, num_blocks, confidence)


def _largest_noise(noise, sided: list[str], lo, hi, ref: list[int], names: list[str]):
    """(the largest Monte Carlo error of a bootstrap bound shown (two-sided intervals, not
    the reference), which bound it is); (NaN, "") when none."""
    found = [
        (float(x), f"{names[i]}'s {side} bound")
        for i in range(len(sided))
        if not sided[i] and i not in ref
        for x, end, side in ((noise[0][i], lo[i], "lower"), (noise[1][i], hi[i], "upper"))
        if math.isfinite(end) and math.isfinite(x)
    ]
    return max(found, default=(math.nan, ""))


def _rated(agents: list[AgentInfo], groups: list[Games], unrated: list[AgentInfo] | None):
    """(rated agents, their games, every unrated agent); an error when fewer than two."""
    agents, groups, left_out = split_unrated(agents, groups)
    if not agents:
        raise RatingsError("no rated games (all void, or every game was self-play)")
    if len(agents) < 2:
        raise RatingsError("need at least two agents with rated games")
    return agents, groups, [*(unrated or []), *left_out]


def _pl_ends(pl: PLRatings, ci_low: np.ndarray, ci_high: np.ndarray, ref: list[int]) -> None:
    """Plackett-Luce's intervals no surer than the data: open where Elo's are (or where
    its own probe finds the rating the prior's), and there its finite side no tighter than
    Elo's (an exact bound across a separation; PL's own is a percentile of fits the prior
    holds); the reference agent exact."""
    up = np.isposinf(ci_high) | np.isposinf(pl.ci_high)
    down = np.isneginf(ci_low) | np.isneginf(pl.ci_low)
    pl.ci_high[up], pl.ci_low[down] = math.inf, -math.inf
    pl.ci_low[up] = np.fmin(pl.ci_low, ci_low)[up]  # NaN (not measured) yields to a bound
    pl.ci_high[down] = np.fmax(pl.ci_high, ci_high)[down]
    pl.ci_low[ref] = pl.ci_high[ref] = pl.elo[ref]


def _reference(anchor_index: int | None, finite: np.ndarray) -> list[int]:
    """The agent whose rating is the reference, exact by definition: a pinned agent, or
    the one agent the mean anchor keeps; none when the anchor averages several."""
    if anchor_index is not None:
        return [anchor_index]
    return [int(i) for i in np.flatnonzero(finite)] if finite.sum() == 1 else []


def _bootstrap(rec, bootstrap: int, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """The fit on each block-bootstrap replicate (unanchored) and its "beat or drew"
    matrix; none when there is a single duplicate set or no bootstrap."""
    if bootstrap <= 0 or rec.num_blocks <= 1:
        return np.zeros((0, rec.k)), []
    rng = np.random.default_rng(seed)
    samples = np.empty((bootstrap, rec.k))
    beats = []
    chunk = 16  # replicates per sparse product
    for start in range(0, bootstrap, chunk):
        n = min(chunk, bootstrap - start)
        wins, draws = rec.matrices_many(block_weights(rng, rec.num_blocks, n))
        samples[start : start + n] = fit_elo_many(wins, draws)
        beats += list(wins + draws > 0)
    return samples, beats


def _game_counts(groups: list[Games], k: int) -> tuple[np.ndarray, np.ndarray]:
    """Games per agent (self-play seats count once) and the mean score difference per pair."""
    games_per = np.zeros(k, dtype=np.int64)
    score_sum = np.zeros((k, k))
    score_n = np.zeros((k, k))
    for g in groups:
        games_per += (g.agents[:, :, None] == np.arange(k)).any(axis=1).sum(axis=0)
        score_diffs(g, score_sum, score_n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return games_per, score_sum / score_n


def _warnings(
    comps: list[list[str]], num_blocks: int, bootstrap: int, confidence: float = 0.95
) -> list[str]:
    out = []
    if len(comps) > 1:
        out.append(
            "the comparison graph is disconnected ("
            + " | ".join(", ".join(c) for c in comps)
            + "): ratings in different groups are not comparable"
        )
    if num_blocks <= 1 and bootstrap > 0:
        out.append("a single duplicate set: no bootstrap confidence intervals")
    elif bootstrap > 0 and num_blocks < FEW_SETS:
        out.append(
            f"intervals rest on {num_blocks} duplicate sets: stretched "
            f"{small_sample_factor(num_blocks, confidence):.1f}x for so few (small_sample_factor); "
            "play more sets for narrower ones"
        )
    return out


def _anchor(
    agents: list[AgentInfo],
    anchor: tuple[str, float] | None,
    unrated: list[AgentInfo] | None = None,
):
    names = [x.name for x in agents]
    if anchor is not None:
        name, value = anchor
        why = next((unrated_reason(x) for x in unrated or [] if x.name == name), None)
        if why is not None:
            raise AnchorError(f"--anchor: {name} has no rating ({why}); anchor a rated agent")
        alias = [x.name for x in agents if name in x.aliases]
        name = alias[0] if name not in names and len(alias) == 1 else name
        if name not in names:
            raise AnchorError(f"--anchor: no agent named {name!r}; agents: {', '.join(names)}")
        return names.index(name), float(value), f"{name} = {value:g}"
    return None, 0.0, "mean rating = 0"


def parse_anchor(text: str | None) -> tuple[str, float] | None:
    """'AGENT=ELO' or 'AGENT' (= 0), ELO bounded as ``meeple sprt``'s; None: the mean anchor."""
    if not text:
        return None
    name, sep, value = text.rpartition("=")
    if not sep:
        return text.strip(), 0.0
    try:
        if not name or not abs(float(value)) <= MAX_ELO:  # NaN too; 1e308 put all agents there
            raise ValueError
        return name, float(value)
    except ValueError:
        why = f"AGENT or AGENT=ELO with ELO in [-{MAX_ELO}, {MAX_ELO}]"
        raise RatingsError(f"--anchor must be {why}, got {text!r}") from None
