"""Replays rendered by the core: a game gives a text per event type, the core writes the log.

``EV, TEXTS = event_texts(roll="{seat} rolls {a0}: turn total {a1}", ...)`` declares a game's event types (the
namespace its kernels record with, ``event(st, seat, EV.roll, face, total)``) and their texts at once;
``render=event_renderer("Pig", TEXTS)`` in its GameSpec renders them. A text
is a ``str.format`` template over ``seat`` ("seat 2"), ``name`` (its strategy), ``round`` and the event's
arguments ``a0``..``a4``, or a function of ``(ctx, row)`` for a text that needs a lookup (``row``: round, seat,
type, a0..a4; ``ctx``: what the game's ``context(traced)`` returns, e.g. its place names or its starting board, by
default the strategy names), or None for an event the log leaves out (a function may return None too). The log
opens with the seating, marks each new round and closes with the final standings.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence, Union

from sim.core.names import namespace
from sim.core.records import P

EventText = Union[str, None, Callable[[Any, Sequence[int]], Optional[str]]]


def event_texts(**texts: EventText) -> tuple[Any, dict[int, EventText]]:
    """The event namespace ``EV`` (codes from 1, in the order given) and the text table keyed by code."""
    ev = namespace("EV", tuple(texts), start=1)
    return ev, {getattr(ev, name): text for name, text in texts.items()}


def render_events(traced, title: str, texts: Mapping[int, EventText], context: Optional[Callable] = None) -> str:
    """A played game (a ``sim.core.spec.Traced``) as text, one line per event; an event type without a text
    raises AssertionError naming it (the table must cover every event the game records)."""
    names = traced.names
    ctx = names if context is None else context(traced)
    out = [f"{title}, game {traced.game_index}: " + ", ".join(f"seat {s} = {n}" for s, n in enumerate(names))]
    current = None
    for row in traced.events.tolist():
        rnd, seat, kind, *args = row
        if rnd != current:
            out.append("--- setup" if rnd == 0 else f"--- round {rnd}")
            current = rnd
        if kind not in texts:
            raise AssertionError(f"{title}: event type {kind} has no text; add it to the game's event texts")
        text = texts[kind]
        if callable(text):
            text = text(ctx, row)
            if text is not None:
                out.append(text)
        elif text is not None:
            values = {f"a{i}": a for i, a in enumerate(args)}
            out.append(text.format(seat=f"seat {seat}", name=names[seat] if 0 <= seat < len(names) else "",
                                   round=rnd, **values))
    out.append("Final: " + ", ".join(f"seat {s} ({names[s]}) score {p[P.score]}, rank {p[P.rank]}"
                                     for s, p in enumerate(traced.players.tolist())))
    return "\n".join(out)


def event_renderer(title: str, texts: Mapping[int, EventText], context: Optional[Callable] = None) -> Callable:
    """The ``render`` of a GameSpec whose replay is its event texts (with the game's ``context``, as above)."""
    return lambda traced: render_events(traced, title, texts, context)
