"""The combat calculator's numbers: each profile's exactly / at least / at most table, exact or
Monte Carlo with standard errors, side by side (``--vs``) and over a sweep of one stat.

Why here and not in ``sim/combat``: the exact tables and the sampler are the oracle the engine and
the drift gate trust (and their digest keys the compile cache); the calculator only reads them.
Every probability a Monte Carlo run reports carries its standard error, ``sqrt(p(1-p)/n)``, and
the means theirs, ``sd/sqrt(n)`` — a reader can tell a difference from noise. Each profile (and
each sweep value) of one call rolls its own stream, :func:`stream_seed` ``(seed, i)``, the first
``seed`` itself: independent estimates, so the standard error of ``B - A`` is
``sqrt(se_A² + se_B²)``.
"""

from __future__ import annotations

import numpy as np

from sim.combat.exact import damage_distribution

from .calculator import Profile, sweep_profile

# Samples stream in blocks of STREAM_CHUNKS sampler chunks (4 Mi resolutions, ~25 MB).
STREAM_CHUNKS = 64


def sample_histogram(attacks, defense, tier, rules, seed, n, att_adv, def_adv, size,
                     progress=None):
    """(damage histogram of ``n`` sampled attacks, total hits, sum of squared hits), in fixed memory.

    Why blocks: ``--samples 10**10`` used to allocate every draw at once (1.8 TiB for 10**12).
    The sampler's chunk ``c`` always rolls from child ``c`` of the seed, so resolving the stream
    block by block (``first_chunk``) rolls the very dice of one call: same seed, same counts,
    whatever the block size. ``progress(k)`` is told of every ``k`` resolutions done.
    """
    from sim.combat.sampler import CHUNK, Samples, sample_damage

    block = STREAM_CHUNKS * CHUNK
    hist = np.zeros(size, np.int64)
    hits = hits_sq = 0
    buffer = None
    for start in range(0, n, block):
        k = min(block, n - start)
        if buffer is None or buffer.damage.size != k:
            buffer = Samples(damage=np.empty(k, np.int32), hits=np.empty(k, np.int16))
        drawn = sample_damage(attacks, defense, tier, rules, seed=seed, n=k, out=buffer,
                              attacker_advantage=att_adv, defender_advantage=def_adv,
                              first_chunk=start // CHUNK)
        counts = np.bincount(drawn.damage, minlength=size)
        if counts.size > hist.size:
            hist = np.pad(hist, (0, counts.size - hist.size))
        hist[: counts.size] += counts
        h = drawn.hits.astype(np.int64)
        hits += int(h.sum())
        hits_sq += int((h * h).sum())
        if progress is not None:
            progress(k)
    return hist, hits, hits_sq


def stream_seed(seed: int, i: int) -> int:
    """The seed of the ``i``-th sampled profile of a call: ``seed`` for the first (a single
    profile rolls what ``--seed`` always rolled), then independent streams from
    ``SeedSequence([seed, i])``."""
    if i == 0:
        return int(seed)
    return int(np.random.SeedSequence([int(seed), i]).generate_state(1, np.uint64)[0])


def moments(hist: np.ndarray) -> tuple[float, float]:
    """Mean and variance of the damage from its histogram (exact integer sums first)."""
    n = int(hist.sum())
    values = np.arange(hist.size)
    mean = int((values * hist).sum()) / n
    return float(mean), float((hist * (values - mean) ** 2).sum() / n)


def tables(probs: np.ndarray, total: int | None = None) -> dict[str, np.ndarray]:
    """exactly[d] = P(D = d), at_least[d] = P(D >= d), at_most[d] = P(D <= d), d = 0..len-1.

    Summed from each end so that the small tail probabilities keep their digits (1 - cdf would
    round them to 0); clipped to [0, 1] against the last ulp. With ``total``, ``probs`` are
    sampled counts: summed as integers, then divided, so P(D >= 0) is exactly 1.
    """
    if total is not None:
        counts = np.asarray(probs, dtype=np.int64)
        return {"exactly": counts / total, "at_least": np.cumsum(counts[::-1])[::-1] / total,
                "at_most": np.cumsum(counts) / total}
    probs = np.asarray(probs, dtype=np.float64)
    at_least = np.cumsum(probs[::-1])[::-1]
    at_most = np.cumsum(probs)
    return {"exactly": probs, "at_least": np.clip(at_least, 0.0, 1.0),
            "at_most": np.clip(at_most, 0.0, 1.0)}


def binomial_se(p, n: int):
    """Standard error of a proportion ``p`` estimated from ``n`` independent trials, Agresti &
    Coull's: sqrt(p~ (1 - p~) / (n + 4)) with p~ = (n p + 2) / (n + 4). Why not sqrt(p (1 - p)
    / n): it is 0 where no sample (or every sample) showed the event, so a rare kill read
    "0.00 ± 0.00" where the exact chance is 0.03 %, and ± 1.96 of it covered that chance in 91
    of 200 runs (the statistics audit of stop 78). ± 1.96 of this one covers the truth at least
    92 % of the time at every chance from 1e-6 to 1 - 1e-6, 95 % on average (exact over the
    binomial law, tests/test_combat_calculator.py)."""
    p = np.asarray(p, dtype=np.float64)
    shrunk = (p * n + 2.0) / (n + 4.0)
    return np.sqrt(shrunk * (1.0 - shrunk) / (n + 4.0))


def table_se(t: dict, n: int) -> dict:
    """The tables' standard errors (:func:`binomial_se`), but 0 for P(D >= 0) and the last
    P(D <= d), which are 1 by construction, not by sample."""
    se = {k: binomial_se(v, n) for k, v in t.items()}
    se["at_least"][0] = 0.0
    se["at_most"][-1] = 0.0
    return se


def _profile_fields(p: Profile, rules, die: int) -> dict:
    out = {"label": p.label}
    if p.attacker is not None:
        out.update(attacker=p.attacker, defender=p.defender, colour=p.colour,
                   colour_reason=p.colour_reason, attacker_health=p.attacker_health,
                   attacker_max_health=p.attacker_max_health)
    out.update(attacks=p.attacks, tier=p.tier, die=die, defense=p.defense, health=p.health,
               health_source=p.health_source, attacker_advantage=p.advantage,
               defender_advantage=p.defender_advantage, advantage_scope=rules.advantage_scope)
    return out


def evaluate(p: Profile, rules, samples: int | None = None, seed: int = 0, progress=None) -> dict:
    """One profile's result, ready for JSON: summary, table (exactly/at least/at most) and the
    exact pmf or the sampled histogram; with ``samples``, standard errors beside every value."""
    dist = damage_distribution(p.attacks, p.defense, p.tier, rules, attacker_advantage=p.advantage,
                               defender_advantage=p.defender_advantage)
    out = _profile_fields(p, rules, dist.die)
    exact = {"p_hit": dist.p_hit, "mean": dist.mean, "variance": dist.variance,
             "kill_probability": dist.p_at_least(p.health)}
    if not samples:
        out.update(method="exact", **exact, sd=dist.variance ** 0.5, pmf=dist.pmf.tolist())
        out["table"] = _table_dict(tables(dist.pmf))
        return out
    hist, hits, hits_sq = sample_histogram(p.attacks, p.defense, p.tier, rules, seed, samples,
                                           p.advantage, p.defender_advantage, dist.pmf.size,
                                           progress)
    mean, variance = moments(hist)
    kill = float(hist[p.health:].sum() / samples)
    throws = max(1, p.attacks)
    hit_mean = hits / samples
    hit_var = max(hits_sq / samples - hit_mean**2, 0.0)
    # no attack thrown, no hit chance measured: null, not 0 ± 0 beside the exact 0.5 (the
    # combat audit of stop 77; the exact form's is the chance of one attack)
    measured = p.attacks > 0
    out.update(method="monte_carlo", samples=samples, seed=seed,
               p_hit=hits / (throws * samples) if measured else None,
               p_hit_se=(hit_var / samples) ** 0.5 / throws if measured else None,
               mean=mean, mean_se=(variance / samples) ** 0.5, variance=variance,
               sd=variance ** 0.5, kill_probability=kill,
               kill_probability_se=float(binomial_se(kill, samples)), exact=exact,
               histogram=hist.tolist())
    t = tables(hist, samples)
    out["table"] = _table_dict(t, table_se(t, samples))
    return out


def _table_dict(t: dict, se: dict | None = None) -> dict:
    out = {"damage": list(range(t["exactly"].size))}
    for key in ("exactly", "at_least", "at_most"):
        out[key] = t[key].tolist()
        if se is not None:
            out[f"{key}_se"] = se[key].tolist()
    return out


SWEEP_FIELDS = ("colour", "attacks", "tier", "defense", "health", "p_hit", "mean", "sd",
                "kill_probability", "p_hit_se", "mean_se", "kill_probability_se")


def sweep(base: Profile, key: str, values, catalogue, samples=None, seed=0, progress=None,
          first_stream: int = 0) -> dict:
    """Expected damage and kill probability of ``base`` for each value of one stat (value ``j``
    sampled from stream ``first_stream + j``)."""
    rows = []
    for j, value in enumerate(values):
        r = evaluate(sweep_profile(base, key, value, catalogue), catalogue.rules, samples,
                     stream_seed(seed, first_stream + j), progress)
        rows.append({key: value, **{f: r[f] for f in SWEEP_FIELDS if f in r}})
    return {"label": base.label, "rows": rows}


def calculate(profiles, catalogue, sweep_spec=None, samples=None, seed=0, progress=None) -> dict:
    """Every profile evaluated; with ``sweep_spec = (key, values)`` each profile swept too; with
    two profiles, the second minus the first (mean and kill probability)."""
    rules = catalogue.rules
    result = {"profiles": [evaluate(p, rules, samples, stream_seed(seed, i), progress)
                           for i, p in enumerate(profiles)]}
    if len(profiles) == 2:
        a, b = result["profiles"]
        diff = {}
        for key in ("mean", "kill_probability"):
            diff[key] = b[key] - a[key]
            if samples:  # independent streams: the variances add
                diff[f"{key}_se"] = (a[f"{key}_se"] ** 2 + b[f"{key}_se"] ** 2) ** 0.5
        result["difference"] = diff
    if sweep_spec is not None:
        key, values = sweep_spec
        result["sweep"] = {"key": key, "values": list(values), "series": [
            sweep(p, key, values, catalogue, samples, seed, progress,
                  len(profiles) + i * len(values)) for i, p in enumerate(profiles)]}
    return result


def resolutions(n_profiles: int, n_sweep: int, samples: int | None) -> int:
    """How many attacks a call samples (for the progress bar and the --samples limit)."""
    return (samples or 0) * n_profiles * (1 + n_sweep)


def moment_standard_errors(hist) -> dict:
    """Mean and variance (divisor n) of a sampled histogram of whole-number damages, with their
    standard errors: ``sqrt(var / n)`` for the mean; for the variance the exact variance of the
    divisor-n sample variance, ``(n-1)**2 / n**3 * (mu4 - (n-3)/(n-1) * sigma**4)``, with the
    sample central moments ``m4`` and ``var`` put in — ``(m4 - var**2) / n`` plus the order-1/n²
    term, which keeps the standard error honest where the first-order one vanishes (a two-point
    damage at p = 1/2). The delta method gives the sd's, ``se_var / (2 sd)``. Sums over the
    histogram, never the draws."""
    hist = np.asarray(hist, dtype=np.int64)
    n = int(hist.sum())
    mean, var = moments(hist)
    dev = np.arange(hist.size) - mean
    m4 = float((hist * dev**4).sum() / n)
    shrink = (n - 3) / (n - 1) if n > 1 else 1.0
    var_se = ((n - 1) ** 2 / n**3 * max(m4 - shrink * var * var, 0.0)) ** 0.5
    sd = max(var, 0.0) ** 0.5
    return {"mean": mean, "mean_se": (max(var, 0.0) / n) ** 0.5, "variance": var,
            "variance_se": var_se, "sd": sd, "sd_se": var_se / (2 * sd) if sd > 0 else 0.0}


def peer_standard_errors(result: dict, dist) -> dict:
    """``describe``'s Monte Carlo result with a standard error beside every estimate and the
    exact value beside that (the same keys as Board Wars' ``combat --samples``): ``mean_se``,
    ``variance_se``, ``sd``/``sd_se``, ``kill_probability_se`` (:func:`binomial_se`, Agresti &
    Coull's), an ``exact`` object (p_success, mean, variance, sd, kill_probability, pmf,
    at_least) and a ``table`` of exactly / at least / at most with their ``_se`` lists. Keys
    already there keep their values; ``dist`` is the system's exact distribution for the same
    stats."""
    n = result["samples"]
    hist = np.asarray(result["histogram"], dtype=np.int64)
    m = moment_standard_errors(hist)
    t = tables(hist, total=n)
    size = max(hist.size, dist.pmf.size)
    pmf = np.pad(np.asarray(dist.pmf, dtype=np.float64), (0, size - dist.pmf.size))
    exact_at_least = tables(pmf)["at_least"]
    kill = result["kill_probability"]
    added = {"mean_se": m["mean_se"], "variance_se": m["variance_se"], "sd": m["sd"],
             "sd_se": m["sd_se"], "kill_probability_se": float(binomial_se(kill, n))}
    out = {}
    for key, value in result.items():
        if key == "histogram":
            out["exact"] = {"p_success": dist.p_success, "mean": dist.mean,
                            "variance": dist.variance, "sd": max(dist.variance, 0.0) ** 0.5,
                            "kill_probability": dist.kill_probability, "pmf": pmf.tolist(),
                            "at_least": exact_at_least.tolist()}
        out[key] = value
        for se_key in {"mean": ("mean_se",), "variance": ("variance_se", "sd", "sd_se"),
                       "kill_probability": ("kill_probability_se",)}.get(key, ()):
            out[se_key] = added[se_key]
    out["table"] = {"damage": list(range(t["exactly"].size))}
    se = table_se(t, n)
    for key in ("exactly", "at_least", "at_most"):
        out["table"][key] = t[key].tolist()
        out["table"][f"{key}_se"] = se[key].tolist()
    return out
