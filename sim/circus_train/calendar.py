"""The 27-week calendar (CT-CAL-1, CT-CAL-2): months of 4 or 5 weeks, seasons, quotas and prices by week."""

from __future__ import annotations


from sim.circus_train.data import Data
from sim.circus_train.state import GS
from sim.core.jit import kernel

WEEK = 0  # advance_week result: an ordinary week ended
MONTH_END = 1  # the week ended a month (CT-MONTH-1)
GAME_END = 2  # the week ended September: final scoring (CT-SCORE-FINAL-0)


@kernel
def month_of(st, d: Data) -> int:
    """Month index of the current week (0 = April .. 5 = September)."""
    return d.week_month[min(st.g[GS.week], d.week_month.shape[0] - 1)]


@kernel
def season_of(st, d: Data) -> int:
    """Season of the current week (0 green, 1 yellow, 2 red) (CT-CAL-2)."""
    return d.month_season[month_of(st, d)]


@kernel
def quota(st, d: Data) -> int:
    """Occupied-city quota of the current month: 8 / 10 / 12 (CT-CAL-2, CT-ROUST-2)."""
    return d.month_quota[month_of(st, d)]


@kernel
def special_hire_price(st, d: Data) -> int:
    """Reserve price of Special Hire this month: $5 / $10 / $20 (CT-SPH-1)."""
    return d.month_price[month_of(st, d)]


@kernel
def is_long_month(d: Data, month: int) -> bool:
    """A 5-week month (May, July, August): the catch-up steal follows its scoring (CT-CATCHUP-1)."""
    return d.month_weeks[month] == 5


@kernel
def late_season(st, d: Data) -> bool:
    """August or September: the red season, where advanced costs are VP instead of reputation (CT-ADV-*)."""
    return season_of(st, d) == 2


@kernel
def advance_week(st, d: Data) -> int:
    """Move the calendar marker one week (CT-ROUST-3); say whether that ended a month or the game."""
    w = st.g[GS.week]
    st.g[GS.week] = w + 1
    if w + 1 >= d.week_month.shape[0]:
        return GAME_END
    if d.week_last[w]:
        return MONTH_END
    return WEEK
