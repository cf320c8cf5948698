"""The systems ``bwlab combat --system`` and ``bwlab compare-systems`` know, behind one interface.

Each system is an ``exact(stats, rules) -> PeerDistribution`` and a ``sample(stats, rules, n,
seed) -> PeerSamples``; ``rules`` is the system's section of ``cards/peers.toml`` (Board Wars: its
own ``cards/rules.toml``). Board Wars is wrapped here so that the comparison runs the very tables
and sampler the rest of the lab uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from sim.catalogue.diagnostics import InputError, Problem
from sim.catalogue.peers import STAT_SPECS, check_stats

from . import arena, dungeon_twister, eight_masters
from .common import PeerDistribution, PeerSamples

DEFAULT = "boardwars"


def _bw_exact(stats: dict, rules) -> PeerDistribution:
    from sim.combat.exact import damage_distribution

    dist = damage_distribution(stats["attacks"], stats["defense"], stats["tier"], rules)
    return PeerDistribution(dist.pmf, dist.p_hit, stats["health"], dist.p_at_least(stats["health"]),
                            {"die": dist.die})


def _bw_sample(stats: dict, rules, n: int, seed: int) -> PeerSamples:
    from sim.combat.sampler import sample_damage

    drawn = sample_damage(stats["attacks"], stats["defense"], stats["tier"], rules, seed=seed, n=n)
    damage = drawn.damage.astype(np.int64)
    return PeerSamples(damage, damage >= stats["health"])


@dataclass(frozen=True)
class System:
    name: str
    title: str
    source: str
    exact: Callable
    sample: Callable


SYSTEMS = {
    "boardwars": System("boardwars", "Board Wars", "000_527084f8378d7355.txt",
                        _bw_exact, _bw_sample),
    "arena": System("arena", "Arena: The Contest", "003_362dba6ff5520ffe.txt",
                    arena.exact, arena.sample),
    "dungeon_twister": System("dungeon_twister", "Dungeon Twister", "001_ff90c4d5732b31e1.txt",
                              dungeon_twister.exact, dungeon_twister.sample),
    "eight_masters": System("eight_masters", "8 Masters' Revenge", "001_ff90c4d5732b31e1.txt",
                            eight_masters.exact, eight_masters.sample),
}
assert set(SYSTEMS) == set(STAT_SPECS)


def rules_for(system: str, peers, bw_rules):
    return bw_rules if system == "boardwars" else getattr(peers, system)


def bw_problems(stats: dict, bw_rules) -> list[tuple[str, str]]:
    """Board Wars stats that ``cards/rules.toml`` forbids (its tiers and maximum defense)."""
    out = []
    if "tier" in stats and stats["tier"] > bw_rules.n_tiers:
        out.append(("tier", f"{stats['tier']} is not a dice tier (1..{bw_rules.n_tiers})"))
    if "defense" in stats and stats["defense"] > bw_rules.max_defense:
        out.append(("defense", f"{stats['defense']} is above the maximum defense "
                               f"{bw_rules.max_defense}"))
    return out


def parse_stat_overrides(system: str, items) -> dict:
    """``KEY=VALUE`` strings (VALUE an integer or a comma list) -> {key: value}; ValueError."""
    out = {}
    specs = STAT_SPECS[system]
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{item!r}: expected KEY=VALUE")
        if key not in specs:
            raise ValueError(f"{key}: unknown stat; {system} takes {', '.join(specs)}")
        try:
            values = [int(x) for x in raw.split(",") if x.strip()] if raw.strip() else []
        except ValueError:
            raise ValueError(f"{key}: expected whole numbers, got {raw!r}") from None
        out[key] = values if specs[key][0] == "ints" else (values[0] if len(values) == 1
                                                          else raw)
    return out


def stats_for(system: str, base: dict, overrides: dict, peers, bw_rules) -> dict:
    """``base`` stats with ``overrides`` applied and checked; ValueError("field: problem")."""
    stats, problems = check_stats(system, {**base, **overrides}, rules_for(system, peers, bw_rules)
                                  if system != "boardwars" else None)
    if system == "boardwars" and not problems:
        problems = bw_problems(stats, bw_rules)
    if problems:
        raise ValueError("; ".join(f"{f}: {m}" for f, m in problems))
    return stats


def check_compare_levels(peers, bw_rules) -> None:
    """Board Wars levels of ``[compare.boardwars]`` against rules.toml (InputError, file:line)."""
    problems = []
    for stats in peers.compare.get("boardwars", []):
        for field, message in bw_problems(stats, bw_rules):
            problems.append(Problem(peers.path, peers.lines.get("boardwars"),
                                    f"compare.boardwars.{field}", message))
    if problems:
        raise InputError(sorted(set(problems), key=str))


# Resolutions per block of :func:`sample_blocks`: 64 sampler chunks (4 Mi), as the stat form's.
BLOCK_CHUNKS = 64


def sample_blocks(system: str, stats: dict, rules, n: int, seed: int,
                  progress: Callable[[int], None] | None = None) -> PeerSamples:
    """``SYSTEMS[system].sample(stats, rules, n, seed)``'s rows, bit for bit, sampled in blocks
    of :data:`BLOCK_CHUNKS` chunks (each block continues the stream: ``first_chunk``);
    ``progress(k)`` is told of every ``k`` resolutions sampled. Why blocks: one call over 10^8
    samples ran 10 s with nothing to show (the audit of stop 67)."""
    from .common import CHUNK

    sample = SYSTEMS[system].sample
    block = BLOCK_CHUNKS * CHUNK
    damage = killed = None
    for start in range(0, max(n, 1), block):
        k = min(block, n - start)
        drawn = sample(stats, rules, k, seed, first_chunk=start // CHUNK)
        if n <= block:
            damage, killed = drawn.damage, drawn.killed
        else:
            if damage is None:
                damage = np.empty(n, drawn.damage.dtype)
                killed = np.empty(n, drawn.killed.dtype)
            damage[start:start + k] = drawn.damage
            killed[start:start + k] = drawn.killed
        if progress is not None:
            progress(k)
    return PeerSamples(damage, killed)


def describe(system: str, stats: dict, rules, samples: int | None, seed: int,
             progress: Callable[[int], None] | None = None) -> dict:
    """The result of ``bwlab combat --system``: exact pmf, or a seeded Monte Carlo histogram
    (sampled in blocks, each told to ``progress``: :func:`sample_blocks`)."""
    dist = SYSTEMS[system].exact(stats, rules)
    result = {"system": system, "title": SYSTEMS[system].title,
              "stats": {k: list(v) if isinstance(v, tuple) else v for k, v in stats.items()},
              "health": dist.health, "p_success": dist.p_success,
              **{k: v for k, v in dist.extra.items()}}
    if samples:
        drawn = sample_blocks(system, stats, rules, samples, seed, progress)
        result.update(method="monte_carlo", samples=samples, seed=seed,
                      mean=float(drawn.damage.mean()), variance=float(drawn.damage.var()),
                      kill_probability=float(drawn.killed.mean()),
                      histogram=np.bincount(drawn.damage, minlength=dist.pmf.size).tolist())
    else:
        result.update(method="exact", mean=dist.mean, variance=dist.variance,
                      kill_probability=dist.kill_probability, pmf=dist.pmf.tolist())
    return result


def format_table(r: dict) -> str:
    """The text form of :func:`describe`'s result: summary, then P(damage >= h) at a few h."""
    stats = ", ".join(f"{k} {','.join(map(str, v)) if isinstance(v, list) else v}"
                      for k, v in r["stats"].items())
    head = f"{r['title']}: {stats} — {r['method'].replace('_', ' ')}"
    if r["method"] == "monte_carlo":
        head += f", {r['samples']} samples, seed {r['seed']}"
    lines = [head, f"  p_success {r['p_success']:.4f}", f"  mean      {r['mean']:.4f}",
             f"  variance  {r['variance']:.4f}", f"  std dev   {max(r['variance'], 0) ** 0.5:.4f}",
             f"  kill      {r['kill_probability']:.4f} against {r['health']} health"]
    probs = np.asarray(r["pmf"] if "pmf" in r else np.asarray(r["histogram"]) / r["samples"])
    tail = np.cumsum(probs[::-1])[::-1]
    marks = sorted({int(h) for h in np.flatnonzero(probs > 0)} | {0})[:11]
    lines.append("  damage >= " + " ".join(f"{h:>6d}" for h in marks))
    lines.append("  P         " + " ".join(f"{tail[h]:6.3f}" for h in marks))
    return "\n".join(lines)
