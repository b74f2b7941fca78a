"""Speed of the campaign's equilibrium ("hard") player (issue 30: median decision under 1 s).

Plays seeded basic wars of the hard player (German) against the heuristic player and times
every decision of the hard player in CPU seconds: all of them, and the first placement of each
battle alone (where it solves the battle's game; the tactic card that follows is its plan).
Prints the median, the 90th percentile and the slowest, with the ratio target / median (met at
>= 1).

    python benchmarks/bench_campaign_hard.py [--quick] [--wars N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from hexwar.campaign.ai import make_player
from hexwar.campaign.state import new_campaign

TARGET = 1.0  # seconds: the median decision of the hard player over a war


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--wars", type=int, default=None)
    a = ap.parse_args()
    n = a.wars or (1 if a.quick else 5)
    every: list[float] = []
    solves: list[float] = []
    for seed in range(n):
        st, _ = new_campaign(seed)
        ps = {"german": make_player("hard", "german", seed), "soviet": make_player("normal", "soviet", seed)}
        while not st.over:
            side = st.to_act
            first = st.phase == "place" and st.slots[side] is None and not st.tactic_decided[side]  # type: ignore[index]
            t0 = time.process_time()  # CPU time: the machine may be shared with other work
            cmd = ps[side].choose(st)  # type: ignore[index]
            dt = time.process_time() - t0
            if side == "german":
                every.append(dt)
                if first:
                    solves.append(dt)
            st.apply(cmd)
    print(
        f"hard (equilibrium) player as German against the heuristic player, {n} basic war(s), seeds 0..{n - 1}"
    )
    print(
        f"{'decisions':34s} {'count':>6s} {'median ms':>10s} {'p90 ms':>8s} {'max ms':>8s} {'target/median':>14s}"
    )
    for label, v in (("every decision", every), ("first placement of a battle (solve)", solves)):
        v = sorted(v)
        med = statistics.median(v)
        p90 = v[int(0.9 * (len(v) - 1))]
        print(
            f"{label:34s} {len(v):6d} {med * 1000:10.2f} {p90 * 1000:8.1f} {v[-1] * 1000:8.1f} "
            f"{TARGET / max(med, 1e-9):14.1f}"
        )


if __name__ == "__main__":
    main()
