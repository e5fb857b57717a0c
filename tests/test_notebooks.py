"""Execute the notebooks with nbclient: on a real small study, and their analysis cells on a synthetic run.

The contract of a game's notebook, ``notebooks/<game>.ipynb`` (every registered game has one; notebooks/pig.ipynb
is the smallest to copy): exactly one code cell tagged ``study`` calls ``run_study(...)`` and sets ``run_dir`` to
``runs/nb-<game>``; the other cells analyse ``run_dir`` through the public API, show at least 3 figures, and run
on any run of the game, including a synthetic one whose own columns come from the game's record schema.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import nbformat
import pytest
from jupyter_client import KernelManager
from nbclient import NotebookClient

from sim.core.spec import game_names, get_game
from tests.conftest import study_players

ROOT = Path(__file__).resolve().parent.parent
GAMES = game_names()
"""Every registered game has its notebook, notebooks/<game>.ipynb."""
NOTEBOOKS = {game: ROOT / "notebooks" / f"{game}.ipynb" for game in GAMES}


@pytest.fixture(scope="module")
def kernel():
    """One Jupyter kernel for this module's notebooks in a worker: starting a kernel and importing the analysis
    stack cost seconds per notebook. Each notebook starts from an empty namespace (``_execute``)."""
    km = KernelManager(kernel_name="python3")
    km.start_kernel()
    yield km
    km.shutdown_kernel(now=True)


def _execute(nb: nbformat.NotebookNode, cwd: Path, km: KernelManager) -> nbformat.NotebookNode:
    """Run ``nb`` in ``cwd`` on the shared kernel, its namespace reset first (no name leaks between notebooks)."""
    fresh = nbformat.v4.new_code_cell(f"%reset -f\nimport os as _os\n_os.chdir({str(cwd)!r})\ndel _os")
    nb.cells.insert(0, fresh)
    NotebookClient(nb, km=km, timeout=600).execute()
    nb.cells.pop(0)
    return nb


def _images(nb: nbformat.NotebookNode) -> int:
    return sum("image/png" in out.get("data", {}) for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs)


@pytest.mark.parametrize("game", GAMES)
def test_notebook_runs_a_real_study(game, tmp_path, kernel):
    """The notebook runs a small study through the public API and shows its headline plots."""
    assert NOTEBOOKS[game].is_file(), f"{game}: add notebooks/{game}.ipynb (copy notebooks/pig.ipynb)"
    nb = _execute(nbformat.read(NOTEBOOKS[game], as_version=4), tmp_path, kernel)
    assert (tmp_path / "runs" / f"nb-{game}" / "manifest.json").is_file()
    assert _images(nb) >= 3


@pytest.mark.parametrize("game", GAMES)
def test_notebook_analysis_cells_on_a_synthetic_run(game, tmp_path, kernel):
    """Same notebook with its study cell swapped for a synthetic run in the runner's format."""
    importlib.import_module("tests.test_analysis_synth")
    nb = nbformat.read(NOTEBOOKS[game], as_version=4)
    study = [c for c in nb.cells if "study" in c.metadata.get("tags", [])]
    assert len(study) == 1 and "run_study(" in study[0].source, f"{game}: tag exactly one run_study cell 'study'"
    n = study_players(get_game(game))
    study[0].source = (f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
                       "from tests.test_analysis_synth import write_run\n"
                       f"run_dir = write_run('runs/nb-{game}', game={game!r}, n_players={n}, n_games=400)")
    nb = _execute(nb, tmp_path, kernel)
    assert _images(nb) >= 3
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors


def test_sweep_notebook_runs_a_real_sweep(tmp_path, kernel):
    """The sweep notebook plays its grid through the public API and shows a figure per metric it discusses."""
    nb = _execute(nbformat.read(ROOT / "notebooks" / "sweep.ipynb", as_version=4), tmp_path, kernel)
    assert (tmp_path / "runs" / "nb-sweep" / "sweep.json").is_file()
    assert _images(nb) >= 3
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "Conclusion: varying win_gold (baseline win_gold=25)" in text


def test_ladder_notebook_runs_a_small_ladder(tmp_path, kernel):
    """notebooks/ladder.ipynb runs a two-level Sea Trade ladder through the public API and shows its plots."""
    nb = _execute(nbformat.read(ROOT / "notebooks" / "ladder.ipynb", as_version=4), tmp_path, kernel)
    for k in (0, 2):
        assert (tmp_path / "runs" / "nb-ladder" / f"playouts-{k}" / "manifest.json").is_file()
    assert _images(nb) >= 2
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors


def test_strength_notebook_compares_the_pool_with_the_hardened_population(tmp_path, kernel):
    """notebooks/strength.ipynb plays Bus under the pool and under the committed hardened population on the same
    seed, and prints each finding's tested difference with its verdict."""
    nb = _execute(nbformat.read(ROOT / "notebooks" / "strength.ipynb", as_version=4), tmp_path, kernel)
    for name in ("nb-strength-pool", "nb-strength-population"):
        assert (tmp_path / "runs" / name / "manifest.json").is_file()
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "paired by game" in text and "Strong play, 4 players" in text and "exploitability" in text
    assert _images(nb) >= 1


def test_balance_notebook_runs_a_small_search(tmp_path, kernel):
    """notebooks/balance.ipynb races a four-variant Bus grid through the public API, prints the answer paired with
    the rules as printed, writes the HTML page and shows the seat effects and side effects."""
    nb = _execute(nbformat.read(ROOT / "notebooks" / "balance.ipynb", as_version=4), tmp_path, kernel)
    root = tmp_path / "runs" / "nb-balance"
    assert (root / "balance.json").is_file() and (root / "report" / "index.html").is_file()
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "minus the rules as printed (paired)" in text and "Answer:" in text
    assert _images(nb) >= 3
