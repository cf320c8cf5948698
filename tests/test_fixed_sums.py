"""The game's tables, and so its games, are the same bits on any machine (``sim/fixed_sums.py``).

The standard checked: "Every random stream comes from an explicit seed: bit-identical results
whatever the number of workers or the backend". NumPy's ``np.convolve`` and ``np.dot`` add through
the BLAS kernel OpenBLAS picks for the CPU, and ``OPENBLAS_CORETYPE`` picks one on purpose: each
subprocess here builds the greedy player's kill-chance tables, the calculator's exact tables, a
group attack and the Power Levels, and plays one greedy game, under another OpenBLAS kernel. With
NumPy's sums, seed 10's game went otherwise under Katmai's kernel than under Nehalem's (6 of seeds
0-399 did; stop 59), as 12 of the drift suite's first 1,024 games did between a Zen 4 and a Zen 5.
Python's ``x ** k`` is the C library's ``pow``, which glibc picks for the CPU as well (a build for
FMA instructions, or not); ``GLIBC_TUNABLES`` masks the FMA one here, and the calculator's exact
tables, built with NumPy's or Python's powers, differed under it (stop 60).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sim.fixed_sums import convolve, dot, matvec, power

ROOT = Path(__file__).resolve().parents[1]

# Run in a subprocess under one OpenBLAS kernel: a digest of what NumPy's own sums give (the
# witness that the kernels differ here) and of what the lab builds from fixed sums, and the events
# of one greedy game.
_PROBE = r"""
import hashlib, json, sys
from pathlib import Path
import numpy as np
from sim.ai.play import play_game
from sim.catalogue.loader import load_catalogue
from sim.catalogue.power import power_score
from sim.catalogue.teams import random_teams
from sim.combat.exact import damage_distribution
from sim.combat.group import group_attack
from sim.engine.log.record import new_game
from sim.engine.state.static_tables import combat_tails

def digest(*arrays):
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a, np.float64).tobytes())
    return h.hexdigest()

cat = load_catalogue(Path(sys.argv[1]))
rules = cat.rules
pmf = np.full(7, 1 / 6)
witness = pmf
for _ in range(40):
    witness = np.convolve(witness, np.r_[0.0, np.full(12, 1 / 12)])
tables = list(combat_tails(tuple(int(f) for f in rules.tier_faces)))
for tier in range(1, rules.n_tiers + 1):
    for attacks in (1, 7, 30):
        d = damage_distribution(attacks, 3, tier, rules)
        tables += [d.pmf, [d.mean, d.variance, d.p_hit]]
group = group_attack([damage_distribution(6, 3, 2, rules), damage_distribution(9, 2, 3, rules)], 60)
tables += [group.killed_by, group.damage.pmf, power_score(cat.cards, rules)]
seed = int(sys.argv[2])
game = new_game(cat, random_teams(len(cat.cards), np.random.default_rng(seed)), seed, log=True)
play_game(game, [1, 1, 1, 1], [0] * 4, [None] * 4)
print(json.dumps({"witness": digest(witness, [np.dot(witness, witness)]),
                  "tables": digest(*tables),
                  "game": hashlib.sha256(game.event_rows().tobytes()).hexdigest()}))
"""

# OpenBLAS kernels any x86-64 can run (SSE only), then the AVX ones where the CPU has them
_CORES = (("Katmai", None), ("Nehalem", None), ("Sandybridge", "avx"), ("Haswell", "avx2"))


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    line = next((x for x in text.splitlines() if x.startswith("flags")), "")
    return set(line.split(":", 1)[-1].split())


def _probe(core: str, seed: int) -> dict:
    env = {**os.environ, "OPENBLAS_CORETYPE": core, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _PROBE, str(ROOT / "cards"), str(seed)],
                         env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="OPENBLAS_CORETYPE names x86-64 kernels")
def test_tables_and_a_game_are_the_same_bits_under_every_blas_kernel():
    flags = _cpu_flags()
    cores = [name for name, needs in _CORES if needs is None or needs in flags]
    seen = {core: _probe(core, seed=10) for core in cores}
    witnesses = {v["witness"] for v in seen.values()}
    if len(witnesses) == 1:  # this NumPy's BLAS ignores the variable: nothing could differ
        pytest.skip("NumPy's BLAS here gives the same sums under every OPENBLAS_CORETYPE")
    assert len({v["tables"] for v in seen.values()}) == 1, seen
    assert len({v["game"] for v in seen.values()}) == 1, seen


def test_convolve_is_numpys_convolution_summed_in_a_fixed_order():
    rng = np.random.default_rng(5)
    for n, m in ((1, 1), (1, 9), (13, 4), (4, 13), (50, 31)):
        a, b = rng.random(n), rng.random(m)
        got = convolve(a, b)
        exact = [sum((Fraction(a[i - j]) * Fraction(b[j]) for j in range(m) if 0 <= i - j < n),
                     Fraction(0)) for i in range(n + m - 1)]
        assert got.shape == (n + m - 1,)
        assert np.allclose(got, np.convolve(a, b), rtol=1e-14, atol=0)
        # each entry: at most min(n, m) roundings of non-negative terms from the exact sum
        assert all(abs(Fraction(g) - e) <= e * min(n, m) * 2.0 ** -52 for g, e in zip(got, exact))
    with pytest.raises(ValueError):
        convolve([], [1.0])


def test_dot_is_the_correctly_rounded_sum_of_the_products():
    rng = np.random.default_rng(6)
    for n in (1, 2, 17, 400):
        a, b = rng.standard_normal(n), rng.standard_normal(n)
        products = [Fraction(float(x * y)) for x, y in zip(a, b)]  # each product rounded once
        assert dot(a, b) == float(sum(products, Fraction(0)))
    assert dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]) == 1.0  # left to right: 0.0
    with pytest.raises(ValueError):
        dot([1.0, 2.0], [1.0])


def test_matvec_adds_the_columns_left_to_right():
    rng = np.random.default_rng(7)
    m, v = rng.random((30, 3)), rng.random(3)
    assert np.array_equal(matvec(m, v), (m[:, 0] * v[0] + m[:, 1] * v[1]) + m[:, 2] * v[2])
    assert np.allclose(matvec(m, v), m @ v, rtol=1e-15, atol=0)


# In a subprocess under one choice of glibc's ``pow``: the witness (three ``x ** k`` that glibc's
# FMA and plain builds round differently on an x86-64 with FMA) and a digest of every table built
# with a power: the exact tables with and without advantage, hit counts, a water streak and a peer
# game's exact attack.
_POW_PROBE = r"""
import hashlib, json, sys
from pathlib import Path
import numpy as np
from sim.board.water import p_streak_at_least
from sim.catalogue.loader import load_catalogue
from sim.combat.exact import binomial_pmf, damage_distribution
from sim.catalogue.peers import load_peers
from sim.combat.peers.registry import SYSTEMS, rules_for

cat = load_catalogue(Path(sys.argv[1]))
rules = cat.rules
witness = [0.4748392663421839 ** 34, 0.9196645534289503 ** 27, 0.2239763948717488 ** 38]
h = hashlib.sha256()
for tier in range(1, rules.n_tiers + 1):
    for defense in range(rules.max_defense + 1):
        for attacks in (1, 4, 12):
            for adv in (-1, 0, 1):
                d = damage_distribution(attacks, defense, tier, rules, attacker_advantage=adv,
                                        defender_advantage=-adv)
                h.update(np.asarray(d.pmf, np.float64).tobytes())
                h.update(np.asarray([d.mean, d.variance, d.p_hit]).tobytes())
for n in range(1, 30):
    for p in np.linspace(0.01, 0.99, 50):
        h.update(binomial_pmf(n, float(p)).tobytes())
h.update(np.asarray([p_streak_at_least(k, cat.board_rules) for k in range(40)]).tobytes())
peers = load_peers(Path(sys.argv[1]))
for system, spec in SYSTEMS.items():
    for stats in peers.compare[system]:
        h.update(spec.exact(stats, rules_for(system, peers, rules)).pmf.tobytes())
print(json.dumps({"witness": repr(witness), "tables": h.hexdigest()}))
"""


def _pow_probe(tunables: str | None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GLIBC_TUNABLES", None)
    if tunables:
        env["GLIBC_TUNABLES"] = tunables
    out = subprocess.run([sys.executable, "-c", _POW_PROBE, str(ROOT / "cards")], env=env,
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="glibc's FMA build of pow is an x86-64 choice")
def test_exact_tables_are_the_same_bits_under_either_build_of_pow():
    plain = _pow_probe("glibc.cpu.hwcaps=-AVX2,-FMA")
    native = _pow_probe(None)
    if plain["witness"] == native["witness"]:  # no FMA here, or a libc that ignores the mask
        pytest.skip("this C library's pow gives the same bits with the FMA build masked")
    assert plain["tables"] == native["tables"]


def test_power_multiplies_to_within_k_roundings_of_the_exact_power():
    rng = np.random.default_rng(8)
    for x in rng.random(200):
        for k in (0, 1, 2, 3, 7, 8, 31, 64):
            exact = Fraction(float(x)) ** k
            got = power(float(x), k)
            assert abs(Fraction(got) - exact) <= exact * max(k, 1) * 2.0 ** -52
            assert got == pytest.approx(float(x) ** k, rel=1e-14)
    assert power(0.0, 0) == 1.0 and power(2.0, 10) == 1024.0
    for bad in (-1, 2.5):
        with pytest.raises(ValueError):
            power(0.5, bad)
