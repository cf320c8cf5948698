"""``bwlab combat``: one attack's damage, from raw stats or from two cards.

Stat form: ``bwlab combat --attacks 8 --tier 2 --defense 4 [--exact | --samples N --seed S]``.
Card form: ``bwlab combat ATTACKER DEFENDER [state flags]`` — picks the star colour from the
attacker's state and prints attacks, tier, expected damage and the kill probability.
Peer form: ``bwlab combat --system arena|dungeon_twister|eight_masters [--stat KEY=VALUE ...]``
— a peer game's attack (issue #9), its stats defaulting to ``[SYSTEM.example]`` of
``cards/peers.toml``.
Pandas is not imported here: this command must start fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import numpy as np

from sim.catalogue.peers import SYSTEMS as PEER_SYSTEMS

# Board Wars samples stream in blocks of STREAM_CHUNKS sampler chunks (4 Mi resolutions, ~25 MB).
STREAM_CHUNKS = 64
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
              help=f"Monte Carlo with N resolutions (streamed; at most {MAX_SAMPLES:.0e}; peer "
                   f"systems at most {MAX_PEER_SAMPLES:.0e}).")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True,
              help="Root seed of the Monte Carlo stream.")
@click.option("--attacker-health", type=click.IntRange(1, None), help="Attacker's current health.")
@click.option("--defender-health", type=click.IntRange(1, None), help="Defender's current health.")
@click.option("--attacker-homefield", is_flag=True, help="Attacker stands in a tile of its suit.")
@click.option("--defender-homefield", is_flag=True, help="Defender stands in a tile of its suit.")
@click.option("--attacker-debuffed", is_flag=True, help="Attacker is de-buffed (blue).")
@click.option("--attacker-boosted", is_flag=True, help="Attacker is under a positive effect (green).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="table: for reading; json (or csv): for scripts, on stdout only.")
@click.option("--cards", "--cards-dir", "cards_dir", type=click.Path(path_type=Path),
              help="Card folder (default ./cards).")
@click.option("--system", type=click.Choice(PEER_SYSTEMS), default="boardwars", show_default=True,
              help="Combat system: Board Wars or a peer game (cards/peers.toml).")
@click.option("--stat", "peer_stats", multiple=True, metavar="KEY=VALUE",
              help="A peer system's stat (list: 3,2), over [SYSTEM.example]; repeatable.")
def combat(cards, attacks, tier, defense, advantage, disadvantage, defender_advantage,
           defender_disadvantage, exact, samples, seed, attacker_health, defender_health,
           attacker_homefield, defender_homefield, attacker_debuffed, attacker_boosted, fmt,
           cards_dir, system, peer_stats):
    """Damage of an attack: exact pmf or Monte Carlo histogram, or a card-against-card matchup."""
    from sim.catalogue.loader import load_catalogue, load_rules_only

    att_adv = _advantage(advantage, disadvantage, "")
    def_adv = _advantage(defender_advantage, defender_disadvantage, "defender-")
    if exact and samples:
        raise click.UsageError("--exact and --samples exclude each other")
    _check_samples(samples, system)
    if system != "boardwars":
        board_wars_only = (cards, attacks, tier, defense, att_adv, def_adv, attacker_health,
                           defender_health, attacker_homefield, defender_homefield,
                           attacker_debuffed, attacker_boosted)
        if any(v not in (None, (), 0, False) for v in board_wars_only):
            raise click.UsageError(f"--system {system} takes --stat KEY=VALUE, not Board Wars "
                                   "cards or stat options")
        _peer_form(system, peer_stats, samples, seed, fmt, cards_dir)
        return
    if peer_stats:
        raise click.UsageError("--stat belongs to the peer systems (--system NAME)")
    if cards:
        if len(cards) != 2:
            raise click.UsageError("the card form takes exactly two names: ATTACKER DEFENDER")
        if attacks is not None or tier is not None or defense is not None:
            raise click.UsageError("--attacks/--tier/--defense belong to the stat form, not with cards")
        catalogue = load_catalogue(cards_dir)
        _card_form(catalogue, cards, att_adv, def_adv, attacker_health, defender_health,
                   attacker_homefield, defender_homefield, attacker_debuffed, attacker_boosted,
                   samples, seed, fmt)
        return
    missing = [n for n, v in (("--attacks", attacks), ("--tier", tier), ("--defense", defense))
               if v is None]
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)} (or give ATTACKER DEFENDER)")
    rules = load_rules_only(cards_dir)
    if tier > rules.n_tiers:
        raise click.BadParameter(f"{tier} is not a dice tier (1..{rules.n_tiers})", param_hint="--tier")
    if defense > rules.max_defense:
        raise click.BadParameter(f"{defense} is above the maximum defense {rules.max_defense}",
                                 param_hint="--defense")
    result = _stat_form(rules, attacks, tier, defense, att_adv, def_adv, samples, seed)
    click.echo(json.dumps(result, indent=2) if fmt == "json" else _stat_table(result))


def _check_samples(samples: int | None, system: str) -> None:
    """Refuse a sample count that cannot finish (or fit), saying the maximum and why."""
    limit, why = ((MAX_SAMPLES, "streamed in fixed memory, but at 3e7-1e8 resolutions/s "
                                "more would take hours")
                  if system == "boardwars" else
                  (MAX_PEER_SAMPLES, "the peer samplers hold every draw in memory"))
    if samples is not None and samples > limit:
        from sim.catalogue.diagnostics import InputError, Problem

        raise InputError([Problem("--samples", None, "samples",
                                  f"{samples} is above the maximum {limit:.0e} ({why})")])


def _stat_form(rules, attacks, tier, defense, att_adv, def_adv, samples, seed) -> dict:
    from sim.combat.exact import damage_distribution

    dist = damage_distribution(attacks, defense, tier, rules, attacker_advantage=att_adv,
                               defender_advantage=def_adv)
    result = {"attacks": attacks, "tier": tier, "defense": defense, "die": dist.die,
              "attacker_advantage": att_adv, "defender_advantage": def_adv,
              "advantage_scope": rules.advantage_scope, "p_hit": dist.p_hit}
    if samples:
        hist, hits = sample_histogram(attacks, defense, tier, rules, seed, samples, att_adv,
                                      def_adv, dist.pmf.size)
        mean, variance = _moments(hist)
        result.update(method="monte_carlo", samples=samples, seed=seed, mean=mean,
                      variance=variance, p_hit=float(hits / max(1, attacks * samples)),
                      histogram=hist.tolist())
    else:
        result.update(method="exact", mean=dist.mean, variance=dist.variance,
                      pmf=dist.pmf.tolist())
    return result


def sample_histogram(attacks, defense, tier, rules, seed, n, att_adv, def_adv, size):
    """:func:`_sample_histogram` as a stage of the progress line (sim.runner.progress)."""
    from sim.runner.progress import stage

    with stage("sampling attacks", n, unit="attacks"):
        return _sample_histogram(attacks, defense, tier, rules, seed, n, att_adv, def_adv, size)


def _sample_histogram(attacks, defense, tier, rules, seed, n, att_adv, def_adv, size):
    """(damage histogram of ``n`` sampled attacks, total hits), in fixed memory.

    Why blocks: ``--samples 10**10`` used to allocate every draw at once (1.8 TiB for 10**12).
    The sampler's chunk ``c`` always rolls from child ``c`` of the seed, so resolving the stream
    block by block (``first_chunk``) rolls the very dice of one call: same seed, same counts,
    whatever the block size.
    """
    from sim.combat.sampler import CHUNK, Samples, sample_damage
    from sim.runner.progress import advance

    block = STREAM_CHUNKS * CHUNK
    hist = np.zeros(size, np.int64)
    hits = 0
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
        hits += int(drawn.hits.sum(dtype=np.int64))
        advance(k)
    return hist, hits


def _moments(hist: np.ndarray) -> tuple[float, float]:
    """Mean and variance of the damage from its histogram (exact integer sums first)."""
    n = int(hist.sum())
    values = np.arange(hist.size)
    total = int((values * hist).sum())
    mean = total / n
    return float(mean), float((hist * (values - mean) ** 2).sum() / n)


def _stat_table(r: dict) -> str:
    lines = [f"{r['attacks']} attacks, dice tier {r['tier']} (D{r['die']}), defense {r['defense']}"
             f" — {r['method'].replace('_', ' ')}"
             + (f", {r['samples']} samples, seed {r['seed']}" if r["method"] == "monte_carlo" else ""),
             f"  p_hit     {r['p_hit']:.4f}", f"  mean      {r['mean']:.4f}",
             f"  variance  {r['variance']:.4f}", f"  std dev   {r['variance'] ** 0.5:.4f}"]
    probs = np.asarray(r["pmf"] if "pmf" in r else np.asarray(r["histogram"]) / r["samples"])
    tail = np.cumsum(probs[::-1])[::-1]
    marks = sorted({int(q) for q in np.linspace(0, probs.size - 1, 11)})
    lines.append("  damage >= " + " ".join(f"{h:>6d}" for h in marks))
    lines.append("  P         " + " ".join(f"{tail[h]:6.3f}" for h in marks))
    return "\n".join(lines)


def _card_form(catalogue, names, att_adv, def_adv, attacker_health, defender_health,
               attacker_homefield, defender_homefield, attacker_debuffed, attacker_boosted,
               samples, seed, fmt):
    from sim.catalogue.diagnostics import InputError, Problem
    from sim.combat.matchup import AttackState, card_matchup

    cards = catalogue.cards
    problems, idx = [], []
    for role, name in zip(("ATTACKER", "DEFENDER"), names):
        try:
            idx.append(cards.find(name))
        except InputError as exc:
            problems += [Problem(p.file, p.line, role, p.message) for p in exc.problems]
    if problems:
        raise InputError(problems)
    a, d = idx
    for flag, value, card in (("--attacker-health", attacker_health, a),
                              ("--defender-health", defender_health, d)):
        if value is not None and value > cards.max_health[card]:
            raise click.BadParameter(f"{value} is above {cards.names[card]}'s max health "
                                     f"{cards.max_health[card]}", param_hint=flag)
    state = AttackState(attacker_health=attacker_health, attacker_debuffed=attacker_debuffed,
                        attacker_boosted=attacker_boosted, attacker_homefield=attacker_homefield,
                        defender_homefield=defender_homefield, attacker_advantage=att_adv,
                        defender_advantage=def_adv, defender_health=defender_health)
    m = card_matchup(catalogue, a, d, state)
    result = {"attacker": m.attacker, "defender": m.defender, "colour": m.colour_name,
              "attacks": m.attacks, "tier": m.tier, "die": m.distribution.die,
              "defense": m.defense, "defender_health": m.defender_health,
              "p_hit": m.distribution.p_hit, "expected_damage": m.distribution.mean,
              "variance": m.distribution.variance, "kill_probability": m.kill_probability}
    if samples:
        hist, _ = sample_histogram(m.attacks, m.defense, m.tier, catalogue.rules, seed, samples,
                                   att_adv, def_adv, m.distribution.pmf.size)
        result.update(samples=samples, seed=seed, sampled_mean=_moments(hist)[0],
                      sampled_kill_probability=float(hist[m.defender_health:].sum() / samples))
    if fmt == "json":
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(f"{m.attacker} attacks {m.defender}\n"
               f"  star colour       {m.colour_name}\n"
               f"  attacks           {m.attacks}\n"
               f"  dice tier         {m.tier} (D{m.distribution.die})\n"
               f"  defense           {m.defense} (hit chance {m.distribution.p_hit:.3f})\n"
               f"  expected damage   {m.distribution.mean:.2f} (sd {m.distribution.variance ** 0.5:.2f})\n"
               f"  kill probability  {m.kill_probability:.4f} against {m.defender_health} health")
    if samples:
        click.echo(f"  sampled           mean {result['sampled_mean']:.2f}, kill "
                   f"{result['sampled_kill_probability']:.4f} ({samples} samples, seed {seed})")


def _peer_form(system, items, samples, seed, fmt, cards_dir):
    """A peer game's attack (issue #9): stats from ``[SYSTEM.example]``, then ``--stat``."""
    from sim.catalogue.loader import default_cards_dir
    from sim.catalogue.peers import load_peers
    from sim.combat.peers.registry import describe, format_table, parse_stat_overrides, stats_for

    peers = load_peers(Path(cards_dir) if cards_dir else default_cards_dir())
    try:
        stats = stats_for(system, peers.examples[system], parse_stat_overrides(system, items),
                          peers, None)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--stat") from None
    result = describe(system, stats, getattr(peers, system), samples, seed)
    click.echo(json.dumps(result, indent=2) if fmt == "json" else format_table(result))
