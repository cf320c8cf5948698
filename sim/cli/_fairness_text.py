"""``bwlab fairness`` as text: the table, the pairwise differences, the balance metrics and the
suggestion — everything but the closing one-sentence conclusion, which the command prints last."""

from __future__ import annotations

import math

import click

from ._numbers import counted


def echo_report(data: dict, report) -> None:
    """The check's statistics: teams, pairs told apart, seats, balance and how games went."""
    from sim.analysis.balance import balance_lines
    from sim.analysis.fairness import OPEN

    v = report.verdict
    click.echo(f"{v.design} ({counted(report.rounds, 'round')} of duplicate play, policy "
               f"{data['policy']}, "
               f"seed {data['seed']}, cards {data['settings']['cards']}) in "
               f"{report.seconds:.1f} s")
    from sim.analysis.fairness import percent

    fair = 1 / len(data["teams"])
    edges = (fair - data["tolerance"], fair + data["tolerance"])  # the fair band's
    click.echo(f"{'team':<28}{'win %':>7}{'interval':>17}{'health left':>13}{'var. ratio':>12}")
    for t in data["teams"]:
        click.echo(f"{t['team']} {t['name'][:25]:<26}{100 * t['win_probability']:7.1f}"
                   f"{percent(t['low'], edges):>8} – {percent(t['high'], edges):<6}"
                   f"{t['expected_surviving_health']:11.1f}"
                   f"{_ratio(t['variance_ratio_vs_unpaired']):>12}")
    click.echo(f"differences between teams (win % points, simultaneous "
               f"{100 * data['pairwise_level']:.2f} % intervals: 95 % for all six pairs and "
               f"every look):")
    for p in data["pairwise"]:
        mark = "told apart" if p["told_apart"] else "not told apart"
        click.echo(f"  team {p['team_a']} - team {p['team_b']}: {100 * p['difference']:+6.1f} "
                   f"({100 * p['low']:+.1f} to {100 * p['high']:+.1f}) {mark}")
    click.echo(f"ranking: {data['ranking']}")
    b = data["balance"]
    click.echo(f"balance (1 - largest gap between two teams' win rates): {b['balance']:.3f} "
               f"({b['low']:.3f}–{b['high']:.3f}, simultaneous)")
    click.echo("seat effect (an average team's win % by turn order): "
               + ", ".join(f"seat {x['seat']} {100 * x['win_probability']:.1f} "
                           f"({100 * x['low']:.1f}–{100 * x['high']:.1f})" for x in data["seats"])
               + f"; p = {data['seat_effect_pvalue']:.3g} for no seat effect; seat 1's "
                 f"advantage (AdvantageP1) {100 * data['advantage_p1']:.1f} %")
    names = [t["name"] for t in data["teams"]]
    for line in balance_lines(report.balance, names, seat_rates=True):
        click.echo(line)
    click.echo(f"(team intervals at {100 * v.level:.2f} %: 95 % overall after correcting for "
               f"4 teams and repeated looks; shares at 95 %; all clustered by board, t on "
               f"{report.boards - 1} df: the {report.boards} boards are the independent draws; "
               f"var. ratio < 1 = duplicate play saved games; a game with no winner counts "
               f"1/4 for each team and seat, as in `bwlab drift`'s team rates (`bwlab run`'s "
               f"win rates and seat 1 share count it for none); health left = the team's mean "
               f"health at the game's end, 0 for a team out{_no_ratio_note(data)})")
    if v.status == OPEN:  # why it is open and what settles it; a settled verdict is said once,
        click.echo(v.text)  # by the conclusion printed last (the audit of stop 59: said twice)


def _ratio(ratio: float) -> str:
    """The variance ratio, or "–" where it has no value (it printed "nan")."""
    return f"{ratio:.2f}" if math.isfinite(ratio) else "–"


def _no_ratio_note(data: dict) -> str:
    """Why a ratio is "–", said only when one is: a team that never won (or won every game)
    has no unpaired variance to divide by."""
    if all(math.isfinite(t["variance_ratio_vs_unpaired"]) for t in data["teams"]):
        return ""
    return ("; – = no ratio: the team never won (or won every game), so unpaired play has no "
            "variance to compare with")


def echo_suggestion(s: dict, data: dict) -> None:
    """Swaps judged by play: the confirmed one with its measured win rates, or the best tried;
    nothing when the teams were fair (no search: the closing line says no swap is needed)."""
    if not s["needed"]:
        return
    click.echo(f"\nSuggested swaps: {counted(s['proposals'], 'proposal')} from the surrogate "
               f"(card ratings from {s['rating_games']:,} games), judged by duplicate play in its "
               f"order: {s['proposals_played']} played, {counted(s['games'], 'game')} of at most "
               f"{s['game_budget']:,}.")
    shown = s["confirmed"] or s["best"]
    if shown is None:
        return
    worse = not s["confirmed"] and best_closer_than_given(s) is False
    head = ("Confirmed fair in play" if s["confirmed"] else
            "No proposal confirmed, and none closer to fair than the teams as given; best "
            "measured, NOT advised" if worse else "No proposal confirmed; best measured")
    click.echo(f"{head} ({shown['design']}):")
    moved = [c for sw in shown["swaps"] for c in (sw["card_a"], sw["card_b"])]
    if len(moved) != len(set(moved)):  # a cycle over three teams: a card moves twice
        click.echo("  (in this order: a card moves twice, each swap naming the team it is in "
                   "at that step)")
    for sw in shown["swaps"]:
        click.echo(f"  swap {sw['card_a']} (team {sw['team_a']}) <-> {sw['card_b']} "
                   f"(team {sw['team_b']})")
    level = shown.get("interval_level")
    after = f"after interval{f' ({100 * level:.2f} %)' if level else ''}"
    click.echo(f"{'team':<8}{'before %':>10}{'after %':>10}{after:>27}   cards after")
    for k, t in enumerate(shown["teams"]):
        click.echo(f"{k + 1:<8}{100 * data['teams'][k]['win_probability']:10.1f}"
                   f"{100 * t['win_probability']:10.1f}{100 * t['low']:10.1f} –"
                   f"{100 * t['high']:5.1f}   {', '.join(t['cards'])}")
    click.echo(f"after: {shown['text']}")


def other_teams_words(tb: dict) -> str:
    """"They agree" said of an over budget and an unfair set whose teams differ. Why: the budget
    put Straw Hats over it while play favoured Pixel Party (at the budget), and "they agree" read
    as the budget having found the problem (the GM audit of stop 77)."""
    c = tb["called_teams"]
    play = "; ".join(f"{', '.join(c[w])} {w}" for w in ("favoured", "disadvantaged") if c[w])
    return (f"both say not fair, but not of the same teams: the budget puts "
            f"{', '.join(tb['over_teams'])} over it, play calls {play}")


def best_closer_than_given(s: dict) -> bool | None:
    """Whether the suggestion's best proposal measured closer to fair (a smaller largest gap
    from 25 %) than the teams as given; None without a best or without the teams' gap. False:
    no swap is advised ("NOT advised"), and the JSON says so (``best_closer_than_given``)."""
    best, given = s.get("best"), s.get("gap_as_given")
    if best is None or given is None:
        return None
    return bool(best["largest_gap_from_25"] < given)
