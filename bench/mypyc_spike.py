"""Build B of bench/README.md's mypyc section again: the Carcassonne family compiled.

Copies ``service/`` to a temporary directory, makes there the few changes mypyc needs
(non-native classes for the rulesets and the states, the slots tuple out of a class
body, a ``Feature.copy`` that constructs), compiles the modules with mypyc in place and
then, with the copy first on ``PYTHONPATH``: the five Carcassonne-family hashes of
``same_games.py`` (compare with a pure run) and, with ``--callgrind``, instructions per
game of the base game, all expansions and South Seas, compiled and pure.

    .venv/bin/pip install mypy==2.4.1   # (in the dev extras)
    .venv/bin/python bench/mypyc_spike.py [--keep DIR] [--callgrind]

Nothing in the repository is changed; the changes are text substitutions that fail
loudly if the code they expect has moved.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CARCASSONNE_CASES = [
    "base",
    "base, greedy, 3 seats",
    "external, no farmers",
    "all expansions",
    "south seas",
]
NON_NATIVE = {
    "service/rules/tiling/turns.py": ["FoldingInPlace", "SeatsLeaving"],
    "service/rules/tiling/state.py": ["TileGameState"],
    "service/rules/tiling/tiles.py": ["FitTable"],
    "service/rules/carcassonne/game.py": ["Carcassonne", "_Reach"],
    "service/rules/carcassonne/state.py": ["State"],
    "service/rules/south_seas/state.py": ["State"],
}
#: not compiled: core.py (Catan subscripts its Ruleset), registry.py, tiling/turns.py
#: (an interpreted SouthSeas subclasses its mixins), south_seas/game.py (its class-body
#: handler table), the packages' __init__.py
EXCLUDED = {"tiling/turns.py", "south_seas/game.py"}
CONFIG = """[mypy]
python_version = 3.11
[mypy-service.rules.catan.*]
ignore_errors = True
[mypy-service.rules.hexes.*]
ignore_errors = True
"""
PLAY = """
import sys
from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.play import play_game
case, n = sys.argv[1], int(sys.argv[2])
if case == "base":
    ruleset, options, seats = CARCASSONNE, {"farmers": True}, 2
elif case == "expansions":
    ruleset, options, seats = CARCASSONNE, {"expansions": list(EXPANSIONS)}, 2
else:
    from service.rules.south_seas import SOUTH_SEAS as ruleset
    options, seats = {}, 4
play_game(ruleset, options, seats, b"warm", ["random"] * seats)
for s in range(n):
    play_game(ruleset, options, seats, f"spike-{s}".encode(), ["random"] * seats)
"""


def substitute(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if text.count(old) != 1:
        raise SystemExit(f"{path}: expected one {old!r}")
    path.write_text(text.replace(old, new))


def prepare(copy: Path) -> list[str]:
    shutil.copytree(ROOT / "service", copy / "service")
    shutil.copy(ROOT / "bench" / "same_games.py", copy / "same_games.py")
    for name, classes in NON_NATIVE.items():
        path = copy / name
        text = path.read_text()
        for cls in classes:
            text, n = re.subn(
                rf"^class {cls}\b",
                f"@mypyc_attr(native_class=False)\nclass {cls}",
                text,
                flags=re.M,
            )
            if n != 1:
                raise SystemExit(f"{name}: no class {cls}")
        path.write_text(
            text.replace(
                "from __future__ import annotations\n",
                "from __future__ import annotations\n\nfrom mypy_extensions import mypyc_attr\n",
                1,
            )
        )
    state = copy / "service/rules/tiling/state.py"
    text = state.read_text()
    start = text.index("    __slots__ = (\n")
    end = text.index(")\n", start) + 2
    slots = text[start:end].replace("    __slots__ = ", "", 1).replace("\n    ", "\n")
    text = text[:start] + "    __slots__ = _SLOTS\n" + text[end:]
    text = text.replace("= __slots__", "= _SLOTS")
    cut = text.index("\n\n@mypyc_attr")
    state.write_text(text[:cut] + "\n\n_SLOTS = " + slots + text[cut:])
    substitute(
        copy / "service/rules/tiling/features.py",
        "        other = Feature.__new__(Feature)\n        other.kind = self.kind\n",
        "        other = Feature(self.kind, (0, 0), 0)\n",
    )
    rules = copy / "service/rules"
    modules = [
        rules / f for f in ("decisions.py", "seating.py", "play.py", "shapes.py", "clock.py")
    ]
    for package in ("tiling", "carcassonne", "carcassonne/expansions", "south_seas"):
        for path in sorted((rules / package).glob("*.py")):
            if path.name != "__init__.py" and f"{package}/{path.name}" not in EXCLUDED:
                modules.append(path)
    return [str(m.relative_to(copy)) for m in modules]


def instructions(copy: Path | None, case: str, games: int) -> float:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if copy is not None:
        env["PYTHONPATH"] = str(copy)
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (0, games):
            out = Path(tmp) / f"cg.{n}"
            subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
                + [sys.executable, "-c", PLAY, case, str(n)],
                env=env,
                cwd=copy or ROOT,
                check=True,
                capture_output=True,
            )
            summary = [ln for ln in out.read_text().splitlines() if ln.startswith("summary:")]
            counts.append(int(summary[0].split()[1]))
    return (counts[1] - counts[0]) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build here and keep it (an empty directory)")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions")
    args = parser.parse_args()
    copy = args.keep or Path(tempfile.mkdtemp(prefix="mypyc-spike-"))
    modules = prepare(copy)
    (copy / "mypyc.ini").write_text(CONFIG)
    subprocess.run(
        [str(BIN / "mypyc"), "--config-file", "mypyc.ini", *modules],
        cwd=copy,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    env = {**os.environ, "PYTHONPATH": str(copy)}
    script = (
        "import same_games as sg\n"
        f"for name in {CARCASSONNE_CASES!r}:\n"
        "    games = max(3, round(100 * sg.CASES[name][-1]))\n"
        "    print(f'{name}: {games} games, {sg.case_hash(name, games)}', flush=True)\n"
    )
    subprocess.run([sys.executable, "-c", script], env=env, cwd=copy, check=True)
    if args.callgrind:
        for case, games in (("base", 5), ("expansions", 2), ("south seas", 3)):
            compiled, pure = instructions(copy, case, games), instructions(None, case, games)
            print(
                f"{case}: {compiled / 1e6:.2f} M compiled, {pure / 1e6:.2f} M pure, "
                f"{pure / compiled:.2f}x",
                flush=True,
            )
    if args.keep is None:
        shutil.rmtree(copy)


if __name__ == "__main__":
    main()
