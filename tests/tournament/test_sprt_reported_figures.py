"""The figures an SPRT reports are its sets' own (found in review). Was: the per-set SD
was the divide-by-n SD of the sets plus the likelihood's pseudo-counts at 0 and 1, while
the fixed-sample interval used the sample SD (a user rebuilding one from the other got
another interval); and every set won gave an interval up to +3600 Elo, the clip, where
the data bound nothing."""

from __future__ import annotations

import math

import numpy as np

from tournament.sprt.estimate import plain_mean
from tournament.sprt.gsprt import Bounds, Tally
from tournament.sprt.state import _end


def test_the_reported_sd_is_the_sample_sd_of_the_sets():
    rng = np.random.default_rng(0)
    scores = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=37, p=[0.1, 0.2, 0.3, 0.2, 0.2])
    tally = Tally(scores.tolist())
    mean, sd = tally.sample()
    assert mean == np.mean(scores)
    assert abs(sd - np.std(scores, ddof=1)) < 1e-12
    _, half = plain_mean(*tally.arrays(), len(scores))
    t95 = 2.028094  # Student's t, 36 degrees of freedom
    assert abs(half - t95 * sd / math.sqrt(len(scores))) < 1e-5  # the same SD
    assert math.isnan(Tally([1.0]).sample()[1])


def test_an_interval_end_at_every_set_won_or_lost_is_open():
    b = Bounds(0.0, 20.0)
    assert _end(b, 1.0, 0.5) == math.inf and _end(b, 0.0, 0.5) == -math.inf
    assert math.isfinite(_end(b, 0.9, 0.5)) and math.isnan(_end(b, math.nan, 0.5))
    mean, sd = Tally([1.0] * 20).sample()
    assert mean == 1.0 and sd == 0.0
