"""Victory points, money and reputation changes shared by every mechanic (CT-VP-1, CT-SOLO-5, CT-REP-3, CT-REP-4)."""

from __future__ import annotations


from sim.circus_train.data import Data, REP_TOP
from sim.circus_train.rules import R
from sim.circus_train.state import PL
from sim.core.jit import kernel
from sim.core.state import M


@kernel
def gain_vp(st, p: int, k: int) -> None:
    """Add k VP; in solitaire every VP is paid as money instead (CT-SOLO-5)."""
    if st.meta[M.n_players] == 1:
        st.pl[p, PL.money] += k * st.rules[R.solo_vp_money]
    else:
        st.pl[p, PL.vp] += k


@kernel
def lose_vp(st, p: int, k: int) -> None:
    """Take k VP, never below the floor (CT-VP-1, CT-AMB-13); solitaire pays $ per VP, never below $0 (CT-SOLO-5)."""
    rules = st.rules
    if st.meta[M.n_players] == 1:
        st.pl[p, PL.money] = max(0, st.pl[p, PL.money] - k * rules[R.solo_vp_money])
    else:
        st.pl[p, PL.vp] = max(rules[R.vp_floor], st.pl[p, PL.vp] - k)


@kernel
def change_rep(st, d: Data, p: int, steps: int) -> None:
    """Move the reputation marker, stopping at either end of the column (CT-REP-3)."""
    st.pl[p, PL.rep] = min(d.rep_meta[REP_TOP], max(0, st.pl[p, PL.rep] + steps))


@kernel
def success_max(st, d: Data, p: int, basic: int) -> int:
    """Highest die face that succeeds: ``basic`` (e.g. 1-4) or, in the advanced game, the reputation box (CT-REP-4)."""
    if st.rules[R.advanced]:
        return d.rep_success[st.pl[p, PL.rep]]
    return basic
