"""Regenerate every command output shown in README.md and docs/*.md (issue 14).

    python scripts/docs_examples.py              # rewrite the marked blocks in place
    python scripts/docs_examples.py --check      # exit 1 and print a unified diff on any difference
    python scripts/docs_examples.py --only NAME  # run some examples only (with or without --check)

A shown output sits in a marked block::

    <!-- docs-example: NAME -->
    ```console
    $ meeple ...
    ...output...
    ```
    <!-- /docs-example -->

and ``NAME`` is a table in ``docs/examples.toml``:

| key        | meaning                                                                  |
|------------|--------------------------------------------------------------------------|
| `argv`     | the arguments after `meeple` (required)                                  |
| `stdin`    | typed input; it is echoed into the output where the command reads it     |
| `exit`     | the expected exit status (default 0); any other status is an error       |
| `note`     | free text for maintainers, never printed                                 |
| `verdict`  | `true` on an advice example whose agents are, in this order, the default  |
|            | search, the old search (`eval=score,prior=none`) and `heuristic`: a       |
|            | generated line under the block says whom the default search agrees with  |
| `same_as`  | NAME of another example whose output this one must reproduce exactly     |
|            | (a checked claim; such an entry needs no block)                          |

Every example runs in-process through typer's CliRunner, in file order, in one fresh
temporary working directory (with `configs/` linked in, and `meeple play`'s recovery folder
at `recovery/` in it), so one example can use a file an earlier one wrote and nothing is
written into the repository. Outputs must not depend on
the clock: use simulation budgets, never `time=`. What still carries wall time is removed
before comparing (the filters below): an advice agent's `(0.37 s)`, JSON `"seconds"`, the
`, 6.3s` of `meeple solve`'s summary and the size of a blueprint it wrote (its manifest holds
the training seconds), `meeple games simulate`'s speed line.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import re
import shlex
import sys
import tempfile
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

EXAMPLES = ROOT / "docs" / "examples.toml"
KEYS = {"argv", "stdin", "exit", "note", "verdict", "same_as"}
BLOCK = re.compile(
    r"(?P<open><!-- docs-example: (?P<name>[A-Za-z0-9_.-]+) -->\n)"
    r"(?P<body>.*?)"
    r"(?P<close><!-- /docs-example -->)",
    re.S,
)
# A fenced block that shows a command being run (`$ meeple ...`): it must be a marked block.
FENCED_COMMAND = re.compile(r"^```[a-z]*\n(?P<cmd>\$ meeple[^\n]{0,60})", re.M)
WIDTH = 100  # the command line is broken before options beyond this width
NUM = r"-?[0-9][0-9.eE+-]*"
FILTERS = (
    (re.compile(r"  \(\d+\.\d+ s\)$", re.M), ""),  # advise: an agent's wall time
    (re.compile(r",(\s*)\"seconds\": " + NUM + r"(?=\s*\})"), ""),  # JSON, last key
    (re.compile(r"\"seconds\": " + NUM + r",\s*"), ""),  # JSON, any other key
    (re.compile(r"(\d+ this run), \d+\.\d+s\)"), r"\1)"),  # solve's summary line
    (re.compile(r"^speed: .* transitions/s\n", re.M), ""),  # games simulate
    # a blueprint's size: its manifest holds the training seconds
    (re.compile(r"(wrote \S+\.npz: \d+ keys), \d+ bytes"), r"\1"),
)


class ExampleError(Exception):
    """An example that cannot be run or rendered (one line)."""


@dataclass
class Example:
    name: str
    argv: list[str]
    stdin: str | None = None
    exit: int = 0
    verdict: bool = False
    same_as: str | None = None


def load_examples(path: Path = EXAMPLES) -> dict[str, Example]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    out: dict[str, Example] = {}
    for name, entry in data.items():
        if not isinstance(entry, dict):
            raise ExampleError(f"{path.name}: [{name}] must be a table")
        unknown = set(entry) - KEYS
        if unknown:
            raise ExampleError(f"{path.name}: [{name}] has unknown keys {sorted(unknown)}")
        argv = entry.get("argv")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            raise ExampleError(f"{path.name}: [{name}] needs argv = [strings]")
        out[name] = Example(
            name,
            argv,
            stdin=entry.get("stdin"),
            exit=int(entry.get("exit", 0)),
            verdict=bool(entry.get("verdict", False)),
            same_as=entry.get("same_as"),
        )
    for ex in out.values():
        if ex.same_as is not None and ex.same_as not in out:
            raise ExampleError(f"[{ex.name}] same_as names an unknown example {ex.same_as!r}")
    return out


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def command_line(argv: list[str]) -> str:
    """``$ meeple ...``; past WIDTH, continued with `` \\`` before an option (an option and
    its value stay on one line)."""
    chunks: list[str] = []
    for i, raw in enumerate(argv):
        word = shlex.quote(raw)
        starts = raw.startswith("-") or i == 0
        if starts or not chunks:
            chunks.append(word)
        else:
            chunks[-1] += " " + word
    lines = ["$ meeple"]
    for chunk in chunks:
        if len(lines[-1]) + 1 + len(chunk) > WIDTH and lines[-1].strip() not in ("$ meeple", ""):
            lines[-1] += " \\"
            lines.append("   ")
        lines[-1] += " " + chunk
    return "\n".join(lines)


def filtered(text: str) -> str:
    for pattern, repl in FILTERS:
        text = pattern.sub(repl, text)
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


class _EchoingStdin:
    """stdin that writes each line it hands out to stdout, as a terminal would show it;
    its ``buffer`` (the bytes, which the JSON engine reads) echoes the same way."""

    def __init__(self, stream, binary: bool = False) -> None:
        self._stream = stream
        self._binary = binary

    @property
    def buffer(self) -> _EchoingStdin:
        return _EchoingStdin(self._stream.buffer, binary=True)

    def readline(self, *args):
        line = self._stream.readline(*args)
        if self._binary:  # after what the text layer holds, in order
            sys.stdout.flush()
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(line)
            sys.stdout.flush()  # before what the command then writes on stderr
        return line

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _runner(echo: bool):
    from typer.testing import CliRunner

    class EchoRunner(CliRunner):
        @contextlib.contextmanager
        def isolation(self, *args, **kwargs):
            with super().isolation(*args, **kwargs) as streams:
                if echo:
                    sys.stdin = _EchoingStdin(sys.stdin)  # type: ignore[assignment]
                yield streams

    return EchoRunner()


def run(ex: Example) -> str:
    """The example's output (stdout and stderr as they interleave, input echoed), filtered."""
    from tournament.cli import app

    runner = _runner(echo=ex.stdin is not None)
    result = runner.invoke(
        app,
        ex.argv,
        input=ex.stdin,
        env={"COLUMNS": str(WIDTH), "NO_COLOR": "1", "TERM": "dumb"},
        prog_name="meeple",
    )
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        raise ExampleError(f"[{ex.name}] raised {type(exc).__name__}: {exc}")
    if result.exit_code != ex.exit:
        last = (result.output.strip().splitlines() or [""])[-1]
        raise ExampleError(
            f"[{ex.name}] exited {result.exit_code}, expected {ex.exit}: {last[:200]}"
        )
    return filtered(result.output)


AGREE = "agents agree: "
DISAGREE = "agents disagree: "


def verdict(ex: Example, output: str) -> str:
    """One generated sentence: does the default search agree with the old one and with
    the heuristic? Read from the advice output's last line."""
    specs = [ex.argv[i + 1] for i, a in enumerate(ex.argv[:-1]) if a in ("-a", "--agent")]
    if len(specs) != 3 or specs[2] != "heuristic":
        raise ExampleError(
            f"[{ex.name}] verdict needs the agents: new search, old search, heuristic"
        )
    last = output.splitlines()[-1]
    if last.startswith(AGREE):
        best = dict.fromkeys(specs, last[len(AGREE) :])
    elif last.startswith(DISAGREE):
        pairs = [p.rsplit(" -> ", 1) for p in last[len(DISAGREE) :].split("; ")]
        best = {p[0]: p[1] for p in pairs if len(p) == 2}
    else:
        raise ExampleError(f"[{ex.name}] no agree/disagree line to read a verdict from")
    if list(best) != specs:
        raise ExampleError(f"[{ex.name}] cannot read every agent's move from {last!r}")
    new, old, heur = (best[s] for s in specs)

    old_name = f"the old search `{specs[1]}`"
    if old == new and heur == new:
        said = f"agrees with both {old_name} and the heuristic"
    elif old != new and heur != new:
        said = f"disagrees with both {old_name} (`{old}`) and the heuristic (`{heur}`)"
    elif old == new:
        said = f"agrees with {old_name} and disagrees with the heuristic (`{heur}`)"
    else:
        said = f"disagrees with {old_name} (`{old}`) and agrees with the heuristic"
    return f"Generated verdict: the default search `{specs[0]}` plays `{new}`; it {said}."


def render(ex: Example, output: str) -> str:
    """The body of a marked block."""
    body = f"```console\n{command_line(ex.argv)}\n{output}\n```\n"
    if ex.verdict:
        body += "\n" + verdict(ex, output) + "\n"
    return body


def run_all(examples: dict[str, Example], names: Iterable[str]) -> dict[str, str]:
    """Run the named examples (in file order) in one temporary working directory."""
    wanted = set(names)
    outputs: dict[str, str] = {}
    cwd = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="meeple-docs-") as tmp:
        os.symlink(ROOT / "configs", Path(tmp) / "configs")
        os.symlink(ROOT / "docs", Path(tmp) / "docs")  # the records examples read
        os.chdir(tmp)
        # `meeple play` keeps unsaved games in a recovery folder: here one beside the
        # examples, so the paths it prints are the same on every machine.
        old_recovery = os.environ.get("MEEPLE_RECOVERY_DIR")
        os.environ["MEEPLE_RECOVERY_DIR"] = "recovery"
        try:
            for name, ex in examples.items():
                if name in wanted:
                    print(f"  {name}", file=sys.stderr, flush=True)
                    outputs[name] = run(ex)
        finally:
            os.chdir(cwd)
            if old_recovery is None:
                del os.environ["MEEPLE_RECOVERY_DIR"]
            else:
                os.environ["MEEPLE_RECOVERY_DIR"] = old_recovery
    for name in wanted:
        ex = examples[name]
        same = ex.same_as
        if same is not None and same in outputs and outputs[name] != outputs[same]:
            diff = difflib.unified_diff(
                outputs[same].splitlines(), outputs[name].splitlines(), same, name, lineterm=""
            )
            raise ExampleError(f"[{name}] differs from [{same}]:\n" + "\n".join(diff))
    return outputs


def rewrite(text: str, bodies: dict[str, str]) -> str:
    """``text`` with every marked block whose name is in ``bodies`` replaced."""

    def sub(m: re.Match) -> str:
        body = bodies.get(m["name"])
        return m.group(0) if body is None else m["open"] + body + m["close"]

    return BLOCK.sub(sub, text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="these examples only")
    args = ap.parse_args(argv)

    try:
        examples = load_examples()
    except (ExampleError, tomllib.TOMLDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    docs = {path: path.read_text() for path in doc_files()}
    used = {m["name"]: path for path, text in docs.items() for m in BLOCK.finditer(text)}
    unknown = sorted(set(used) - set(examples))
    if unknown:
        print(f"error: blocks without an entry in docs/examples.toml: {unknown}", file=sys.stderr)
        return 2
    unmarked = [
        f"{path.relative_to(ROOT)}: {m['cmd']}"
        for path, text in docs.items()
        for m in FENCED_COMMAND.finditer(BLOCK.sub("", text))
    ]
    if unmarked:
        print(f"error: command output outside a docs-example block: {unmarked}", file=sys.stderr)
        return 2
    unused = sorted(n for n, ex in examples.items() if n not in used and ex.same_as is None)
    if unused and args.only is None:
        print(f"error: entries without a block in the docs: {unused}", file=sys.stderr)
        return 2
    names = list(examples) if args.only is None else args.only
    missing = [n for n in names if n not in examples]
    if missing:
        print(f"error: no such example: {missing}", file=sys.stderr)
        return 2
    try:
        outputs = run_all(examples, names)
        bodies = {n: render(examples[n], out) for n, out in outputs.items() if n in used}
    except ExampleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1

    changed = False
    for path, text in docs.items():
        new = rewrite(text, bodies)
        if new == text:
            continue
        changed = True
        rel = path.relative_to(ROOT)
        if args.check:
            sys.stdout.writelines(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    new.splitlines(keepends=True),
                    f"a/{rel}",
                    f"b/{rel}",
                )
            )
        else:
            path.write_text(new)
            print(f"rewrote {rel}", file=sys.stderr)
    if args.check and changed:
        print("error: the docs differ from the examples' output: run scripts/docs_examples.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
