"""The review's marks legend says what a mark is read from (the review: it gave the
thresholds as 'points lost', but a mark needs the lower end of the loss's 95% range to
reach them, so a 3.3-point loss can be 'bad' at 3 or unmarked)."""

from __future__ import annotations

from tournament.advice.review import Decision, Review
from tournament.advice.review_text import summary_lines


def test_the_marks_legend_names_the_lower_end_of_the_95_percent_range():
    d = Decision(7, "draw", "draw", 0.5, 0.4, 0.6, 0.5, 0.0, loss_points=0.0, loss_first=0.0)
    rv = Review("python_coloretto(players=2)", 0, "heuristic", 0, [d])
    (marks,) = [line for line in summary_lines(rv) if line.startswith("marks:")]
    assert "(the lower end of the points lost's 95% range: doubtful >= " in marks


def test_the_review_header_says_from_whose_information_it_judges():
    """Was: 'review of P1's 87 decisions by ...; values for P1', never saying the review
    judges each move from P1's information state (`advise` says so)."""
    import re
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "advice.md").read_text()
    headers = re.findall(r"review of P\d's .*", docs)
    assert headers and all("from P" in h and "information state at the time" in h for h in headers)
