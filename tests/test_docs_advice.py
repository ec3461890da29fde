"""docs/ADVICE-MEASURED.md is the rendering of its data file (issue 29): no figure in it is typed by
hand, every target's verdict is computed from the figures, and every phase runs (--quick)."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def bench(load_script):
    return load_script("bench_advice")


def test_the_document_is_the_rendering_of_its_data(bench):
    assert bench.DOC.read_text() == bench.render(bench.load_data())
    assert bench.main(["render", "--check"]) == 0


def test_the_floors_in_the_code_are_the_ones_fitted(bench):
    from solvers.search import analysis

    data = bench.load_data()
    for game, c in data.get("calibration", {}).items():
        name = game.split("(")[0]
        assert name in analysis.FLOOR, f"{name}: calibrated, but no floors in the code"
        assert analysis.FLOOR[name] == bench.report.fitted_floors(c["fit"])


def test_the_loss_floors_in_the_code_are_the_ones_fitted(bench):
    from tournament.advice.review import LOSS_FLOOR

    data = bench.load_data()
    for game, c in data.get("noise", {}).items():
        assert LOSS_FLOOR.get(game.split("(")[0], 0.0) == bench.report.loss_floor(c)


def test_a_verdict_follows_its_figures(bench):
    data = {
        "serve": {
            "g": {"agent": "a", "first_partial": 0.1, "answers": 3, "total": 1.0},
            "h": {"agent": "a", "first_partial": 0.3, "answers": 3, "total": 1.0},
        }
    }
    text = bench.render(data)
    assert "| g | - | a | 0.100 | met |" in text and "| h | - | a | 0.300 | **missed** |" in text


def test_check_fails_on_a_stale_document(bench, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("stale\n")
    assert bench.main(["render", "--check", "--doc", str(doc)]) == 1
    assert doc.read_text() == "stale\n"  # --check never writes


def test_every_phase_runs_in_quick_mode(bench, tmp_path):
    data, doc = tmp_path / "advice.json", tmp_path / "ADVICE-MEASURED.md"
    for phase in ("noise", "calibration", "marks", "ladder", "serve"):
        assert bench.main([phase, "--quick", "--games", "coloretto", "--data", str(data)]) == 0
    assert bench.main(["render", "--data", str(data), "--doc", str(doc)]) == 0
    stored = json.loads(data.read_text())
    assert set(stored) == {"noise", "calibration", "marks", "ladder", "serve"}
    assert len(stored["ladder"]["agents"]) >= 5
    text = doc.read_text()
    for title in (
        "## Honest intervals",
        "## How far a loss moves",
        "## Marks that",
        "## The review measures",
        "## The engine",
    ):
        assert title in text
    assert "Not measured yet" not in text
