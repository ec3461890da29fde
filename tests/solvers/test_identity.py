"""Agent ids follow the code an agent kind's behaviour imports, not the whole package:
an edit to one solver leaves the ledgers of the others resumable."""

from __future__ import annotations

from pathlib import Path

from solvers import identity
from solvers.base import AgentKind
from solvers.registry import KINDS

GAME = "python_coloretto(players=3)"


def names(module: str) -> set[str]:
    root = Path(identity.__file__).resolve().parent.parent
    return {str(p.relative_to(root)) for p in identity.solvers_closure(module)}


def test_the_search_closure_holds_what_the_search_imports_and_not_the_other_solvers():
    files = names(KINDS["ismcts"].factory.__module__)
    assert {"solvers/search/tree.py", "solvers/search/agents.py", "solvers/value_model.py"} <= files
    assert {"solvers/__init__.py", "solvers/search/__init__.py"} <= files  # packages run too
    assert not {"solvers/cfr_search.py", "solvers/mccfr_train.py"} & files


def test_the_registry_file_counts_in_every_kind_for_it_builds_every_agent(monkeypatch):
    """An edit to registry.py (how specs are resolved before the factory sees them) changes
    the search's version, though the search never imports the registry."""
    ismcts = KINDS["ismcts"]
    before = identity.kind_version(GAME, ismcts)
    real = Path.read_bytes
    monkeypatch.setattr(
        Path, "read_bytes", lambda p: real(p) + (b"#" if p.name == "registry.py" else b"")
    )
    identity._hash.cache_clear()
    assert identity.kind_version(GAME, ismcts) != before
    monkeypatch.undo()
    identity._hash.cache_clear()


def test_kinds_built_by_the_registry_hash_everything_the_registry_imports():
    files = names(KINDS["policy"].factory.__module__)
    assert {"solvers/registry.py", "solvers/cfr_search.py", "solvers/search/tree.py"} <= files


def test_a_kind_outside_solvers_hashes_the_whole_package():
    kind = AgentKind(name="x", summary="", params=(), factory=lambda g, p, s: None)
    assert identity.kind_version(GAME, kind) == identity.code_version(GAME)
    assert identity.solvers_closure(__name__) == ()


def test_kind_versions_differ_by_closure_and_are_stable():
    ismcts, cfr = KINDS["ismcts"], KINDS["cfr-search"]
    assert identity.kind_version(GAME, ismcts) == identity.kind_version(GAME, KINDS["mcts"])
    assert identity.kind_version(GAME, ismcts) != identity.kind_version(GAME, cfr)
    assert identity.kind_version(GAME, ismcts) != identity.kind_version("python_rococo", ismcts)


def test_relative_and_from_imports_are_followed(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "from . import tree\nfrom .. import base as b\nimport solvers.spec\n"
        "def f():\n    from solvers.search.leaf import x\n"
    )
    got = identity._imports(src, "solvers.search")
    assert {"solvers.search.tree", "solvers.base", "solvers.spec"} <= set(got)
    assert "solvers.search.leaf" in got  # imports inside functions count


def test_an_edit_inside_the_closure_changes_the_version_and_one_outside_does_not(monkeypatch):
    """Hash a copy: pretend cfr_search.py and then tree.py changed."""
    ismcts = KINDS["ismcts"]
    before = identity.kind_version(GAME, ismcts)
    real = Path.read_bytes

    def edited(target):
        def read(self):
            data = real(self)
            return data + b"# edit" if self.name == target else data

        return read

    for target, same in (("cfr_search.py", True), ("tree.py", False)):
        monkeypatch.setattr(Path, "read_bytes", edited(target))
        identity._hash.cache_clear()
        assert (identity.kind_version(GAME, ismcts) == before) is same, target
    monkeypatch.undo()
    identity._hash.cache_clear()
