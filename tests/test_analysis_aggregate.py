"""Out-of-core aggregation (analysis.aggregate): the numbers summed part by part equal the in-memory ones."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from analysis import aggregate, load, models, stats
from analysis.load import Run, load_run
from analysis.report import build_sections
from analysis.sections import Plot, Table
from tests.test_analysis_synth import write_run


def test_quantiles_from_counts_equal_numpy_on_the_expanded_sample():
    rng = np.random.default_rng(4)
    for n in (1, 2, 3, 7, 100, 1001):
        x = rng.integers(0, 9, size=n).astype(float)
        values, counts = np.unique(x, return_counts=True)
        qs = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 0.995, 1.0]
        assert aggregate.quantiles(values, counts, qs).tolist() == np.quantile(x, qs).tolist()


def test_describe_counts_equals_pandas():
    x = pd.Series(np.random.default_rng(5).poisson(6, size=5001), dtype=float)
    d = stats.describe(x)
    assert d["n"] == 5001 and d["mean"] == x.mean() and d["median"] == x.median() and d["max"] == x.max()
    assert d["p5"] == x.quantile(0.05) and d["p95"] == x.quantile(0.95)
    assert d["sd"] == pytest.approx(x.std(), rel=1e-12)


def test_cluster_fit_in_chunks_equals_statsmodels():
    rng = np.random.default_rng(6)
    games = np.repeat(np.arange(900), 4)
    x = np.column_stack([np.ones(len(games)), rng.integers(0, 2, len(games)), rng.normal(size=len(games))])
    y = x @ [0.2, 0.1, -0.05] + rng.normal(size=900).repeat(4) + rng.normal(size=len(games))
    ref = models.cluster_ols(y, x, games)
    frame = pd.DataFrame({"g": games, "y": y, "a": x[:, 1], "b": x[:, 2]})
    design = lambda c: (c["y"].to_numpy(), np.column_stack([np.ones(len(c)), c["a"], c["b"]]), c["g"].to_numpy())  # noqa: E731
    parts = lambda: (frame[frame["g"] // 100 == k] for k in range(9))  # noqa: E731
    fit = aggregate.cluster_fit(parts, design)
    np.testing.assert_allclose(fit.params, ref.params, rtol=1e-10)
    np.testing.assert_allclose(fit.bse, ref.bse, rtol=1e-10)
    r = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    wald = ref.wald_test(r, scalar=True, use_f=False)
    assert fit.wald(r)[0] == pytest.approx(float(wald.statistic), rel=1e-9)


def _blocks(sections) -> list:
    """Every paragraph and table of a report, figures as their captions."""
    out = []
    for s in sections:
        out.append(s.title)
        for b in s.blocks:
            out.append(b.frame.to_csv(index=False) if isinstance(b, Table) else b.caption if isinstance(b, Plot) else b)
    return out


@pytest.mark.parametrize("game", ["bus", "sea_trade"])
def test_streamed_report_equals_the_in_memory_report(tmp_path, monkeypatch, game):
    """A stored run streamed in small chunks (many per run) gives every table and sentence of the report exactly as
    the same run read whole into memory."""
    run_dir = write_run(tmp_path / "r", game=game, n_games=3000, n_parts=6, strategies=["a", "b", "c", "d", "e"],
                        strengths={"a": 1.3, "b": 1.0, "c": 0.9, "d": 1.1, "e": 0.8})
    monkeypatch.setattr(load, "CHUNK_GAMES", 400)
    stored = load_run(run_dir)
    assert stored.stored and len(list(stored.chunks([], []))) == 6
    streamed = _blocks(build_sections([stored]))
    assert stored.stored == (game == "bus")  # the standard and Bus sections never read the whole run
    whole = load_run(run_dir)
    in_memory = Run(whole.run_dir, whole.manifest, whole.games, whole.players)
    assert not in_memory.stored
    assert streamed == _blocks(build_sections([in_memory]))


def test_streamed_statistics_equal_statsmodels_on_the_frame(tmp_path, monkeypatch):
    """The seat + strategy model, a flagged difference and the design check, streamed, against the frame's fits."""
    run_dir = write_run(tmp_path / "r", game="bus", n_games=2000, n_parts=4, strategies=["a", "b", "c", "d", "e"])
    monkeypatch.setattr(load, "CHUNK_GAMES", 300)
    run = load_run(run_dir)
    rows = run.rows("players", ["game_index", "seat", "strategy", "win_share", "stick_limit"])
    p = run.players.sort_values(["game_index", "seat"], ignore_index=True)
    codes, names, n = models._codes(p)
    x = np.column_stack([np.ones(len(p)), models._deviation(np.tile(np.arange(n), len(codes)), n),
                         models._deviation(codes.ravel(), len(names))])
    ref = models.cluster_ols(p["win_share"].to_numpy(float), x, p["game_index"].to_numpy())
    model = models.fit_model(rows, threshold=2.0)
    np.testing.assert_allclose(model.seats["effect"], 100 * models._all_levels(n) @ ref.params[1:n], rtol=1e-9)
    short = p["stick_limit"].to_numpy() < 28
    direct = models.cluster_ols(p["win_share"].to_numpy(float), np.column_stack([np.ones(len(p)), short]), p["game_index"])
    d = models.paired_difference(rows, lambda c: c["stick_limit"].to_numpy() < 28, "short", 2.0)
    assert d.estimate == pytest.approx(100 * direct.params[1], rel=1e-9) and d.se == pytest.approx(100 * direct.bse[1], rel=1e-9)
    assert models.design_check(rows, run.lineup).seat_counts.equals(models.design_check(p, run.lineup).seat_counts)


def test_strings_read_from_their_dictionary_equal_pandas_categoricals():
    """A string column decoded from its dictionary (unused entries, two chunks with different dictionaries, missing
    values) is the Categorical pandas makes from the strings: same categories, same codes."""
    import pyarrow as pa

    values = [["c", "a", None, "c"], ["b", "a", "d"]]
    plain = pa.chunked_array([pa.array(v, pa.large_string()) for v in values])
    spare = pa.DictionaryArray.from_arrays(pa.array([2, 0, None, 2], pa.int32()), pa.array(["a", "zz", "c"]))
    coded = pa.chunked_array([spare, pa.array(values[1]).dictionary_encode()])
    want = pd.Categorical(plain.to_pandas())
    for col in (plain, coded):
        got = load._categorical(col)
        pd.testing.assert_index_equal(got.categories, want.categories)
        np.testing.assert_array_equal(got.codes, want.codes)
    empty = load._categorical(pa.chunked_array([], pa.large_string()))
    assert len(empty) == 0


def test_keys_and_codes_of_categories_equal_the_string_route():
    """``keyed`` and ``codes_of`` on categoricals (unused categories, a missing value) and on plain strings give
    exactly what converting every row to a string gives."""
    cat = pd.Series(pd.Categorical(["b", "a", "c", "a"], categories=["z", "c", "b", "a"]))
    holes = pd.Series(pd.Categorical(["b", None, "a"]))
    plain = pd.Series(["b", "a", "c"], dtype=object)
    for s in (cat, holes, plain, cat.iloc[:0]):
        slow = s.astype(str).to_numpy() if isinstance(s.dtype, pd.CategoricalDtype) else s.to_numpy()
        fast = aggregate.keyed(s)
        assert fast.dtype == slow.dtype and pd.Series(fast).equals(pd.Series(slow))
        for names in (None, ["a", "b"], ["c", "q", "a", "b"]):
            with warnings.catch_warnings():  # a value outside ``names`` (coded -1) is deprecated in pandas
                warnings.simplefilter("ignore")
                ref = pd.Categorical(s.astype(str), categories=names)
            codes, got = aggregate.codes_of(s, names)
            np.testing.assert_array_equal(codes, ref.codes.astype(np.int64))
            assert got == [str(c) for c in ref.categories]


def test_a_stored_run_computes_each_statistic_in_one_pass(tmp_path, monkeypatch):
    """Asked twice for the same counts or rate sums, a stored run reads its parts once and hands out equal copies
    (changing one leaves the memo intact); other arguments, or a run in memory, are computed anew."""
    run_dir = write_run(tmp_path / "r", game="bus", n_games=600, n_parts=3)
    run, reference = load_run(run_dir), load_run(run_dir).counts("players", ["seat", "gems"])
    ends = load_run(run_dir).counts("games", ["end_reason"])
    passes = []
    stream = Run._stream
    monkeypatch.setattr(Run, "_stream", lambda self, kind, cols: passes.append(kind) or stream(self, kind, cols))
    first = run.counts("players", ["seat", "gems"])
    first.loc[0, "n"] = -1
    again = run.counts("players", ["seat", "gems"])
    assert len(passes) == 1 and again.equals(reference) and again.loc[0, "n"] > 0
    rows = run.rows("players", ["strategy", "win_share"])
    sums = stats.rate_sums(rows, "seat", "win_share")
    assert stats.rate_sums(run.rows("players", ["strategy", "win_share"]), "seat", "win_share").equals(sums) and len(passes) == 2
    stats.rate_sums(rows, "strategy", "win_share")
    assert len(passes) == 3
    each = run.counts_each("games", [["rounds"], ["end_reason"], ["rounds"]])  # two key sets, one pass
    assert len(passes) == 4 and each[1].equals(ends) and each[0].equals(each[2]) and each[0]["n"].sum() == 600
    memory = Run(run.run_dir, run.manifest, run.games, run.players)
    assert memory.counts("players", ["seat", "gems"]).equals(again) and not memory.memo


def test_prefetched_statistics_share_one_pass_and_equal_their_own_passes(tmp_path, monkeypatch):
    """Statistics prefetched together read the parts once, and each equals the same statistic computed alone."""
    run_dir = write_run(tmp_path / "r", game="bus", n_games=600, n_parts=3, strategies=["a", "b", "c", "d", "e"])
    monkeypatch.setattr(load, "CHUNK_GAMES", 200)
    alone = load_run(run_dir).rows("players", ["strategy", "win_share"])
    want = [stats.rate_sums(alone, "seat", "win_share"), stats.strategy_names(alone), models.seat_count(alone)]
    run = load_run(run_dir)
    passes = []
    stream = Run._stream
    monkeypatch.setattr(Run, "_stream", lambda self, kind, cols: passes.append(kind) or stream(self, kind, cols))
    rows = run.rows("players", ["strategy", "win_share"])
    aggregate.prefetch(rows, (stats.rate_sums, "seat", "win_share"), (stats.strategy_names,), (models.seat_count,))
    got = [stats.rate_sums(rows, "seat", "win_share"), stats.strategy_names(rows), models.seat_count(rows)]
    assert len(passes) == 1 and got[0].equals(want[0]) and got[1:] == want[1:] == [(["a", "b", "c", "d", "e"], 600), 4]
