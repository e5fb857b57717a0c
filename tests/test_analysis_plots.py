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
