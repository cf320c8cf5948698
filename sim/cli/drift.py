"""``bwlab drift --baseline reports/baseline.json``: the CI gate on win-rate drift.

Exit 0: no drift; 1: drift (or the exact combat tables changed); 3: inconclusive at the game cap;
2: any bad input (flags, suite, a corrupted baseline, an unwritable --junit path) or an internal
error, never 1, so a CI script can tell "the lab says drift" from "the gate could not run".
``--update`` plays the suite to its cap and rewrites the baseline instead. Beside the test, each
matchup's balance metrics now and in the baseline, with their paired change: informational, never
part of the exit code (:mod:`sim.runner.drift_balance`). ``--format json``: one document on stdout.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import click

from ._json import json_text
from ._paths import IN_FILE, OUT_FILE, cards_option
from ._policy import POLICY_HELP, budget_option
from ._say import note
from .drift_baseline_file import _load_baseline, _problem  # (report and validate read it here)

# the shipped suite: drift's default --suite, and the one report and validate check a baseline by
SUITE = Path("experiments/drift.toml")


def check_for_gate(catalogue, spec, base: dict, path: Path, command: str = "drift") -> None:
    """The baseline ``base`` (read from ``path`` by :func:`_load_baseline`) against the suite
    ``spec``, as the gate checks it before any game: every matchup there, from the same file,
    teams and players, with at least the suite's floor of games (check_baseline_matches).

    Why one function: drift, report and validate each read a baseline, and validate once read
    the file alone, saying "ok" of a 512-game baseline the gate then refused (audit 78).
    ``command``: the one running; any other than drift has no --games, so the advice to gate on
    fewer games knowingly names `bwlab drift --games N` (audit 77: report advised its own
    --games, an option it has not)."""
    import re
    from dataclasses import replace

    from sim.catalogue.diagnostics import InputError
    from sim.runner.drift import check_baseline_matches

    try:
        check_baseline_matches(catalogue, spec, base, path)
    except InputError as exc:
        if command == "drift":
            raise
        advice = (r"knowingly with `bwlab drift --games \1` "
                  f"(bwlab {command} has no --games)")
        raise InputError([replace(p, message=re.sub(r"knowingly with --games (\d+)", advice,
                                                    p.message)) for p in exc.problems]) from None


def _rate(p: float, interval) -> str:
    """A win rate in percent with its interval: "28.5 (25.4–31.6)"."""
    return f"{100 * p:5.1f} ({100 * interval[0]:4.1f}–{100 * interval[1]:4.1f})"


def _report(result, spec) -> None:
    click.echo(result.provenance)
    lower, upper = result.metrics[0].test.bounds if result.metrics else (0.0, 0.0)
    click.echo(f"{'metric':<34}{'before (95 %)':>22}{'now (95 %)':>22}{'change, Elo':>22}"
               f"{'LLR up/down':>14}{'games':>7}  decision")
    for m in result.metrics:
        t = m.test

        # each column keeps a space before it when its text outgrows the width: an LLR of
        # -4100.3 once ran into the interval, "-1 (-3…+1)-4100.3/-2738.2" (audit 77)
        click.echo(f"{m.name[:33]:<34}" + _column(_rate(t.before, t.before_interval), 22)
                   + _column(_rate(t.after, t.after_interval), 22)
                   + _column(f"{t.elo_change:+6.0f} ({t.elo_interval[0]:+.0f}…"
                             f"{t.elo_interval[1]:+.0f})", 22)
                   + _column(f"{t.llr_up:+7.1f}/{t.llr_down:+.1f}", 14)
                   + _column(f"{t.games:d}", 7) + f"  {t.decision}")
    for line in result.combat:
        click.echo(f"combat table changed: {line}")
    click.echo(f"{rule_words(spec, result)}, LLR bounds [{lower:.2f}, {upper:.2f}], clustered "
               f"by board; {games_text(result.limits)}; {INTERVAL_WORDS}")


def rule_words(spec, result) -> str:
    """The test a verdict rests on: its delta and error rates (drift's line, the report's
    drift section)."""
    return (f"Paired GSPRT per metric: delta {spec.delta_elo:g} Elo, alpha {spec.alpha:g} over "
            f"the suite (Bonferroni: {result.alpha_per_metric:.4g} per metric, two-sided), beta "
            f"{spec.beta:g}")


def _column(text: str, width: int) -> str:
    """``text`` right-aligned in ``width``, always after at least one space."""
    return " " + text.rjust(width - 1)


# what the change's interval is, by the metric's call (sim/runner/drift_interval.py)
INTERVAL_WORDS = ("each Elo interval is 95 % given the gate's call: for a metric called drift, "
                  "over the runs that call it drift (selective, sim/analysis/called_interval.py); "
                  "for the others, over the runs that do not call it (sim/analysis/"
                  "quiet_interval.py); one no game moved for, where the engine or the cards "
                  "changed, is bounded over the boards (none seen is not none: "
                  "sim/analysis/paired.py unmoved_elo_interval).")


def interval_given(decision: str) -> str:
    """What a metric's Elo interval holds its truth over (the JSON's ``elo_interval_given``)."""
    from sim.runner.drift_interval import is_called

    return ("the drift call (runs calling this metric drift)" if is_called(decision) else
            "no call (runs not calling this metric drift)")


def games_text(limits) -> str:
    """The games each matchup used and the bounds that applied: its floor, and its cap with
    what set it (the footer). Why not the suite's numbers: a short baseline or --games lowers
    both, and the footer once printed "1024–4096" over a gate that had decided on 512."""
    why = {"max_games": "the suite's max_games", "--games": "--games"}
    parts = []
    for x in limits:
        cap = why.get(x["capped_by"], f"all the baseline holds; {x['asked']:,} asked")
        parts.append(f"{x['games']:,} games used of at most {x['cap']:,} ({cap}), no decision "
                     f"before {x['floor']:,}")
    if len(set(parts)) == 1:
        return parts[0] + " per matchup"
    return "; ".join(f"{x['matchup']}: {text}" for x, text in zip(limits, parts))


def _finite(x: float):
    """A number JSON can carry: an infinite LLR (an exact replay: every difference 0) is
    null."""
    return x if math.isfinite(x) else None


def gate_document(result, spec, conclusion: str) -> dict:
    """The gate's result as one JSON document (``--format json``): everything the text shows."""
    lower, upper = result.metrics[0].test.bounds if result.metrics else (0.0, 0.0)
    metrics = [{"metric": m.name, "decision": m.decision, "games": m.test.games,
                "boards": m.test.clusters, "before": m.test.before,
                "before_interval": list(m.test.before_interval), "now": m.test.after,
                "now_interval": list(m.test.after_interval), "elo_change": m.test.elo_change,
                "elo_interval": list(m.test.elo_interval),
                "elo_interval_given": interval_given(m.decision), "llr_up": _finite(m.test.llr_up),
                "llr_down": _finite(m.test.llr_down)} for m in result.metrics]
    return {"conclusion": conclusion, "exit_code": result.exit_code,
            "provenance": result.provenance, "metrics": metrics,
            "combat_changes": list(result.combat), "alpha_per_metric": result.alpha_per_metric,
            "llr_bounds": [lower, upper], "delta_elo": spec.delta_elo,
            "changed_files": list(result.changed_files), "text_only": result.text_only,
            "engine_changed": result.engine_changed,
            "games": list(result.limits), "balance": list(result.balance),
            "unreplayed": [{"matchup": name, "games_differ": differ, "games": games}
                           for name, differ, games in result.unreplayed]}


def _conclusion(result) -> str:
    """The verdict in one paragraph, with the advice that fits what limited the games
    (:mod:`sim.runner.drift_limits`): raising the suite's cap cannot help when the baseline
    holds fewer games, since each game is paired with the baseline's."""
    moved = [_moved(m) for m in result.metrics if m.decision in ("drift_up", "drift_down")]
    open_ = [m.name for m in result.metrics if m.decision == "inconclusive"]
    short = [x for x in result.limits if x["capped_by"] == "baseline"]
    note = ""
    if short:
        note = (" The baseline holds fewer games than asked (" + ", ".join(
            f"{x['matchup']}: {x['baseline_games']:,} of {x['asked']:,}" for x in short)
            + "): the gate could play no more; a longer `bwlab drift --update` on the "
              "known-good cards restores the full gate.")
    from ._balance_text import moved_endings_sentence  # scipy: not at import

    endings = moved_endings_sentence(result.balance)
    if result.exit_code == 0:
        return "No drift: no win rate moved by the gate's delta (exit 0)." + endings + note
    if result.exit_code == 1:
        what = [f"win rates moved: {', '.join(moved)}"] if moved else []
        what += [f"{len(result.combat)} combat table(s) changed"] if result.combat else []
        # a metric the cap left open is no pass: said beside the drift, not hidden by exit 1
        still = (f" Not decided at the game cap (neither moved nor shown still): "
                 f"{', '.join(open_)}." if open_ else "")
        return ("Drift: " + "; ".join(what) + "." + still + " If intended, run `bwlab drift "
                "--update` and say what moved in the commit (exit 1)." + endings + note)
    return (f"Inconclusive at the game cap: {', '.join(open_)} (exit 3).{_unmoved(result)} "
            f"{_raise_cap(result)} Or run `bwlab drift --update` if the change is intended."
            + endings)


def _unmoved(result) -> str:
    """Why a team none of whose games moved is still open (sim.runner.drift_interval.
    unmoved_decision): "the same games" reads as a pass, and the gate's exit 3 beside it puzzled."""
    still = [m.name for m in result.metrics if m.decision == "inconclusive"
             and m.test.after == m.test.before and m.test.llr_up == m.test.llr_down == -math.inf]
    if not still:
        return ""
    return (f" No game of {', '.join(still)} moved, but so few games bound a change only to the "
            f"interval shown, wider than the suite's delta.")


def _moved(m) -> str:
    """A drifted metric with how far it moved: "example: Pixel Party 42.6 % -> 26.3 % (-127
    Elo)" (the table holds the intervals); the conclusion once named the metric alone."""
    t = m.test
    return (f"{m.name} {100 * t.before:.1f} % → {100 * t.after:.1f} % "
            f"({t.elo_change:+.0f} Elo)")


def _raise_cap(result) -> str:
    """What would let an inconclusive gate play on, for the limit that stopped it: the suite's
    max_games, --games, or the baseline's own length (each game is paired with the
    baseline's, so no cap above it can help)."""
    by = {x["capped_by"] for x in result.limits}
    held = min(x["baseline_games"] for x in result.limits)
    short = [x for x in result.limits if x["baseline_games"] <= x["cap"]]
    if "baseline" in by or (by == {"--games"} and short):
        lengths = ", ".join(f"{x['baseline_games']:,} games of {x['matchup']}" for x in short)
        return (f"The cap was the baseline's own length ({lengths}): to play on, rewrite the "
                f"baseline with a longer `bwlab drift --update` on the known-good cards "
                f"(before this change).")
    if by == {"--games"}:
        return f"Raise --games (the baseline holds {held:,} games per matchup)."
    if held > max(x["cap"] for x in result.limits):
        return f"Raise max_games in the suite (the baseline holds {held:,} games per matchup)."
    return (f"Raise max_games in the suite and rewrite the baseline to that length on the "
            f"known-good cards (the gate plays at most the baseline's {held:,} games).")


@click.command()
@click.option("--baseline", type=IN_FILE,
              default=Path("reports/baseline.json"), show_default=True,
              help="The baseline to compare with (written by --update).")
@click.option("--suite", type=IN_FILE,
              default=SUITE, show_default=True,
              help="The fixed suite: bounds and matchups.")
@click.option("--games", type=click.IntRange(8, 1_000_000), default=None,
              help="Game cap per matchup, a multiple of 4 (default: the suite's max_games); "
                   "below the suite's min_games it lowers that floor too.")
@click.option("--update", is_flag=True, help="Rewrite the baseline from the current cards/rules.")
@click.option("--junit", type=OUT_FILE, default=None,
              help="Write JUnit XML here for CI systems.")
@click.option("--policy", default=None, help=POLICY_HELP + " Replaces every matchup's policies "
                                                           "(the baseline must be made with it).")
@budget_option
@cards_option("The card folder (default: $BWLAB_CARDS, else ./cards).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: for reading; json: one document on stdout.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line on stderr.")
def drift(baseline, suite, games, update, junit, policy, budget, cards, fmt, quiet):
    """Replay the suite paired with the baseline and test every win rate (paired GSPRT).

    Exit code: 0 no drift, 1 drift (a win rate moved, or an exact combat table changed),
    3 inconclusive at the game cap, 2 bad input or internal error (never 1), so a CI job can
    gate on it (docs/drift.md).
    """
    from sim.catalogue.diagnostics import InputError, Problem

    try:
        code = _drift(baseline, suite, games, update, junit, policy, budget, cards, fmt, quiet)
    except InputError as exc:  # a kept workspace's old JUnit must not pass for this run's
        from ._paths import deferred

        said = exc.problems + deferred(click.get_current_context(silent=True))
        if (junit is not None and Path(junit).is_file()
                and not any(p.field == "--junit" for p in said)):
            raise InputError(exc.problems + [Problem(str(junit), None, "--junit", _NOT_REWRITTEN)])
        raise
    except (click.exceptions.Exit, click.ClickException, BrokenPipeError):
        raise  # a closed stdout is no crash (sim.cli.terminate.stdout_closed)
    except Exception as exc:  # a crash must never read as "drift" (exit 1)
        raise _problem("bwlab drift", "internal error", f"{type(exc).__name__}: {exc}") from None
    raise click.exceptions.Exit(code)


# The line under a refused gate's problems when --junit names an existing file: nothing is
# written on bad input, so the file is an earlier run's (audit 82: a CI runner keeping its
# workspace published its "5 passed" beside a red job)
_NOT_REWRITTEN = ("not rewritten: the gate stopped on bad input before any game, so this file "
                  "holds an earlier run's results; do not publish it for this run")


def _drift(baseline, suite, games, update, junit, policy, budget, cards, fmt, quiet) -> int:
    from dataclasses import replace

    from sim.atomic import write_text
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.fields import POLICY_IDS
    from sim.report.drift_junit import junit_xml
    from sim.runner.drift import load_suite, run_gate
    from sim.runner.drift_limits import notes

    from ._engine import ready_to_play
    from ._paths import check_output_file, distinct_paths

    if update and junit is not None:  # once dropped without a word: a CI job then read a
        # missing file, or the red one an earlier gate had left there (audit 77)
        raise _problem(junit, "--junit", "only the gate writes JUnit; --update writes a "
                                         "baseline and no test result: drop --junit, or gate "
                                         "without --update")
    for path, flag in ((junit, "--junit"), (baseline if update else None, "--baseline")):
        if path is not None:
            check_output_file(path, flag)  # before the games, not after them
    # the baseline is read (and with --update written); the report must not overwrite it
    distinct_paths({"--baseline": baseline if update else None, "--junit": junit},
                   {"--baseline": None if update else baseline, "--suite": suite})
    catalogue = load_catalogue(cards)
    spec = load_suite(suite, catalogue.cards, tuple(POLICY_IDS))
    if games is not None:
        spec = _games_cap(spec, games, update)
    if policy is not None or budget is not None:
        from ._policy import override

        spec = replace(spec, experiments=tuple(override(e, policy, budget)
                                               for e in spec.experiments))
    players = {e.name: list(e.policies) for e in spec.experiments}
    base = None if update else _load_baseline(baseline)
    if base is not None:  # its matchups against the suite's, before the compile and any game
        check_for_gate(catalogue, spec, base, baseline)
    # every input is read: neither output is one of them (a card file as --update's baseline)
    ready_to_play({"--baseline": baseline if update else None, "--junit": junit}, catalogue.root)
    if update:
        return _update(catalogue, spec, players, baseline, fmt)
    note(*notes(spec, base))  # a baseline shorter than the cap: said before the games
    result = run_gate(catalogue, spec, base, baseline)  # progress: sim.runner.progress
    if junit is not None:
        write_text(junit, junit_xml(result))
    if fmt == "json":
        conclusion = _conclusion(result)
        click.echo(json_text(gate_document(result, spec, conclusion), "drift", indent=2,
                             ensure_ascii=False))
        return result.exit_code
    _report(result, spec)
    from ._balance_text import drift_balance_lines  # scipy: not at import

    for line in drift_balance_lines(result.balance):
        click.echo(line)
    click.echo(_conclusion(result))
    return result.exit_code


def _games_cap(spec, games: int, update: bool):
    """The suite with ``--games`` as its cap (and as its floor when below it: said on stderr,
    since the suite's min_games is its guard against deciding on a few games)."""
    from dataclasses import replace

    if games % 4:
        raise click.BadParameter("must be a multiple of 4 (duplicate blocks)",
                                 param_hint="--games")
    if games < spec.min_games:  # the suite's floor cannot stand above the cap: say so
        note(f"note: --games {games} is below the suite's min_games {spec.min_games} "
             f"({spec.path}): " + (
                 f"the baseline will hold {games} games, and the gate refuses it unless "
                 f"given --games {games} or less" if update else
                 f"a decision may come after {games} games, fewer than the suite allows"))
    return replace(spec, max_games=games, min_games=min(spec.min_games, games),
                   capped_by_flag=True,
                   experiments=tuple(replace(e, games=games) for e in spec.experiments))


def _update(catalogue, spec, players, baseline, fmt) -> int:
    """--update: play the suite and write the baseline (atomically); exit 0. Its win rates are
    printed (JSON: ``metrics``, each with its interval), so the commit can say what moved."""
    from sim.atomic import write_text
    from sim.runner.drift import make_baseline

    data, balance, rates = make_baseline(catalogue, spec, players)
    write_text(baseline, json.dumps(data, indent=1, sort_keys=True, allow_nan=False) + "\n")
    said = (f"baseline written: {baseline} ({len(data['metrics'])} win rates, "
            f"{len(data['combat'])} combat table entries, {len(data['card_files'])} card "
            f"files; format {data['format']}: each game's winner, ending, length and lead "
            f"changes)")
    if fmt == "json":
        click.echo(json_text({"conclusion": said, "exit_code": 0, "baseline": str(baseline),
                               "format": data["format"], "metrics": rates,
                               "balance": balance}, "drift-update", indent=2,
                             ensure_ascii=False))
        return 0
    from ._balance_text import drift_balance_lines  # scipy: not at import

    for line in drift_balance_lines(balance):
        click.echo(line)
    click.echo("")
    for line in rate_lines(rates):
        click.echo(line)
    click.echo(said)
    return 0


def rate_lines(rates: dict) -> list[str]:
    """The new baseline's win rates, one line per metric, with the interval the gate prints
    beside "before" and "now"."""
    out = [f"{'win rates in the new baseline':<34}{'rate (95 %)':>22}{'games':>7}  boards"]
    for name, r in rates.items():
        lo, hi = r["interval"]
        out.append(f"{name[:33]:<34}{_rate(r['rate'], (lo, hi)):>22}{r['games']:7d}  "
                   f"{r['boards']}")
    return out
