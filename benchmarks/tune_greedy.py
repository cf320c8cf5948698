"""Tune greedy's weights by self-play (issue #25 item 1): CMA-ES over the eleven ``greedy_*``
weights, each candidate judged by duplicate play against the rules' greedy.

Why CMA-ES (the ``cma`` package, ``pip install -e .[tune]``): the objective is a win share
measured by play — noisy, no gradient, a handful of dimensions — which is what a
population-based evolution strategy with a well-kept implementation handles; NTBEA needs a
discretised grid and has no maintained Python package. The search runs in log-space around the
rules' weights (``weight = rules' weight × exp(x)``, ``|x| <= --bound``): the weights differ by
three orders of magnitude and only their ratios matter to an argmax.

How a candidate is judged: generation ``g`` plays deals ``g·D .. g·D + D - 1`` (``--deals`` D),
each exactly as ``bwlab ladder`` plays a match (``sim.runner.ladder``): the deal's board (of
``--boards``, from ``SeedSequence([seed, 2, k])``), four teams of five cards
(``SeedSequence([seed, 1, d])``) and dice (child ``d`` of ``SeedSequence(seed)``) are played four
times, the candidate in one seat rotated through all four, the rules' greedy in the other three.
Every candidate of a generation meets the same deals (common random numbers: their differences
are not luck of the deal), and each generation meets fresh deals (no overfitting to a few). The
score is the candidate's win share (25 % is parity).

Game length (issue #25 item 1 asks for the tuned greedy at >= 0.9x greedy's games/s, and a
decision costs the same whatever the weights, so its self-play games may be at most about 10 %
longer): with ``--length-weight`` W > 0 each candidate also plays the generation's deals once
with itself in all four seats, and its score loses ``W × max(0, L / L0 - 1 - --length-slack)``,
L its mean decisions per game and L0 the rules' greedy's on the same deals (same boards, teams
and dice). ``--start FILE`` starts the search at a weights file's weights (an earlier tuning)
instead of the rules'.

Resumable and atomic: after every generation the optimiser's state (and NumPy's global random
state, which ``cma`` samples from) is written atomically to ``--state``, and the current best
guess — the search distribution's mean, the estimate that averages the noise — to ``--out`` as
a weights file (:mod:`sim.catalogue.greedy_weights`); ``--resume`` continues from ``--state``.
Progress (generation, last scores, games/s) on stderr; stdout gets one JSON summary at the end.
Judge the result on other seeds with ``bwlab ladder --players
greedy,greedy:weights=experiments/greedy_tuned.toml --seed 1``.

    python benchmarks/tune_greedy.py [--minutes 45] [--deals 64] [--boards 32] [--seed 25]
        [--sigma 0.5] [--bound 3] [--popsize 0] [--out experiments/greedy_tuned.toml]
        [--length-weight 0] [--length-slack 0.05] [--start FILE]
        [--state reports/tune_greedy.state.pkl] [--resume] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np


def _parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=45.0,
                   help="machine time for the search; it stops after the generation that "
                        "passes it (default 45)")
    p.add_argument("--generations", type=int, default=0,
                   help="stop after this many generations in all (0: only --minutes)")
    p.add_argument("--deals", type=int, default=64,
                   help="deals per generation, each played 4 times per candidate (default 64)")
    p.add_argument("--boards", type=int, default=32, help="boards the deals share (default 32)")
    p.add_argument("--seed", type=int, default=25,
                   help="root of every stream: boards, deals, dice, the optimiser (default 25; "
                        "judge the result on another)")
    p.add_argument("--sigma", type=float, default=0.5, help="initial step size in log-weight")
    p.add_argument("--bound", type=float, default=3.0,
                   help="|log(weight / the rules' weight)| at most this (default 3: ×/÷ 20)")
    p.add_argument("--popsize", type=int, default=0, help="candidates per generation (0: cma's)")
    p.add_argument("--length-weight", type=float, default=0.0,
                   help="score lost per unit of self-play length ratio beyond the slack "
                        "(default 0: win share only)")
    p.add_argument("--length-slack", type=float, default=0.05,
                   help="self-play games this much longer than greedy's cost nothing "
                        "(default 0.05)")
    p.add_argument("--start", type=Path, default=None,
                   help="a weights file to start the search at (default: the rules' weights)")
    p.add_argument("--out", type=Path, default=Path("experiments/greedy_tuned.toml"))
    p.add_argument("--state", type=Path, default=Path("reports/tune_greedy.state.pkl"))
    p.add_argument("--resume", action="store_true", help="continue the search in --state")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    problems = [f"--{k}: must be positive" for k in ("minutes", "deals", "sigma", "bound")
                if not getattr(args, k) > 0]
    if args.length_weight < 0 or args.length_slack < 0:
        problems.append("--length-weight and --length-slack: not negative")
    if args.start is not None and not args.start.is_file():
        problems.append(f"--start: {args.start}: no such file")
    if args.boards < 2:
        problems.append("--boards: at least 2")
    if args.popsize < 0 or args.generations < 0 or args.seed < 0:
        problems.append("--popsize, --generations and --seed: not negative")
    if args.resume and not args.state.is_file():
        problems.append(f"--state: {args.state}: no search to resume")
    if problems:
        for line in problems:
            print(f"error: {line}", file=sys.stderr)
        raise SystemExit(2)
    return args


def _judge(world, catalogue, rules_w, x, deals, seed, boards) -> float:
    """The win share of greedy with weights ``rules_w · exp(x)`` in one seat against three
    rules' greedy teams, over each of ``deals`` played four times (seats rotated)."""
    from sim.ai.spec import PolicySpec
    from sim.engine.state.fields import GREEDY
    from sim.runner.ladder import _play_match

    rules = PolicySpec("greedy", GREEDY, 0)
    tuned = PolicySpec("greedy", GREEDY, 0, "candidate", tuple(rules_w * np.exp(x)))
    seat, _, info = _play_match(world, catalogue, rules, tuned, deals, seed, boards)
    return float(np.mean(info["winner"] == seat))


def _self_play_length(world, catalogue, weights, deals, seed, boards) -> float:
    """Mean decisions per game of greedy with ``weights`` (None: the rules') in all four seats,
    each deal played once on its board with its teams and dice (as in :func:`_judge`)."""
    from sim.ai.play import RESULT_COLUMNS
    from sim.engine.state.fields import GREEDY
    from sim.runner.ladder import deal_teams
    from sim.runner.playing import play_many

    stacked, cards = world
    teams = np.stack([deal_teams(seed, int(d), len(catalogue.cards)) for d in deals])
    out = play_many(stacked, cards, deals % boards, teams, seed, [GREEDY] * 4,
                    game_indices=deals, weights=[weights] * 4)
    return float(out[:, RESULT_COLUMNS.index("decisions")].mean())


def _score(args, world, catalogue, rules_w, x, deals, base_length):
    """(score, win share, self-play length ratio) of candidate ``x`` (module doc)."""
    share = _judge(world, catalogue, rules_w, x, deals, args.seed, args.boards)
    if args.length_weight == 0:
        return share, share, float("nan")
    ratio = _self_play_length(world, catalogue, tuple(rules_w * np.exp(x)), deals, args.seed,
                              args.boards) / base_length
    return share - args.length_weight * max(0.0, ratio - 1.0 - args.length_slack), share, ratio


def _save(args, es, gen, history, rules_w, started) -> None:
    """The optimiser's state and the current weights file, each written atomically."""
    from sim.atomic import atomic_path, write_text
    from sim.catalogue.greedy_weights import format_greedy_weights

    args.state.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(args.state) as tmp:
        Path(tmp).write_bytes(pickle.dumps({"es": es, "gen": gen, "history": history,
                                            "np_random": np.random.get_state(),
                                            "args": {k: str(v) for k, v in vars(args).items()},
                                            "seconds": started}))
    mean = _favourite(es)
    last = history[-1] if history else {}
    tuning = {"method": "CMA-ES (cma) in log-space, duplicate play vs 3 rules' greedy",
              "seed": args.seed, "generations": gen, "deals_per_generation": args.deals,
              "boards": args.boards, "games": int(sum(h["games"] for h in history)),
              "length_weight": args.length_weight, "length_slack": args.length_slack,
              "start": str(args.start) if args.start else "the rules' weights",
              "sigma": round(float(es.sigma), 4),
              "last_generation_mean_score": round(float(last.get("mean", np.nan)), 4),
              "last_generation_mean_win_share": round(float(last.get("mean_win_share",
                                                                     last.get("mean", np.nan))), 4),
              "log_factors": [round(float(v), 4) for v in mean]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text(args.out, format_greedy_weights(rules_w * np.exp(mean), tuning))


def _favourite(es) -> np.ndarray:
    """The search's best estimate: its mean, mapped into the bounds as every candidate was
    (``cma``'s ``xfavorite``; the raw ``es.mean`` may sit outside them)."""
    return np.asarray(es.result.xfavorite, float)


def _start(args, rules_w):
    """A fresh CMA-ES at the rules' weights (x = 0) or ``--start``'s, or the one in ``--state``."""
    import cma

    if args.resume:
        saved = pickle.loads(args.state.read_bytes())
        np.random.set_state(saved["np_random"])
        return saved["es"], saved["gen"], saved["history"], saved["seconds"]
    n = rules_w.size
    x0 = np.zeros(n)
    if args.start is not None:
        from sim.catalogue.greedy_weights import load_greedy_weights

        start = load_greedy_weights(args.start)
        x0 = np.clip(np.log(np.where(np.isnan(start), rules_w, start) / rules_w),
                     -args.bound, args.bound)
    cma_seed = int(np.random.SeedSequence([args.seed, 99]).generate_state(1)[0] % (2**31 - 2)) + 1
    opts = {"bounds": [[-args.bound] * n, [args.bound] * n], "seed": cma_seed,
            "verbose": -9, "CMA_diagonal": False}
    if args.popsize:
        opts["popsize"] = args.popsize
    return cma.CMAEvolutionStrategy(x0, args.sigma, opts), 0, [], 0.0


def main(argv=None) -> int:
    args = _parse(argv)
    try:
        import cma  # noqa: F401
    except ImportError:
        print("error: the tuner needs the cma package: pip install -e .[tune]", file=sys.stderr)
        return 2
    from sim.catalogue.game_rules import GREEDY_KEYS
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.static_tables import load_game_data
    from sim.runner import progress as line
    from sim.runner.ladder import _world

    catalogue = load_catalogue()
    rules_w = np.asarray(load_game_data(catalogue.root)[0].greedy, float)
    es, gen, history, spent = _start(args, rules_w)
    world = _world(catalogue, args.seed, args.boards)
    t0 = time.perf_counter() - spent
    with line.reporting("tune_greedy", quiet=args.quiet):
        while time.perf_counter() - t0 < 60 * args.minutes and not (
                args.generations and gen >= args.generations):
            deals = np.arange(gen * args.deals, (gen + 1) * args.deals)
            xs = es.ask()
            base = (_self_play_length(world, catalogue, None, deals, args.seed, args.boards)
                    if args.length_weight > 0 else float("nan"))
            last = f"; last mean {history[-1]['mean']:.3f}, best {history[-1]['best']:.3f}" \
                if history else ""
            per = 4 * args.deals + (args.deals if args.length_weight > 0 else 0)
            with line.stage(f"generation {gen + 1}{last}", per * len(xs)):
                g0 = time.perf_counter()
                judged = [_score(args, world, catalogue, rules_w, np.asarray(x), deals, base)
                          for x in xs]
            scores = [j[0] for j in judged]
            es.tell(xs, [-v for v in scores])
            gen += 1
            history.append({"gen": gen, "mean": float(np.mean(scores)),
                            "best": float(np.max(scores)), "sigma": float(es.sigma),
                            "mean_win_share": float(np.mean([j[1] for j in judged])),
                            "mean_length_ratio": float(np.mean([j[2] for j in judged])),
                            "games": per * len(xs),
                            "games_per_s": per * len(xs) / (time.perf_counter() - g0)})
            _save(args, es, gen, history, rules_w, time.perf_counter() - t0)
    if history:  # also after --resume with nothing left to do: the output from the state
        _save(args, es, gen, history, rules_w, time.perf_counter() - t0)
    summary = {"generations": gen, "games": int(sum(h["games"] for h in history)),
               "minutes": round((time.perf_counter() - t0) / 60, 2), "out": str(args.out),
               "weights": dict(zip(GREEDY_KEYS,
                                   (rules_w * np.exp(_favourite(es))).round(4).tolist())),
               "last_generations": history[-5:]}
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
