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
from pathlib import Path

import click

from ._json import json_text
from ._paths import IN_FILE, OUT_FILE, cards_option
from ._policy import POLICY_HELP, budget_option


def _problem(path, field, message):
    from sim.catalogue.diagnostics import InputError, Problem

    return InputError([Problem(str(path), None, field, message)])


def _load_baseline(path: Path) -> dict:
    from sim.runner.drift_baseline import validate_baseline

    if not path.is_file():
        raise _problem(path, "--baseline", "not found; create it with --update")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise _problem(path, "--baseline", "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _problem(f"{path}:{exc.lineno}", "--baseline",
                       f"not a baseline written by --update ({exc.msg})") from None
    validate_baseline(data, path)
    return data


def _report(result, spec) -> None:
    click.echo(result.provenance)
    lower, upper = result.metrics[0].test.bounds if result.metrics else (0.0, 0.0)
    click.echo(f"{'metric':<34}{'before (95 %)':>22}{'now (95 %)':>22}{'change, Elo':>22}"
               f"{'LLR up/down':>14}{'games':>7}  decision")
    for m in result.metrics:
        t = m.test

        def rate(p, iv):
            return f"{100 * p:5.1f} ({100 * iv[0]:4.1f}–{100 * iv[1]:4.1f})"

        click.echo(f"{m.name[:33]:<34}{rate(t.before, t.before_interval):>22}"
                   f"{rate(t.after, t.after_interval):>22}"
                   f"{t.elo_change:+6.0f} ({t.elo_interval[0]:+.0f}…{t.elo_interval[1]:+.0f})"
                   .rjust(22) + f"{t.llr_up:+7.1f}/{t.llr_down:+.1f}".rjust(14)
                   + f"{t.games:7d}  {t.decision}")
    for line in result.combat:
        click.echo(f"combat table changed: {line}")
    click.echo(f"Paired GSPRT per metric: delta {spec.delta_elo:g} Elo, alpha {spec.alpha:g} "
               f"over the suite (Bonferroni: {result.alpha_per_metric:.4g} per metric, two-sided), "
               f"beta {spec.beta:g}, LLR bounds [{lower:.2f}, {upper:.2f}], "
               f"{spec.min_games}–{spec.max_games} games per matchup, clustered by board; "
               f"each Elo interval moved for where the gate stopped (median-unbiased).")


def _balance_lines(balance) -> list[str]:
    """Each matchup's balance metrics: now, the baseline's, and the paired change."""
    from ._balance_text import balance_text, change_lines

    out = []
    for b in balance:
        out += ["", f"Balance metrics of {b['matchup']} ({b['games']:,} games; {b['note']}):"]
        if b["before_source"] == "new baseline":
            out += ["  " + x for x in balance_text(b["now"], "balance")]
            continue
        out += ["  now: " + x for x in balance_text(b["now"], "balance")]
        if b["before"] is None:
            out.append(f"  baseline: {b.get('before_missing', 'not recorded in the baseline')}")
            continue
        source = {"recorded": "the baseline's recorded games",
                  "replayed": "the baseline's cards replayed on the same seeds"}
        out += ["  baseline: " + x for x in balance_text(b["before"], "balance")]
        out.append(f"  change (paired on the same seeds, 95 % intervals clustered by board; "
                   f"before = {source.get(b['before_source'], b['before_source'])}):")
        out += change_lines(b["change"], set(), "    ")
        bal0, bal1 = b["before"]["balance"], b["now"]["balance"]
        out.append(f"      {'balance (Ludii)':<41}{bal0['balance']:.3f} → {bal1['balance']:.3f}")
    return out


def _finite(x: float):
    """A number JSON can carry: an infinite LLR (an exact replay: every difference 0) is
    null."""
    import math

    return x if math.isfinite(x) else None


def gate_document(result, spec, conclusion: str) -> dict:
    """The gate's result as one JSON document (``--format json``): everything the text shows."""
    lower, upper = result.metrics[0].test.bounds if result.metrics else (0.0, 0.0)
    metrics = [{"metric": m.name, "decision": m.decision, "games": m.test.games,
                "boards": m.test.clusters, "before": m.test.before,
                "before_interval": list(m.test.before_interval), "now": m.test.after,
                "now_interval": list(m.test.after_interval), "elo_change": m.test.elo_change,
                "elo_interval": list(m.test.elo_interval), "llr_up": _finite(m.test.llr_up),
                "llr_down": _finite(m.test.llr_down)} for m in result.metrics]
    return {"conclusion": conclusion, "exit_code": result.exit_code,
            "provenance": result.provenance, "metrics": metrics,
            "combat_changes": list(result.combat), "alpha_per_metric": result.alpha_per_metric,
            "llr_bounds": [lower, upper], "delta_elo": spec.delta_elo,
            "changed_files": list(result.changed_files), "engine_changed": result.engine_changed,
            "balance": list(result.balance)}


def _conclusion(result, capped_by_flag: bool = False) -> str:
    moved = [m.name for m in result.metrics if m.decision in ("drift_up", "drift_down")]
    open_ = [m.name for m in result.metrics if m.decision == "inconclusive"]
    if result.exit_code == 0:
        return "No drift: no win rate moved by the gate's delta (exit 0)."
    if result.exit_code == 1:
        what = [f"win rates moved: {', '.join(moved)}"] if moved else []
        what += [f"{len(result.combat)} combat table(s) changed"] if result.combat else []
        return ("Drift: " + "; ".join(what) + ". If intended, run `bwlab drift --update` and "
                "say what moved in the commit (exit 1).")
    raise_cap = "Raise --games" if capped_by_flag else "Raise max_games in the suite"
    return (f"Inconclusive at the game cap: {', '.join(open_)} (exit 3). {raise_cap} or run "
            f"`bwlab drift --update` if the change is intended.")


@click.command()
@click.option("--baseline", type=IN_FILE,
              default=Path("reports/baseline.json"), show_default=True,
              help="The baseline to compare with (written by --update).")
@click.option("--suite", type=IN_FILE,
              default=Path("experiments/drift.toml"), show_default=True,
              help="The fixed suite: bounds and matchups.")
@click.option("--games", type=click.IntRange(8, 1_000_000), default=None,
              help="Game cap per matchup (default: the suite's max_games).")
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
    """Replay the suite paired with the baseline and test every win rate (paired GSPRT)."""
    from sim.catalogue.diagnostics import InputError

    try:
        code = _drift(baseline, suite, games, update, junit, policy, budget, cards, fmt, quiet)
    except (InputError, click.exceptions.Exit, click.ClickException):
        raise
    except Exception as exc:  # a crash must never read as "drift" (exit 1)
        raise _problem("bwlab drift", "internal error", f"{type(exc).__name__}: {exc}") from None
    raise click.exceptions.Exit(code)


def _drift(baseline, suite, games, update, junit, policy, budget, cards, fmt, quiet) -> int:
    from dataclasses import replace

    from sim.atomic import write_text
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.fields import POLICY_IDS
    from sim.report.drift_junit import junit_xml
    from sim.runner.drift import check_baseline_matches, load_suite, run_gate

    from ._engine import ready_to_play
    from ._paths import check_output_file, distinct_paths

    for path, flag in ((junit, "--junit"), (baseline if update else None, "--baseline")):
        if path is not None:
            check_output_file(path, flag)  # before the games, not after them
    # the baseline is read (and with --update written); the report must not overwrite it
    distinct_paths({"--baseline": baseline if update else None, "--junit": junit},
                   {"--baseline": None if update else baseline, "--suite": suite})
    catalogue = load_catalogue(cards)
    spec = load_suite(suite, catalogue.cards, tuple(POLICY_IDS))
    if games is not None:
        if games % 4:
            raise click.BadParameter("must be a multiple of 4 (duplicate blocks)",
                                     param_hint="--games")
        if games < spec.min_games:  # the suite's floor cannot stand above the cap: say so
            click.echo(f"note: --games {games} is below the suite's min_games {spec.min_games} "
                       f"({suite}): a decision may come after {games} games, fewer than the "
                       f"suite allows", err=True)
        spec = replace(spec, max_games=games, min_games=min(spec.min_games, games),
                       experiments=tuple(replace(e, games=games) for e in spec.experiments))
    if policy is not None or budget is not None:
        from ._policy import override

        spec = replace(spec, experiments=tuple(override(e, policy, budget)
                                               for e in spec.experiments))
    players = {e.name: list(e.policies) for e in spec.experiments}
    base = None if update else _load_baseline(baseline)
    if base is not None:  # its matchups against the suite's, before the compile and any game
        check_baseline_matches(catalogue, spec, base, baseline)
    # every input is read: neither output is one of them (a card file as --update's baseline)
    ready_to_play({"--baseline": baseline if update else None, "--junit": junit}, catalogue.root)
    if update:
        return _update(catalogue, spec, players, baseline, fmt)
    result = run_gate(catalogue, spec, base, baseline)  # progress: sim.runner.progress
    if junit is not None:
        write_text(junit, junit_xml(result))
    if fmt == "json":
        conclusion = _conclusion(result, games is not None)
        click.echo(json_text(gate_document(result, spec, conclusion), indent=2,
                             ensure_ascii=False))
        return result.exit_code
    _report(result, spec)
    for line in _balance_lines(result.balance):
        click.echo(line)
    click.echo(_conclusion(result, games is not None))
    return result.exit_code


def _update(catalogue, spec, players, baseline, fmt) -> int:
    """--update: play the suite and write the baseline (atomically); exit 0."""
    from sim.atomic import write_text
    from sim.runner.drift import make_baseline

    data, balance = make_baseline(catalogue, spec, players)
    write_text(baseline, json.dumps(data, indent=1, sort_keys=True, allow_nan=False) + "\n")
    said = (f"baseline written: {baseline} ({len(data['metrics'])} win rates, "
            f"{len(data['combat'])} combat table entries, {len(data['card_files'])} card "
            f"files; format {data['format']}: each game's winner, ending, length and lead "
            f"changes)")
    if fmt == "json":
        click.echo(json_text({"conclusion": said, "exit_code": 0, "baseline": str(baseline),
                               "format": data["format"], "metrics": data["metrics"],
                               "balance": balance}, indent=2, ensure_ascii=False))
        return 0
    for line in _balance_lines(balance):
        click.echo(line)
    click.echo(said)
    return 0
