"""``bwlab combat``: the combat calculator — one attack's damage, from raw stats or two cards.

Stat form: ``bwlab combat --attacks 8 --tier 2 --defense 4 [--defender-health H]``.
Card form: ``bwlab combat ATTACKER DEFENDER [state flags]`` — the star colour (and why) from the
attacker's state. Both print the whole distribution (exactly / at least / at most), take
``--vs SPEC`` (a second profile beside the first), ``--sweep KEY=A..B[:STEP]`` (expected damage
and kill probability per value), ``--samples N`` (Monte Carlo with standard errors), ``--png`` and
``--format text|json|csv``. The calculator lives in ``sim/runner/calculator*.py`` and
``sim/report/calculator_*.py``; this module only reads flags.
Peer form: ``bwlab combat --system arena|dungeon_twister|eight_masters [--stat KEY=VALUE ...]``
— a peer game's attack (issue #9), its stats defaulting to ``[SYSTEM.example]`` of
``cards/peers.toml``; with ``--samples`` each estimate carries its standard error and the exact
value beside it, as Board Wars' do (``calculator_eval.peer_standard_errors``).
Pandas is not imported here: this command must start fast.
"""

from __future__ import annotations

from pathlib import Path

import click

from sim.catalogue.peers import SYSTEMS as PEER_SYSTEMS
from sim.cli._json import json_text
from sim.cli._paths import OUT_FILE, cards_option, outputs_clear

# Bounded by time: 3e7-1e8 resolutions/s on two cores (measured), so 1e11 is 20-60 minutes.
MAX_SAMPLES = 10**11
# The peer games' samplers hold every draw in memory (9 bytes each): 1e8 is ~0.9 GB.
MAX_PEER_SAMPLES = 10**8


def _advantage(advantage: bool, disadvantage: bool, who: str) -> int:
    if advantage and disadvantage:
        raise click.UsageError(f"give at most one of --{who}advantage and --{who}disadvantage")
    return 1 if advantage else -1 if disadvantage else 0


@click.command()
@click.argument("cards", nargs=-1, metavar="[ATTACKER DEFENDER]")
@click.option("--attacks", type=click.IntRange(0, 50), help="Attacks thrown (stat form).")
@click.option("--tier", type=click.IntRange(1, None), help="Dice tier 1-4 of the damage die.")
@click.option("--defense", type=click.IntRange(0, None), help="Defender's defense (0-9).")
@click.option("--advantage", is_flag=True, help="Attacker rolls its damage dice twice, keeps the better.")
@click.option("--disadvantage", is_flag=True, help="Attacker rolls twice, the worse is kept.")
@click.option("--defender-advantage", is_flag=True, help="Defender rolls defense twice, keeps the better.")
@click.option("--defender-disadvantage", is_flag=True, help="Defender rolls twice, the worse is kept.")
@click.option("--exact", is_flag=True, help="Exact distribution (the default).")
@click.option("--samples", type=click.IntRange(1, None),
              help=f"Monte Carlo with N resolutions per profile, with standard errors (streamed; "
                   f"at most {MAX_SAMPLES:.0e} in all; peer systems at most {MAX_PEER_SAMPLES:.0e}).")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True,
              help="Root seed of the Monte Carlo streams (the first profile rolls it; the others their own streams derived from it).")
@click.option("--attacker-health", type=click.IntRange(1, None), help="Attacker's current health.")
@click.option("--defender-health", type=click.IntRange(1, None),
              help="Defender's current health: the kill threshold (stat form default: the median "
                   "card's max health).")
@click.option("--attacker-homefield", is_flag=True, help="Attacker stands in a tile of its suit.")
@click.option("--defender-homefield", is_flag=True, help="Defender stands in a tile of its suit.")
@click.option("--attacker-debuffed", is_flag=True, help="Attacker is de-buffed (blue).")
@click.option("--attacker-boosted", is_flag=True, help="Attacker is under a positive effect (green).")
@click.option("--vs", "vs_spec", metavar="SPEC",
              help="A second profile beside the first: KEY=VALUE,... (stat form: attacks, tier, "
                   "defense, health, advantage, defender_advantage), or a card form's other "
                   "ATTACKER[,DEFENDER] and/or state keys (attacker_health, health, defense, ...).")
@click.option("--sweep", "sweep_spec", metavar="KEY=A..B[:STEP]",
              help="Expected damage and kill probability per value of one key (stat form: "
                   "attacks, tier, defense, health; card form: attacker_health, health, defense); "
                   "or KEY=V1,V2,...")
@click.option("--png", type=OUT_FILE, help="Write a chart: pmf bars and at-least curve, or the "
                                            "sweep's curves.")
@click.option("--format", "fmt", type=click.Choice(["text", "table", "json", "csv"]),
              default="text", show_default=True,
              help="text (table is the same): for reading; json or csv: for scripts, on stdout only.")
@cards_option(dest="cards_dir", old_spelling=True)
@click.option("--system", type=click.Choice(PEER_SYSTEMS), default="boardwars", show_default=True,
              help="Combat system: Board Wars or a peer game (cards/peers.toml).")
@click.option("--stat", "peer_stats", multiple=True, metavar="KEY=VALUE",
              help="A peer system's stat (list: 3,2), over [SYSTEM.example]; repeatable.")
def combat(cards, attacks, tier, defense, advantage, disadvantage, defender_advantage,
           defender_disadvantage, exact, samples, seed, attacker_health, defender_health,
           attacker_homefield, defender_homefield, attacker_debuffed, attacker_boosted, vs_spec,
           sweep_spec, png, fmt, cards_dir, system, peer_stats):
    """Damage of an attack: the whole distribution (exactly / at least / at most), exact or
    Monte Carlo, for stats or a card-against-card matchup; compared (--vs) or swept (--sweep)."""
    from sim.catalogue.loader import load_catalogue

    att_adv = _advantage(advantage, disadvantage, "")
    def_adv = _advantage(defender_advantage, defender_disadvantage, "defender-")
    if exact and samples:
        raise click.UsageError("--exact and --samples exclude each other")
    if not samples and click.get_current_context().get_parameter_source("seed") is \
            click.core.ParameterSource.COMMANDLINE:  # was ignored in silence (audit, stop 78)
        raise click.UsageError("--seed seeds the Monte Carlo of --samples; the exact form rolls "
                               "no dice")
    if system != "boardwars":
        board_wars_only = (cards, attacks, tier, defense, att_adv, def_adv, attacker_health,
                           defender_health, attacker_homefield, defender_homefield,
                           attacker_debuffed, attacker_boosted, vs_spec, sweep_spec, png)
        if any(v not in (None, (), 0, False) for v in board_wars_only):
            raise click.UsageError(f"--system {system} takes --stat KEY=VALUE, not Board Wars "
                                   "cards, stat options, --vs, --sweep or --png")
        _check_samples(samples, system)
        _peer_form(system, peer_stats, samples, seed, fmt, cards_dir)
        return
    if peer_stats:
        raise click.UsageError("--stat belongs to the peer systems (--system NAME)")
    _check_samples(samples, system)
    catalogue = load_catalogue(cards_dir)
    base = _base_profile(catalogue, cards, attacks, tier, defense, att_adv, def_adv,
                         attacker_health, defender_health, attacker_homefield,
                         defender_homefield, attacker_debuffed, attacker_boosted)
    _calculate(catalogue, base, vs_spec, sweep_spec, samples, seed, png, fmt)


def _base_profile(catalogue, cards, attacks, tier, defense, att_adv, def_adv, attacker_health,
                  defender_health, attacker_homefield, defender_homefield, attacker_debuffed,
                  attacker_boosted):
    """The first profile, from two card names or from --attacks/--tier/--defense."""
    from sim.runner.calculator import card_profile, stat_profile

    rules = catalogue.rules
    if cards:
        if len(cards) != 2:
            raise click.UsageError("the card form takes exactly two names: ATTACKER DEFENDER")
        if attacks is not None or tier is not None or defense is not None:
            raise click.UsageError("--attacks/--tier/--defense belong to the stat form, not with cards")
        return card_profile(catalogue, *cards, attacker_health=attacker_health,
                            health=defender_health, attacker_debuffed=attacker_debuffed,
                            attacker_boosted=attacker_boosted,
                            attacker_homefield=attacker_homefield,
                            defender_homefield=defender_homefield, advantage=att_adv,
                            defender_advantage=def_adv)
    missing = [n for n, v in (("--attacks", attacks), ("--tier", tier), ("--defense", defense))
               if v is None]
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)} (or give ATTACKER DEFENDER)")
    card_only = [n for n, v in (("--attacker-health", attacker_health),
                                ("--attacker-homefield", attacker_homefield),
                                ("--defender-homefield", defender_homefield),
                                ("--attacker-debuffed", attacker_debuffed),
                                ("--attacker-boosted", attacker_boosted)) if v]
    if card_only:
        raise click.UsageError(f"{', '.join(card_only)} belong to the card form (ATTACKER DEFENDER)")
    if tier > rules.n_tiers:
        raise click.BadParameter(f"{tier} is not a dice tier (1..{rules.n_tiers})", param_hint="--tier")
    if defense > rules.max_defense:
        raise click.BadParameter(f"{defense} is above the maximum defense {rules.max_defense}",
                                 param_hint="--defense")
    return stat_profile(rules, catalogue, attacks, tier, defense, defender_health, att_adv, def_adv)


def _calculate(catalogue, base, vs_spec, sweep_spec, samples, seed, png, fmt) -> None:
    """Every spec checked first (exit 2, nothing written), then the numbers, then the output."""
    from sim.runner.calculator import parse_sweep, vs_profile
    from sim.runner.calculator_eval import calculate, resolutions

    profiles = [base] + ([vs_profile(base, vs_spec, catalogue)] if vs_spec is not None else [])
    form = "stat" if base.attacker is None else "card"
    sweep = parse_sweep(sweep_spec, form) if sweep_spec is not None else None
    if sweep is not None:
        from sim.runner.calculator import sweep_profile

        for p in profiles:  # every swept profile must exist (a health above a card's max...)
            for value in sweep[1]:
                sweep_profile(p, sweep[0], value, catalogue)
    outputs_clear({"--png": png})  # before the work: not a card file it just read
    total = resolutions(len(profiles), len(sweep[1]) if sweep else 0, samples)
    if total > MAX_SAMPLES:
        _too_many(f"{total:.3g} resolutions in all (--samples x profiles x sweep values) is "
                  f"above the maximum {MAX_SAMPLES:.0e}")
    from contextlib import nullcontext

    from sim.runner.progress import advance, stage

    with stage("sampling attacks", total, unit="attacks") if total else nullcontext():
        result = calculate(profiles, catalogue, sweep, samples, seed,
                           advance if total else None)
    if png is not None:
        _write_png(result, png)
    _emit(result, fmt, png)


def _write_png(result: dict, png) -> None:
    """The chart, as a progress stage of three steps (loading the plotting library, laying
    the figure out, writing it). Why: ``--png`` took 4-5 s against 0.44 s without it, with
    nothing on stderr (the audit of the progress gaps). Untimed: the steps differ too much in
    length for a rate or a time left."""
    from sim.runner.progress import advance, stage

    with stage("drawing the figure", 3, unit="steps", timed=False):
        from sim.report.calculator_plots import write_png

        advance()
        write_png(result, png, on_step=advance)


def _emit(result: dict, fmt: str, png) -> None:
    from sim.report.calculator_text import render_csv, render_text

    single = len(result["profiles"]) == 1 and "sweep" not in result
    if fmt == "json":
        click.echo(json_text(result["profiles"][0] if single else result,
                             "combat" if single else "combat-profiles", indent=2,
                             ensure_ascii=False))
    elif fmt == "csv":
        click.echo(render_csv(result), nl=False)
    else:
        click.echo(render_text(result))
    if png is not None:
        click.echo(f"Written: {png}", err=fmt in ("json", "csv"))


def _too_many(message: str) -> None:
    from sim.catalogue.diagnostics import InputError, Problem

    raise InputError([Problem("--samples", None, "samples", message)])


def _check_samples(samples: int | None, system: str) -> None:
    """Refuse a sample count that cannot finish (or fit), saying the maximum and why."""
    limit, why = ((MAX_SAMPLES, "streamed in fixed memory, but at 3e7-1e8 resolutions/s "
                                "more would take hours")
                  if system == "boardwars" else
                  (MAX_PEER_SAMPLES, "the peer samplers hold every draw in memory"))
    if samples is not None and samples > limit:
        _too_many(f"{samples} is above the maximum {limit:.0e} ({why})")


def _no_guessed_stats(items) -> None:
    """``--stat`` refused where it would be guessed at: a key given twice (the last one won
    silently) or an empty value between commas (dropped: ``attackers=3,,2`` was ``3,2``), as
    ``--vs`` and ``--sweep`` refuse them."""
    seen = set()
    for item in items:
        key, _, raw = item.partition("=")
        key = key.strip()
        if key in seen:
            raise click.BadParameter(f"{key}: given twice", param_hint="--stat")
        seen.add(key)
        if "," in raw and any(not x.strip() for x in raw.split(",")):
            raise click.BadParameter(f"{key}: an empty value between commas in {raw!r}",
                                     param_hint="--stat")


def _peer_form(system, items, samples, seed, fmt, cards_dir):
    """A peer game's attack (issue #9): stats from ``[SYSTEM.example]``, then ``--stat``."""
    from sim.catalogue.loader import default_cards_dir
    from sim.catalogue.peers import load_peers
    from sim.combat.peers.registry import describe, format_table, parse_stat_overrides, stats_for

    _no_guessed_stats(items)
    peers = load_peers(Path(cards_dir) if cards_dir else default_cards_dir())
    try:
        stats = stats_for(system, peers.examples[system], parse_stat_overrides(system, items),
                          peers, None)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--stat") from None
    rules = getattr(peers, system)
    if samples:  # in blocks, each counted into the progress line (registry.sample_blocks)
        from sim.runner.progress import advance, stage

        with stage("sampling attacks", samples, unit="attacks"):
            result = describe(system, stats, rules, samples, seed, advance)
    else:
        result = describe(system, stats, rules, samples, seed)
    mc = result["method"] == "monte_carlo"
    if mc:
        from sim.combat.peers.registry import SYSTEMS

        from sim.runner.calculator_eval import peer_standard_errors

        result = peer_standard_errors(result, SYSTEMS[system].exact(stats, rules))
    if fmt == "csv":
        from sim.runner.calculator_eval import tables

        t = result["table"] if mc else tables(result["pmf"])
        keys = ("exactly", "at_least", "at_most") + (
            ("exactly_se", "at_least_se", "at_most_se") if mc else ())
        click.echo(",".join(("damage",) + keys))
        for d in range(len(t["exactly"])):
            click.echo(",".join([str(d)] + [f"{t[k][d]:.12g}" for k in keys]))
        return
    if fmt == "json":
        click.echo(json_text(result, "combat-peer", indent=2))
    else:
        from sim.report.calculator_text import peer_monte_carlo_text

        click.echo(peer_monte_carlo_text(result) if mc else format_table(result))
