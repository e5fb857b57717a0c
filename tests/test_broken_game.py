"""One broken game breaks nothing else: a package that fails to import is named in one line and set aside, and a
kernel numba cannot type is named by file, line and reason in one line (sim/core/broken.py)."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.core.broken import BrokenGame, kernel_errors

SIM = Path(__file__).resolve().parent.parent / "sim"

ENGINE_TYPO = "import numpy as np\n\nSCORES = np.zeros(3)\nTOTAL = SCORES.totl()\n"
TOY_KERNEL = '''from collections import namedtuple

from numba import njit

State = namedtuple("State", "gold turn")


@njit
def score(st):
    return st.gold[0] + st.gld[0]


@njit
def play(st):
    return score(st) * 2
'''


def _copy_with(tmp_path: Path, engine: str) -> Path:
    """A copy of the sim tree with a half-written game ``sim/halfgame`` whose engine module is ``engine``."""
    root = tmp_path / "copy"
    shutil.copytree(SIM, root / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    half = root / "sim" / "halfgame"
    half.mkdir()
    (half / "__init__.py").write_text("from sim.halfgame.engine import TOTAL\n")
    (half / "engine.py").write_text(engine)
    return root


def _playtest(root: Path, *argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(root.parent / "cache"))
    return subprocess.run([sys.executable, "-m", "sim.cli", *argv], cwd=root, env=env, capture_output=True, text=True)


def test_a_game_that_fails_to_import_is_one_line_and_the_others_keep_working(tmp_path):
    root = _copy_with(tmp_path, ENGINE_TYPO)
    listed = _playtest(root, "games")
    assert listed.returncode == 0, listed.stderr
    assert {"bus", "sea_trade", "circus_train", "seven_wonders"} <= {ln.split()[0] for ln in listed.stdout.splitlines()}
    warning = listed.stderr.strip()
    assert warning.count("\n") == 0 and "Traceback" not in warning
    assert warning.startswith("playtest: warning: game package sim/halfgame failed to import: "
                              "sim/halfgame/engine.py:4: AttributeError:") and "totl" in warning
    other = _playtest(root, "rules", "sea_trade")
    assert other.returncode == 0 and "win_gold" in other.stdout and other.stderr.strip() == warning

    named = _playtest(root, "rules", "halfgame")
    assert named.returncode == 2 and named.stdout == ""
    assert named.stderr.strip() == warning.replace("playtest: warning:", "playtest: error:")


def test_debug_shows_the_import_traceback_after_the_line(tmp_path):
    root = _copy_with(tmp_path, "def total(:\n    return 0\n")
    out = _playtest(root, "rules", "halfgame", "--debug")
    assert out.returncode == 2
    first, rest = out.stderr.split("\n", 1)
    assert first.startswith("playtest: error: game package sim/halfgame failed to import: "
                            "sim/halfgame/engine.py:1: SyntaxError")
    assert "Traceback" in rest and "sim/halfgame/engine.py" in rest


def test_a_kernel_typo_names_file_line_and_attribute_in_one_line(tmp_path, monkeypatch):
    """The typo sits in a helper the kernel calls: numba's report nests it; the line names the helper's line."""
    (tmp_path / "toy_kernel_typo.py").write_text(TOY_KERNEL)
    monkeypatch.syspath_prepend(str(tmp_path))
    toy = importlib.import_module("toy_kernel_typo")
    with pytest.raises(BrokenGame) as caught, kernel_errors():
        toy.play(toy.State(np.zeros(2, np.int64), np.zeros(1, np.int64)))
    line = str(caught.value)
    assert "\n" not in line
    assert line.startswith(f"{tmp_path / 'toy_kernel_typo.py'}:10: Unknown attribute 'gld' of type State ")
    assert "TypingError" in type(caught.value.__cause__).__name__  # numba's whole report stays chained (--debug)


def test_no_package_of_this_tree_is_broken():
    """The registry sets a broken game aside so the others work; the suite must not pass over it in silence."""
    from sim.core.spec import broken_games

    assert {name: str(problem) for name, problem in broken_games().items()} == {}
