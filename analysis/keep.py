"""Statistics kept between a report's two labelling passes (``verdicts.fdr``): the second pass only relabels
findings at the report's Benjamini-Hochberg cut-off, so a fit made in the first is taken again, by the content of
its arguments, with each Finding it returned labelled anew. A statistic that labels anything outside the Findings
it returns (a label in a table cell, a sentence) is recomputed, never kept."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import fields, is_dataclass, replace
from typing import Callable, Hashable, TypeVar

import numpy as np
import pandas as pd

from analysis.aggregate import Stream
from analysis.verdicts import Finding, claim_level_p, current_ledger, label

F = TypeVar("F", bound=Callable)


def _digest(values: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(values).view(np.uint8)).hexdigest()


def fingerprint(x) -> Hashable:
    """A key for ``x`` by its content: frames and arrays by a digest of their values, containers item by item, a
    run's stream by what it reads; TypeError for anything else (a function, a model)."""
    if x is None or isinstance(x, (str, bytes, bool, int, float, np.generic)):
        return type(x).__name__, repr(x)
    if isinstance(x, np.ndarray):
        flat = pd.util.hash_array(x.ravel()) if x.dtype == object else x
        return "array", x.shape, str(x.dtype), _digest(flat)
    if isinstance(x, (pd.DataFrame, pd.Series)):
        frame = x.to_frame() if isinstance(x, pd.Series) else x
        dtypes = tuple((str(t), tuple(t.categories), t.ordered) if isinstance(t, pd.CategoricalDtype) else str(t)
                       for t in frame.dtypes)
        rows = pd.util.hash_pandas_object(frame, index=True).to_numpy()
        return type(x).__name__, tuple(map(str, frame.columns)), dtypes, _digest(rows)
    if isinstance(x, (tuple, list)):
        return type(x).__name__, tuple(fingerprint(v) for v in x)
    if isinstance(x, dict):
        return "dict", tuple((fingerprint(k), fingerprint(v)) for k, v in x.items())
    if isinstance(x, Stream):
        return "stream", x.key, id(x.memo)
    raise TypeError(f"no content key for {type(x).__name__}")


def _rebuilt(x, on_finding: Callable[[Finding], Finding]):
    """A copy of ``x`` (dataclasses, containers, frames, arrays) with each Finding replaced by ``on_finding(it)``."""
    if isinstance(x, Finding):
        return on_finding(x)
    if is_dataclass(x) and not isinstance(x, type):
        return replace(x, **{f.name: _rebuilt(getattr(x, f.name), on_finding) for f in fields(x) if f.init})
    if isinstance(x, dict):
        return {k: _rebuilt(v, on_finding) for k, v in x.items()}
    if type(x) in (list, tuple):
        return type(x)(_rebuilt(v, on_finding) for v in x)
    if isinstance(x, pd.DataFrame):
        out = x.copy()
        for c in out.columns[out.dtypes == object]:
            out[c] = [_rebuilt(v, on_finding) for v in out[c]]
        return out
    if isinstance(x, pd.Series):
        return x.map(lambda v: _rebuilt(v, on_finding)) if x.dtype == object else x.copy()
    if isinstance(x, np.ndarray):
        return np.array([_rebuilt(v, on_finding) for v in x.ravel()], object).reshape(x.shape) if x.dtype == object else x.copy()
    return x


def _relabelled(f: Finding) -> Finding:
    return replace(f, label=label(f.estimate, f.se, f.threshold))


def kept(fn: F) -> F:
    """Decorate a statistic of frames and arrays: inside ``fdr`` it is computed once per content of its arguments.
    Its result is kept only if the labels it drew are exactly those of the Findings it returns. For small results
    only: a statsmodels fit holds its design matrix, so keep what is read from it instead."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        ledger = current_ledger()
        if ledger is None:
            return fn(*args, **kwargs)
        try:
            key = (fn.__module__, fn.__qualname__, fingerprint(args), fingerprint(kwargs))
        except TypeError:
            return fn(*args, **kwargs)
        if key in ledger.kept:
            return _rebuilt(ledger.kept[key], _relabelled)
        start = len(ledger.p_values)
        out = fn(*args, **kwargs)
        if ledger.cutoff is None:
            returned: list[float] = []

            def note(f: Finding) -> Finding:
                p = claim_level_p(f)
                returned.extend([] if p is None else [p])
                return f

            copy = _rebuilt(out, note)
            if sorted(ledger.p_values[start:]) == sorted(returned):
                ledger.kept[key] = copy
        return out
    return wrapper  # type: ignore[return-value]
