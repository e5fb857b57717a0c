"""Tests that figures carry what a designer needs: title, labelled axes, reference line, error bars."""

from __future__ import annotations

import numpy as np

from analysis import plots, stats
from tests.test_analysis_synth import make_frames


def test_seat_plot_has_labels_reference_line_and_error_bars():
    _, players = make_frames("sea_trade", 4, 1000, ["a", "b", "c", "d"], no_winner=0.2, seed=31)
    bal = stats.seat_balance(players)
    ax = plots.seat_win_rates(bal).axes[0]
    assert "1,000 games" in ax.get_title() and ax.get_xlabel() and "(%)" in ax.get_ylabel()
    assert ax.get_xticklabels()[0].get_text() == "Seat 1\n(first)"
    ref = [ln for ln in ax.get_lines() if len(set(ln.get_ydata())) == 1 and ln.get_linestyle() == "--"]
    assert len(ref) == 1 and ref[0].get_ydata()[0] == np.float64(100 * bal.expected)
    caps = [ln for ln in ax.get_lines() if ln.get_marker() == "_"]
    assert caps  # error-bar caps drawn
    heights = [b.get_height() for b in ax.patches]
    assert np.allclose(heights, 100 * bal.table["rate"].to_numpy())


def test_png_export_and_heatmap_annotations():
    _, players = make_frames("sea_trade", 4, 500, ["x", "y", "z", "x"], seed=32)
    ratings, h2h = stats.strategy_ratings(players, n_boot=20)
    fig = plots.head_to_head(stats.head_to_head_matrix(h2h), 500)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert len(texts) == 6 and all(t.endswith("%") for t in texts)  # 3 strategies: 6 off-diagonal cells
    png = plots.to_png(plots.ratings_plot(ratings, 500))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000


def test_head_to_head_is_ordered_by_strength_readable_and_labelled():
    _, players = make_frames("sea_trade", 4, 3000, ["w", "s", "m", "x"], strengths={"s": 3.0, "m": 1.5, "w": 0.5, "x": 1.0},
                             seed=33)
    _, h2h = stats.strategy_ratings(players, n_boot=20)
    fig = plots.head_to_head(stats.head_to_head_matrix(h2h), 3000, order=["s", "m", "x", "w"])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["s", "m", "x", "w"]
    colours = {t.get_color() for t in ax.texts}
    assert colours == {"white", "black"}  # white on the dark (extreme) cells, black on the pale ones
    assert "share of meetings" in fig.axes[1].get_ylabel()  # a labelled colour bar
    png = plots.to_png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_long_tail_histogram_gets_an_overflow_bar():
    values = np.concatenate([np.random.default_rng(0).integers(5, 30, 10000), [200, 180]])
    ax = plots.count_histogram(values, "Rounds", "rounds").axes[0]
    assert ax.get_xlim()[1] < 60 and "or more" in ax.get_xlabel()
    assert any("max 200" in t.get_text() for t in ax.texts)


def test_trend_line_hides_thin_bins():
    import pandas as pd

    t = pd.DataFrame({"x": [1, 2, 3], "n": [5000, 5000, 12], "rate": [0.2, 0.3, 0.9], "lo": [0.19, 0.29, 0.5],
                      "hi": [0.21, 0.31, 1.0]})
    ax = plots.line_with_band(t, "x", "Trend", "x", "rate").axes[0]
    assert list(ax.get_lines()[0].get_xdata()) == [1, 2] and "hidden" in ax.get_title()


def test_convergence_shows_the_running_estimate_and_its_interval():
    _, players = make_frames("sea_trade", 4, 4000, ["a", "b", "c", "d"], seed=34)
    curve = stats.running_rate(players)
    ax = plots.convergence(curve, 0.25, "Seat 1").axes[0]
    line = ax.get_lines()[0]
    assert np.allclose(line.get_ydata(), 100 * curve["rate"]) and ax.collections  # the band


def test_seat_ratio_puts_every_run_on_one_scale():
    from analysis.card import analyse
    from tests.test_analysis_synth import make_run

    runs = [make_run("bus", n_players=n, n_games=2000, strategies=["a", "b", "c", "d", "e"], seat_weights=[1.5] + [1] * (n - 1),
                     seed=n) for n in (3, 4, 5)]
    ax = plots.seat_ratio([analyse(r) for r in runs]).axes[0]
    assert ax.get_ylabel() == "win rate / fair share" and len(ax.get_legend().get_texts()) == 5  # 3 runs + fair + band
    firsts = [c.get_children()[0].get_ydata()[0] for c in ax.containers]
    assert all(f > 1.2 for f in firsts)


def test_bar_labels_are_dark_on_a_light_box():
    _, players = make_frames("sea_trade", 4, 500, ["a", "b", "c", "d"], seed=35)
    ax = plots.seat_win_rates(stats.seat_balance(players)).axes[0]
    labels = [t for t in ax.texts if t.get_text().startswith("n=")]
    assert labels and all(t.get_color() == "black" and t.get_bbox_patch() is not None for t in labels)


def test_seat_ratio_draws_each_runs_own_band_and_names_simultaneous_seats():
    """Issue 21 item 13: with a 2-point threshold the band is ± 2/33.3, ± 2/25 and ± 2/20 of the fair share at 3, 4
    and 5 players: each run's own, not their mean. A simultaneous game's axis is seat, not turn order, and a
    solitaire run's design cell is 'one player', not 'confounded'."""
    from analysis.card import _headline_row, analyse
    from tests.test_analysis_synth import make_run

    runs = [make_run("bus", n_players=n, n_games=2000, strategies=["a", "b", "c", "d", "e"], seed=n) for n in (3, 4, 5)]
    analyses = [analyse(r) for r in runs]
    ax = plots.seat_ratio(analyses).axes[0]
    from matplotlib.collections import PolyCollection
    heights = sorted({round(float(c.get_paths()[0].vertices[:, 1].max()) - 1, 4) for c in ax.collections
                      if isinstance(c, PolyCollection)})
    fair = [a.fair for a in analyses]
    assert heights == sorted(round(2 / (100 * f), 4) for f in fair)
    assert "turn order" in ax.get_xlabel()
    ax = plots.seat_ratio(analyses, turn_order=False).axes[0]
    assert "simultaneous" in ax.get_xlabel() and "turn order" not in ax.get_xlabel()
    from analysis.sections import turn_order
    assert turn_order("seven_wonders") is False and turn_order("bus") is True
    solo = make_run("bus", n_players=1, n_games=200, strategies=["a"], seed=9)
    assert _headline_row(analyse(solo))["design"] == "one player"
