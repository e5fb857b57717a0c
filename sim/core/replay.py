"""Replays rendered by the core: a game gives a text per event type, the core writes the log.

``EV, TEXTS = event_texts(roll="{seat} rolls {a0}: turn total {a1}", ...)`` declares a game's event types (the
namespace its kernels record with, ``event(st, seat, EV.roll, face, total)``) and their texts at once;
``render=event_renderer("Pig", TEXTS)`` in its GameSpec renders them. A text
is a ``str.format`` template over ``seat`` ("seat 2"), ``name`` (its strategy), ``round`` and the event's
arguments ``a0``..``a4``, or a function of ``(ctx, row)`` for a text that needs a lookup (``row``: round, seat,
type, a0..a4; ``ctx``: what the game's ``context(traced)`` returns, e.g. its place names or its starting board, by
default the strategy names), or None for an event the log leaves out (a function may return None too). The log
opens with the seating and closes with the final standings. Each event sits under a header, its section, written
whenever it differs from the last one written: by default its round ("--- setup", "--- round 3"); a game whose
headers follow its phases gives ``sections``, a text per event type in the same forms (Bus: " Planning:" for a
placed cube, " Resolution:" for what follows; an event type without one stays under the last header).
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


def seat_labels(traced) -> list[str]:
    """Each seat as the texts name it, "seat 2 (builder)"."""
    return [f"seat {s} ({name})" for s, name in enumerate(traced.names)]


def label(labels: Sequence[str], seat: int) -> str:
    """The label of ``seat``, or "" for an event of no seat (seat -1)."""
    return labels[seat] if 0 <= seat < len(labels) else ""


def round_section(ctx: Any, row: Sequence[int]) -> str:
    """The default header: the event's round."""
    return "--- setup" if row[0] == 0 else f"--- round {row[0]}"


def _say(text: EventText, ctx: Any, row: Sequence[int], names: Sequence[str]) -> Optional[str]:
    """An event text (template, function or None) said of one event row."""
    if callable(text):
        return text(ctx, row)
    if text is None:
        return None
    rnd, seat, _kind, *args = row
    values = {f"a{i}": a for i, a in enumerate(args)}
    return text.format(seat=f"seat {seat}", name=names[seat] if 0 <= seat < len(names) else "", round=rnd,
                       **values)


def render_events(traced, title: str, texts: Mapping[int, EventText], context: Optional[Callable] = None,
                  sections: Optional[Mapping[int, EventText]] = None) -> str:
    """A played game (a ``sim.core.spec.Traced``) as text, one line per event under its section's header (by
    default its round); an event type without a text raises AssertionError naming it (the table must cover every
    event the game records)."""
    names = traced.names
    ctx = names if context is None else context(traced)
    out = [f"{title}, game {traced.game_index}: " + ", ".join(f"seat {s} = {n}" for s, n in enumerate(names))]
    header = None
    for row in traced.events.tolist():
        kind = row[2]
        if kind not in texts:
            raise AssertionError(f"{title}: event type {kind} has no text; add it to the game's event texts")
        section = round_section(ctx, row) if sections is None else _say(sections.get(kind), ctx, row, names)
        if section is not None and section != header:
            out.append(section)
            header = section
        line = _say(texts[kind], ctx, row, names)
        if line is not None:
            out.append(line)
    out.append("Final: " + ", ".join(f"seat {s} ({names[s]}) score {p[P.score]}, rank {p[P.rank]}"
                                     for s, p in enumerate(traced.players.tolist())))
    return "\n".join(out)


def event_renderer(title: str, texts: Mapping[int, EventText], context: Optional[Callable] = None,
                   sections: Optional[Mapping[int, EventText]] = None) -> Callable:
    """The ``render`` of a GameSpec whose replay is its event texts (with the game's ``context`` and
    ``sections``, as above)."""
    return lambda traced: render_events(traced, title, texts, context, sections)
