"""Statistics kept between a report's two labelling passes: computed once, their Findings relabelled at the
report's cut-off, and a report that keeps them reads exactly as one that recomputes everything."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis import keep
from analysis.sections import Plot, Table
from analysis.verdicts import finding, fdr
from tests.test_analysis_models import POOL, SEAT_W, STRENGTH
from tests.test_analysis_synth import make_run


def test_the_key_is_the_content_not_the_object():
    a = pd.DataFrame({"x": [1, 2, 3], "s": pd.Categorical(["u", "v", "u"])})
    assert keep.fingerprint((a, 2.0, "w")) == keep.fingerprint((a.copy(), 2.0, "w"))
    assert keep.fingerprint(a) != keep.fingerprint(a.assign(x=[1, 2, 4]))
    assert keep.fingerprint(a) != keep.fingerprint(a.assign(s=pd.Categorical(["u", "v", "u"], ["v", "u"])))
    assert keep.fingerprint(np.arange(3)) != keep.fingerprint(np.arange(3.0))
    with pytest.raises(TypeError):
        keep.fingerprint(lambda: None)


def _noise_findings(n: int = 400) -> list:
    """Findings about the threshold, so that the report's Benjamini-Hochberg cut-off relabels some of them."""
    return [finding(f"noise {i}", x, 0.6, 2.0) for i, x in enumerate(np.random.default_rng(3).normal(2.0, 0.6, n))]


def test_a_kept_statistic_is_computed_once_and_relabelled_at_the_cutoff():
    calls = []

    def stat(x: np.ndarray):
        calls.append(1)
        return {"mean": finding("mean", float(x.mean()), 0.6, 2.0), "n": len(x)}

    kept_stat = keep.kept(stat)
    data = np.full(10, 3.1)  # p = 0.033: large at 5%, not at the cut-off
    plain, _ = fdr(lambda: (stat(data), _noise_findings()))
    calls.clear()
    kept_out, ledger = fdr(lambda: (kept_stat(data), _noise_findings()))
    assert len(calls) == 1 and ledger.kept
    assert ledger.cutoff < 0.033 and plain[0]["mean"].label != "large"
    assert kept_out[0] == plain[0]


def test_a_statistic_that_labels_outside_its_findings_is_recomputed():
    calls = []

    @keep.kept
    def stat(x: np.ndarray) -> str:
        calls.append(1)
        return finding("mean", float(x.mean()), 0.6, 2.0).label

    out, ledger = fdr(lambda: (stat(np.full(10, 3.1)), _noise_findings()))
    assert len(calls) == 2 and not ledger.kept and out[0] != "large"


def _text(sections) -> list:
    """What a reader sees of the sections: titles, paragraphs, table cells and figure captions."""
    out = []
    for s in sections:
        out.append(s.title)
        for b in s.blocks:
            out.append(b if isinstance(b, str) else b.caption if isinstance(b, Plot) else
                       (b.caption, b.frame.astype(str).to_numpy().tolist()) if isinstance(b, Table) else repr(b))
    return out


def test_a_report_that_keeps_its_fits_reads_as_one_that_refits(monkeypatch):
    """The synthetic report relabels findings at its cut-off (some p-values lie between it and 5%); kept and
    recomputed, its every sentence, cell and caption agree."""
    from analysis.report import build_sections

    run = make_run("sea_trade", n_players=4, n_games=1000, strategies=POOL, seat_weights=SEAT_W, strengths=STRENGTH,
                   seed=47)
    with_keep, ledger = fdr(lambda: build_sections([run]))
    assert ledger.kept and any(ledger.cutoff < p <= 0.05 for p in ledger.p_values)
    monkeypatch.setattr(keep, "fingerprint", lambda x: (_ for _ in ()).throw(TypeError("off")))
    refit, ledger_refit = fdr(lambda: build_sections([run]))
    assert not ledger_refit.kept and ledger_refit.cutoff == ledger.cutoff
    assert _text(with_keep) == _text(refit)
