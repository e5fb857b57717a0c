"""Issue 24 items 3-6: every bad input and every fault ends in one line (exit 2), loses nothing and leaves no file
that breaks a reader; a report never deletes a file it did not write."""

from __future__ import annotations

import errno
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

import sim.logs
from sim.core.cache import package_digest
from sim.cli import main
from tests.test_analysis_synth import write_run

RUN = ["run", "sea_trade", "--players", "3", "--games", "40", "--jobs", "1", "--quiet", "--chunk-size", "10"]
W = {"sail": {"sale_gain": 1.0}}


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("playtest: error: ")
    return err[0]


def _refused(argv: list[str], needle: str, capsys) -> None:
    assert main(argv) == 2
    assert needle in _one_line(capsys)


def _strategy_file(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "s.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


# ------------------------------------------------------------------------------------------- strategy files
@pytest.mark.parametrize("text, needle", [
    (b"\xff\xfe not utf-8", "not UTF-8"),
    ("[1, 2]", "is not a strategy object"),
    ('"trader"', "holds str"),
    ("[]", "holds list"),
    (json.dumps([{"name": "x", "description": "d", "weights": {"sail": {"sale_gain": "lots"}}}]), "not a finite"),
    (json.dumps([{"name": "x", "description": "d", "weights": {"sail": [1, 2]}}]), "weights must be an object"),
    (json.dumps([{"name": "x", "description": "d", "weights": W, "epsilon": "a"}]), "epsilon 'a'"),
    (json.dumps([{"name": 5, "description": "d", "weights": W}]), "is not a name"),
    ('[{"name": "x", "description": "d", "weights": {"sail": {"sale_gain": NaN}}}]', "not a finite number"),
    ('[{"name": "x", "description": "d", "weights": {"sail": {"sale_gain": 1e999}}}]', "not a finite number"),
    (json.dumps([{"name": "x", "description": "d", "weights": W, "epsilon": 1.5}]), "from 0 to 1"),
    (json.dumps([{"name": "x", "description": "d", "weights": W, "temperature": -1}]), "at least 0"),
    (json.dumps([{"name": "x", "kind": "rollout", "base": "trader", "playouts": 2, "weights": W}]),
     "a rollout plays its base's weights"),
    (json.dumps([{"name": "x", "description": "d", "weights": W}, {"name": "x", "description": "e"}]),
     "defines 'x' twice"),
    (json.dumps([{"name": "x", "kind": "rollout", "base": "trader", "playouts": 10**18}]), "playouts must be"),
])
def test_a_bad_strategy_file_is_one_line(tmp_path, capsys, text, needle):
    _refused(RUN + ["--out", str(tmp_path / "o"), "--strategy-file", _strategy_file(tmp_path, text),
                    "--strategies", "trader"], needle, capsys)
    assert not (tmp_path / "o").exists()


def test_a_strategy_file_that_is_a_directory_is_one_line(tmp_path, capsys):
    _refused(RUN + ["--strategy-file", str(tmp_path)], "is a directory", capsys)


def test_a_population_with_a_nan_weight_is_one_line(tmp_path, capsys):
    path = tmp_path / "pop.json"
    path.write_text('{"strategies": [{"name": "x", "description": "d", "weights": {"sail": {"sale_gain": NaN}}}, '
                    '"trader"], "weights": [0.5, 0.5]}')
    _refused(RUN + ["--population", str(path)], "not a finite number", capsys)


# ------------------------------------------------------------------------------------------- flag values
@pytest.mark.parametrize("argv, needle", [
    (["run", "sea_trade", "--players", "3", "--games", str(10**18), "--quiet"], "--games must be from 1"),
    (["run", "sea_trade", "--players", "3", "--games", str(10**30), "--quiet"], "does not fit in 64 bits"),
    (RUN + ["--chunk-size", str(10**30)], "does not fit in 64 bits"),
    (RUN[:4] + ["--games", "10000000", "--chunk-size", "1"], "raise --chunk-size"),
    (RUN + ["--seed", str(10**30)], "--seed must be"),
    (RUN + ["--set", f"win_gold={10**30}"], "win_gold"),
    (RUN + ["--strategies", f"trader+mc{10**18}"], "playouts must be"),
    (["replay", "sea_trade", "--players", "3", "--game-index", str(10**30)], "does not fit in 64 bits"),
    (["bench", "sea_trade", "--games", str(10**30)], "does not fit in 64 bits"),
    (["tune", "sea_trade", "--players", "3", "--against", "trader", "--budget", "100000", "--seed", str(2**40)],
     "CMA-ES"),
    (["harden", "sea_trade", "--players", "3", "--pool", "trader,raider", "--budget", "1000000", "--seed",
      str(2**40)], "CMA-ES"),
    (RUN + ["--backend", "dask", "--scheduler", "::::bad"], "--scheduler '::::bad' is not a Dask address"),
    (RUN + ["--out", "/proc/no-such-dir/run"], "cannot create /proc/no-such-dir/run"),
    (["run", "seven_wonders", "--players", "3", "--games", "10", "--set", "data={empty}"], "holds none of"),
])
def test_a_bad_flag_value_is_one_line(tmp_path, capsys, argv, needle):
    empty = tmp_path / "empty"
    empty.mkdir()
    _refused([a.replace("{empty}", str(empty)) for a in argv], needle, capsys)


def test_a_read_only_filesystem_is_one_line(tmp_path, capsys, monkeypatch):
    def read_only(self, *args, **kw):
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(Path, "mkdir", read_only)
    _refused(RUN + ["--out", str(tmp_path / "ro")], "Read-only file system", capsys)


# ------------------------------------------------------------------------------------------- a real run
@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("clean") / "run"
    assert main(RUN + ["--out", str(out)]) == 0
    return out


def _tables(run_dir: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return tuple(pd.read_parquet(run_dir / t).sort_values("game_index", kind="stable", ignore_index=True)
                 for t in ("games", "players"))


def _no_temporaries(run_dir: Path) -> None:
    assert not [p for p in run_dir.rglob("*") if p.name.endswith(".tmp")]


def _edit(run_dir: Path, tmp_path: Path, change) -> Path:
    copy = tmp_path / "edited"
    shutil.copytree(run_dir, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    (copy / "manifest.json").write_text(json.dumps(change(manifest)))
    return copy


@pytest.mark.parametrize("change, needle", [
    (lambda m: [m], "holds a JSON list, not an object"),
    (lambda m: {**m, "n_games": "40"}, "'n_games' must be of type int"),
    (lambda m: {**m, "strategies": ["nosuch", *m["strategies"][1:]]}, "'nosuch' has no entry"),
    (lambda m: {**m, "parts": [{**m["parts"][0], "games": "part.parquet"}]}, "is malformed"),
])
def test_a_hand_edited_manifest_is_one_line_on_report_and_resume(clean_run, tmp_path, capsys, change, needle):
    edited = _edit(clean_run, tmp_path, change)
    _refused(["report", str(edited), "--out", str(tmp_path / "rep")], needle, capsys)
    _refused(RUN + ["--out", str(edited)], needle, capsys)


def test_resume_refuses_a_run_of_other_game_sources_and_records_a_missing_digest(clean_run, tmp_path, capsys):
    """An unfinished run played by other sources is refused (its parts would mix two engines); a finished one is
    left as it is, with the record of the code that played it; a run without a record gets one when it plays."""
    current = package_digest("sea_trade")
    assert json.loads((clean_run / "manifest.json").read_text())["source_digest"] == current

    def unfinished(m):
        return {**m, "complete": False, "parts": m["parts"][:1]}

    edited = _edit(clean_run, tmp_path, lambda m: {**unfinished(m), "source_digest": "0123456789abcdef"})
    _refused(RUN + ["--out", str(edited)], "other sea_trade sources", capsys)
    done = _edit(clean_run, tmp_path / "done", lambda m: {**m, "source_digest": "0123456789abcdef"})
    assert main(RUN + ["--out", str(done)]) == 0
    assert json.loads((done / "manifest.json").read_text())["source_digest"] == "0123456789abcdef"
    old = _edit(clean_run, tmp_path / "old", lambda m: {k: v for k, v in unfinished(m).items() if k != "source_digest"})
    assert main(RUN + ["--out", str(old)]) == 0
    assert json.loads((old / "manifest.json").read_text())["source_digest"] == current


def _failing_writes(monkeypatch, after: int, fault: BaseException) -> None:
    """pq.write_table fails (after writing half a file) from its ``after``-th call on."""
    real, calls = sim.logs.pq.write_table, []

    def write(table, where, *a, **kw):
        calls.append(where)
        if len(calls) > after:
            Path(where).write_bytes(b"PAR1 half a part")
            raise fault
        return real(table, where, *a, **kw)

    monkeypatch.setattr(sim.logs.pq, "write_table", write)


def test_a_full_disk_mid_run_is_one_line_keeps_what_was_written_and_resumes(clean_run, tmp_path, capsys, monkeypatch):
    out = tmp_path / "full"
    _failing_writes(monkeypatch, 3, OSError(errno.ENOSPC, "No space left on device"))
    _refused(RUN + ["--out", str(out)], "No space left on device", capsys)
    _no_temporaries(out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert [e["index"] for e in manifest["parts"]] == [0] and manifest["complete"] is False
    assert len(pd.read_parquet(out / "games")) == 10  # a reader of games/ sees the whole part, nothing else
    monkeypatch.undo()
    assert main(RUN + ["--out", str(out)]) == 0
    for a, b in zip(_tables(out), _tables(clean_run)):
        pd.testing.assert_frame_equal(a, b)


def test_ctrl_c_mid_write_leaves_no_temporary_file(tmp_path, capsys, monkeypatch):
    out = tmp_path / "interrupted"
    _failing_writes(monkeypatch, 2, KeyboardInterrupt())
    assert main(RUN + ["--out", str(out)]) == 130
    _no_temporaries(out)
    pd.read_parquet(out / "games")


def test_a_killed_writers_leftover_is_hidden_from_readers_and_removed_on_resume(clean_run, tmp_path):
    out = tmp_path / "killed"
    shutil.copytree(clean_run, out)
    leftover = sim.logs.temporary(out / sim.logs.part_name("games", 9))
    leftover.write_bytes(b"PAR1 half a part")
    assert len(pd.read_parquet(out / "games")) == 40
    assert main(RUN + ["--out", str(out)]) == 0
    assert not leftover.exists()


def test_a_record_whose_write_fails_keeps_the_previous_one_whole(tmp_path, monkeypatch):
    """tune.json, ladder.json, history.json, population.json, balance.json go through write_json: a disk that fills
    half way through a write leaves the last complete record, and no temporary file."""
    record = tmp_path / "tune.json"
    sim.logs.write_json(record, {"round": 1})
    write_text = Path.write_text

    def half_then_full_disk(self, text, *args, **kwargs):
        write_text(self, text[: len(text) // 2], *args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", half_then_full_disk)
    with pytest.raises(OSError):
        sim.logs.write_json(record, {"round": 2})
    monkeypatch.undo()
    assert json.loads(record.read_text()) == {"round": 1}
    assert list(tmp_path.iterdir()) == [record]


# ------------------------------------------------------------------------------------------- reports
def test_a_report_over_runs_of_different_games_is_one_line(tmp_path, capsys):
    a = write_run(tmp_path / "a", n_games=200)
    b = write_run(tmp_path / "b", game="bus", n_games=200)
    _refused(["report", str(a), str(b), "--out", str(tmp_path / "rep")], "different games", capsys)


def test_a_report_refuses_a_manifest_whose_game_was_edited(tmp_path, capsys):
    run = write_run(tmp_path / "a", n_games=200)
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, "game": "bus"}))
    _refused(["report", str(run), "--out", str(tmp_path / "rep")], "which bus does not write", capsys)


def test_report_out_removes_only_the_figures_a_previous_report_recorded(tmp_path, capsys):
    run = write_run(tmp_path / "a", n_games=400)
    out = tmp_path / "rep"
    out.mkdir()
    mine = out / "01-my-sketch.png"
    mine.write_bytes(b"a designer's figure")
    assert main(["report", str(run), "--out", str(out)]) == 0
    owned = json.loads((out / ".playtest-report.json").read_text())["figures"]
    assert owned and all((out / name).is_file() for name in owned) and mine.name not in owned
    stale = out / "98-old-section-figure.png"
    stale.write_bytes(b"figure of an earlier report")
    (out / ".playtest-report.json").write_text(json.dumps({"figures": [*owned, stale.name]}))
    assert main(["report", str(run), "--out", str(out)]) == 0
    assert mine.read_bytes() == b"a designer's figure" and not stale.exists()


# ------------------------------------------------------------------------------------------- processes
BIG = [sys.executable, "-m", "sim.cli", "run", "sea_trade", "--players", "3", "--games", "3000000", "--chunk-size",
       "100000", "--jobs", "2", "--quiet"]


def _playing(process: psutil.Process) -> bool:
    """A live worker using CPU (not loky's resource tracker, nor a short-lived helper such as `git status` that
    may already be a zombie)."""
    try:
        return "resource_tracker" not in " ".join(process.cmdline()) and process.cpu_percent(0.2) > 0
    except psutil.Error:
        return False


def _workers(proc: subprocess.Popen, timeout: float = 120) -> list[psutil.Process]:
    """The run's worker processes, once two of them are playing."""
    main_process, end = psutil.Process(proc.pid), time.time() + timeout
    while time.time() < end:
        workers = [c for c in main_process.children(recursive=True) if _playing(c)]
        if len(workers) >= 2:
            return workers
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.5)
    raise AssertionError("no workers started")


def test_a_killed_worker_ends_the_run_in_one_line(tmp_path):
    proc = subprocess.Popen(BIG + ["--out", str(tmp_path / "r")], stderr=subprocess.PIPE, text=True)
    try:
        _workers(proc)[0].kill()
        err = proc.communicate(timeout=120)[1].strip().splitlines()
    finally:
        proc.kill()
    assert proc.returncode == 2
    assert len(err) == 1 and "a worker process died" in err[0], err


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_no_worker_outlives_the_main_process(tmp_path, sig):
    proc = subprocess.Popen(BIG + ["--out", str(tmp_path / "r")], stderr=subprocess.PIPE, text=True)
    try:
        workers = _workers(proc)
        proc.send_signal(sig)
        proc.communicate(timeout=60)
        gone, alive = psutil.wait_procs(workers, timeout=30)
    finally:
        proc.kill()
    for w in alive:
        w.kill()
    assert not alive
    _no_temporaries(tmp_path / "r")
