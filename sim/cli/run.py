"""``bwlab run EXPERIMENT.toml``: play an experiment at scale and store every game."""

from __future__ import annotations

from pathlib import Path

import click

from sim.runner.progress import stage

from ._paths import IN_FILE, OUT_FOLDER, cards_option, check_output_folder
from ._policy import POLICY_HELP, budget_option
from ._say import note


@click.command()
@click.argument("experiment", type=IN_FILE)
@click.option("--games", type=int, default=None, help="Override the number of games.")
@click.option("--jobs", type=click.IntRange(1, None), default=None,
              help="Worker processes (default: all cores; capped at them unless --force-jobs); "
                   "with --backend dask, batches in flight (default: twice the cluster's threads).")
@click.option("--force-jobs", is_flag=True,
              help="Allow --jobs above the cores (at most 4 per core).")
@click.option("--out", type=OUT_FOLDER, default=None,
              help="Result folder (default: reports/runs/NAME).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="loky: processes on this machine (--jobs); dask: a cluster (--scheduler).")
@click.option("--scheduler", default=None,
              help="Dask scheduler address, tls://HOST:PORT (with --backend dask; docs/security.md).")
@click.option("--tls-ca-file", type=Path, default=None,
              help="The cluster's CA certificate (PEM) for a tls:// scheduler "
                   "(default: Dask's distributed.comm.tls.ca-file).")
@click.option("--tls-cert", type=Path, default=None,
              help="This client's certificate (PEM), signed by that CA "
                   "(default: distributed.comm.tls.client.cert).")
@click.option("--tls-key", type=Path, default=None,
              help="This client's private key (PEM), unless it is in --tls-cert "
                   "(default: distributed.comm.tls.client.key).")
@cards_option()
@click.option("--no-progress", is_flag=True, hidden=True, help="The same as --quiet.")
@click.option("--policy", default=None, help=POLICY_HELP + " Replaces the experiment's policies.")
@budget_option
def run(experiment, games, jobs, force_jobs, out, resume, backend, scheduler, tls_ca_file,
        tls_cert, tls_key, cards, no_progress, policy, budget):
    """Play EXPERIMENT's games in parallel; one Parquet file per batch plus a manifest.

    Everything is checked before anything is written: the experiment and the cards, the output
    folder (another run's results there are refused, never mixed in), --jobs and the scheduler
    with its TLS files. A plain tcp:// scheduler off this machine is warned about: anyone who
    reaches its port can run any Python on every worker (docs/security.md).
    """
    from sim.catalogue.loader import default_cards_dir
    from sim.runner.limits import cap_jobs
    from sim.runner.tasks import load_context

    if backend == "dask" and not scheduler:
        raise click.UsageError("--backend dask needs --scheduler ADDRESS (see README: dask scheduler)")
    if backend != "dask" and (scheduler or tls_ca_file or tls_cert or tls_key):
        raise click.UsageError("--scheduler and --tls-* go with --backend dask")
    cards_root = cards or default_cards_dir()
    exp = load_context(experiment, games, cards_root)
    policies = None
    if policy is not None or budget is not None:  # checked before any batch is played
        from ._policy import override

        exp = override(exp, policy, budget)
        policies = exp.policies
    out = out or check_output_folder(Path("reports") / "runs" / exp.name, "--out")
    jobs, notice = cap_jobs(jobs, force_jobs) if backend == "loky" else (jobs, None)
    if notice:
        note(notice)
    client = _client(scheduler, tls_ca_file, tls_cert, tls_key) if backend == "dask" else None
    try:
        _outputs_clear(out, cards_root)
        _play(exp, experiment, games, cards_root, out, resume, jobs, client, no_progress,
              policies)
    finally:
        if client is not None:
            client.close()


def _outputs_clear(out: Path, cards_root: Path) -> None:
    """Refuse a result folder whose files would replace an input (the experiment saved as
    ``OUT/manifest.json``, its team file as ``OUT/cards.csv``), or that is the card folder (a
    ``cards.csv`` there changes the cards every later run reads), before anything is written
    or any batch played."""
    import os

    from sim.catalogue.diagnostics import InputError, Problem
    from sim.runner.store import MANIFEST

    from ._engine import inputs_inside
    from ._paths import not_the_card_folder, outputs_clear

    not_the_card_folder(out, cards_root, "the run's files (cards.csv, batches) would join its "
                                         "cards")
    # cards.csv is written last: a folder or a device there failed only after every game
    table = [out / "cards.csv"] if os.path.lexists(out / "cards.csv") else []
    outputs_clear([("--out", path) for path in sorted(
        {*table, *inputs_inside(out, (MANIFEST, "cards.csv", "batch-*.parquet"))})])
    if any(out.glob("batch-*.parquet")):
        return  # a run's folder: the store checks its batches and rebuilds a lost manifest
    # a run writes its table last and (since 2026-12) its manifest after a batch: with no
    # batch, a table or a manifest no run wrote is someone's (a web app's manifest.json was
    # replaced by the run's, exit 0)
    manifest = os.path.lexists(out / MANIFEST)
    foreign = manifest and _someones_manifest(out / MANIFEST)
    someones = [(MANIFEST, "not a run's manifest")] if foreign else []
    if table and (foreign or not manifest):
        someones.append(("cards.csv", "no run's manifest.json" if foreign else "no manifest.json"))
    if someones:
        raise InputError([Problem(str(out / name), None, "--out", f"a {name} that no run wrote "
                                  f"here ({why}, no batches) would be replaced: move it or name "
                                  "another folder") for name, why in someones])


def _someones_manifest(path: Path) -> bool:
    """Whether ``path`` is a regular file that is not a run's manifest (a JSON object naming its
    ``experiment``, as every version wrote it; an older one wrote it before any batch). A pipe
    or a folder there is the store's to refuse (it names it)."""
    import json

    if not path.is_file():
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return True
    return not (isinstance(data, dict) and "experiment" in data)


def _client(scheduler, ca_file, cert, key):
    """A Dask client on ``scheduler``: TLS files checked, a plain remote address warned about."""
    from sim.runner.parallel import connect
    from sim.runner.security import client_security, plain_warning

    security = client_security(scheduler, ca_file, cert, key)
    warning = plain_warning(scheduler)
    if warning:
        note(warning)
    return connect(scheduler, security=security)


def _play(exp, experiment, games, cards_root, out, resume, jobs, client, no_progress, policies):
    """Open the store (refusing a clash, locking the folder), play and summarise, release."""
    from sim.runner.store import RunStore

    from ._engine import ready_to_play

    store = RunStore.open(out, exp, cards_root, resume)  # the folder's batches: checked
    try:
        ready_to_play()  # every input is checked: now the compile (if need be) and the games
        _play_into(store, exp, experiment, games, cards_root, out, jobs, client, no_progress,
                   policies, resume)
    finally:
        store.close()


def _play_into(store, exp, experiment, games, cards_root, out, jobs, client, no_progress,
               policies, resume=False):
    """Play the missing batches into ``store`` and summarise the run. Ctrl-C or SIGTERM while
    the batches are played stops the workers and keeps the stored batches, with one line naming
    them and --resume, and exit 130 or 143 (:mod:`sim.cli.terminate`), so CI can tell a cancel
    from a Ctrl-C."""
    from concurrent.futures import BrokenExecutor

    from sim.catalogue.loader import load_catalogue
    from sim.runner.parallel import run_experiment
    from sim.runner.summary import RunTotals, summarise

    from .terminate import exit_status, terminated_as_interrupt, worker_died

    note(*(f"note: {out / name} was damaged (truncated or failing its checksum); playing it "
           "again" for name in store.removed))
    already = len(store.done())
    if resume and not already:  # a mistyped --out would otherwise restart a run silently
        note(f"note: --resume: no batch of this run in {out}; starting it")
    totals = RunTotals()  # each batch counted as it is stored: the summary reads back the rest
    try:
        with terminated_as_interrupt("run"):
            played = run_experiment(exp, experiment, games, cards_root, store, jobs=jobs,
                                    client=client, progress=not no_progress, policies=policies,
                                    totals=totals)
            # a stage of its own: reading the batches back and scipy's load for the balance
            # metrics took 1.3-2.3 s after the games with no stage open (the progress audit of
            # 2026-12-07); a stop in it is a stop of the run too: it printed "aborted" beside a
            # manifest of the last periodic save (1 of 40 batches; stop 78's repro audit)
            with stage("summing up the stored batches"):
                summary = summarise(store, load_catalogue(cards_root).cards.names, totals)
                store.finish(summary)
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (terminate.Terminated)
        store.checkpoint()  # the manifest lists what the folder holds
        note(f"interrupted: {len(store.done())} of {exp.n_batches} batches stored in {out}; run "
             f"again with --resume to finish")  # below the line drawn in place, no empty line
        raise click.exceptions.Exit(exit_status(stop)) from None
    except BrokenExecutor as exc:  # a worker killed (OOM, kill): the batches stored are kept
        store.checkpoint()
        note(f"error: run: {worker_died(exc)}; {len(store.done())} of {exp.n_batches} batches "
             f"stored in {out}; run again with --resume to finish")
        raise click.exceptions.Exit(1) from None
    click.echo(f"{exp.name}: {summary['games']} games in {exp.n_batches} batches "
               f"({already} already stored, {played} played now) -> {out}")
    from sim.analysis.balance import KIND_WORDS

    # the teams by name when the experiment names them (fairness and play do); endings in the
    # words of the balance lines below ("simultaneous elimination" above "same-step elimination
    # decided by health" read as two endings)
    names = tuple(getattr(exp, "team_names", ()) or ())
    for k, rate in enumerate(summary["team_win_rate"]):
        named = f" {names[k]}" if k < len(names) and names[k] else ""
        click.echo(f"  team {k + 1}{named}: win rate {rate:.3f}")
    no_winner = no_winner_note(summary)
    if no_winner:
        click.echo(no_winner)
    click.echo("  outcomes (games): " + ", ".join(f"{KIND_WORDS.get(k, k)} {v}"
                                                  for k, v in summary["outcomes"].items()))
    _echo_apocalypses(summary["apocalypses"], cards_root)
    _echo_balance(summary["balance"])


def no_winner_note(summary: dict) -> str:
    """Why the win rates above differ from `bwlab fairness`'s and `bwlab drift`'s on the very
    same games, said when they do: a run counts a game without a winner for no team (wins /
    games, Fishtest's W/L/D), fairness and drift give each team 1/4 of it (rates that sum to
    1). The example matchup's 1,024 games printed Ink & Iron 0.166 here and 16.7 % there."""
    drawn = (summary.get("balance") or {}).get("drawishness") or {}
    n = int(drawn.get("games", 0))
    if not n:
        return ""
    return (f"  (win rate = games won / games: the {n:,} game{'s' if n != 1 else ''} with no "
            f"winner count{'' if n != 1 else 's'} for no team; `bwlab fairness` and `bwlab "
            f"drift` give each team 1/4 of such a game, so their rates of these games are "
            f"higher by {0.25 * n / summary['games']:.4f} each)")


def _echo_balance(b: dict) -> None:
    """The balance metrics designers know (sim.analysis.balance), from the stored games."""
    if not b:
        return
    pct = "{:.1f} % ({:.1f}–{:.1f})".format

    def share(x):
        return pct(100 * x["share"], 100 * x["low"], 100 * x["high"])

    click.echo(f"  balance (1 - largest gap between the teams' win shares): "
               f"{b['balance_by_share']:.3f}; seat 1's share of wins (AdvantageP1): "
               f"{100 * b['advantage_p1']:.1f} %, seat spread {100 * b['seat_spread']:.1f} points")
    from sim.analysis.balance import KIND_WORDS

    # "no winner" beside the length, not among the endings: a game no team won ended one of
    # those ways too, and the list summed past 100 % (stop 78's newcomer audit), as fairness's
    click.echo("  how games are decided: " + "; ".join(
        f"{KIND_WORDS.get(k, k)} {share(x)}" for k, x in b["outcomes"].items()))
    d = b["duration_rotations"]
    click.echo(f"  game length: median {d['median']:g} rotations (middle half {d['q1']:g}–"
               f"{d['q3']:g}, longest {d['max']:g}); no winner (drawishness) "
               f"{share(b['drawishness'])}")
    if "elimination" in b:
        click.echo("  first out: " + ", ".join(
            f"team {k + 1} {100 * e['first_out']['share']:.0f} %"
            for k, e in enumerate(b["elimination"])))
    lead = b.get("lead_changes")
    if lead:
        click.echo(f"  lead changes: mean {lead['mean']:.2f} per game, at least one in "
                   f"{share(lead['any'])}")
    click.echo("  (shares with 95 % intervals clustered by board)")


def _echo_apocalypses(per_apocalypse: dict, cards_root) -> None:
    """Per Apocalypse: how often the players resolved it and how its games ended."""
    from sim.catalogue.apocalypses import load_apocalypses

    from sim.analysis.balance import KIND_WORDS

    names = load_apocalypses(cards_root).names
    for a, entry in per_apocalypse.items():
        games = entry["games"]
        ends = ", ".join(f"{KIND_WORDS.get(k, k)} {100 * v / games:.0f} %"
                         for k, v in sorted(entry["outcomes"].items()))
        click.echo(f"  {names[int(a)]}: {games} games, resolved in {entry['resolved']} "
                   f"({100 * entry['resolved'] / games:.0f} %); {ends}")
