"""Speed of the campaign's computer player and exact odds (issue 16: decisions under 100 ms).

Plays seeded wars of the standard player against itself and prints, per decision kind, the
number of decisions, the mean and the slowest, with the ratio of the slowest to the 100 ms
target; then the exact odds table of one placement (cache cleared, then a cache hit).

    python benchmarks/bench_campaign.py [--quick] [--wars N]
"""

from __future__ import annotations

import argparse
import time

from hexwar.campaign import odds
from hexwar.campaign.ai import make_player
from hexwar.campaign.options import CampaignOptions
from hexwar.campaign.state import new_campaign

TARGET = 0.100  # seconds per decision


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--wars", type=int, default=None)
    a = ap.parse_args()
    n = a.wars or (10 if a.quick else 100)
    times: dict[str, list[float]] = {}
    for opts in (CampaignOptions(), CampaignOptions(advanced=True, events=2, event_swap=True)):
        for seed in range(n):
            st, _ = new_campaign(seed, opts)
            ps = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
            while not st.over:
                phase = st.phase
                t0 = time.process_time()  # CPU time: the machine may be shared with other work
                cmd = ps[st.to_act].choose(st)  # type: ignore[index]
                times.setdefault(phase, []).append(time.process_time() - t0)
                st.apply(cmd)
    print(f"standard player, {n} wars each of the basic game and the advanced rules")
    print("(CPU milliseconds per decision)")
    print(
        f"{'decision':16s} {'count':>7s} {'mean ms':>9s} {'max ms':>8s} {'target ms':>10s} {'max/target':>11s}"
    )
    for k, v in sorted(times.items()):
        print(
            f"{k:16s} {len(v):7d} {sum(v) / len(v) * 1000:9.2f} {max(v) * 1000:8.2f} {TARGET * 1000:10.0f} "
            f"{max(v) / TARGET:11.2f}"
        )
        print(
            f"FIGURE | campaign {k} decision, slowest (ms) | {max(v) * 1000:.2f} | < {TARGET * 1000:.0f} ms | {TARGET / max(max(v), 1e-9):.2f}"
        )
    st, _ = new_campaign(1)
    for s in ("german", "soviet"):
        st.apply(ps[s].choose(st)) if st.phase == "choose_tactics" else None
    odds._CACHE.clear()
    t0 = time.perf_counter()
    odds.odds_table(st, "german")
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    odds.odds_table(st, "german")
    warm = time.perf_counter() - t0
    print(
        f"exact odds table of a placement (7 battle cards x tactic options): cold {cold * 1000:.2f} ms, "
        f"cached {warm * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
