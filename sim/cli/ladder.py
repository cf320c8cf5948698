"""``bwlab ladder``: the AI players in a seat-rotated round robin — win rates with intervals,
head-to-head scores, Elo ratings, and whether each rung beats the one below
(:mod:`sim.runner.ladder`)."""

from __future__ import annotations


import click
import numpy as np

from sim.runner.limits import MAX_BOARDS, MAX_GAMES

from ._numbers import ROOT_SEED, FiniteFloatRange, counted
from ._json import json_text
from ._paths import cards_option


@click.command()
@click.option("--games", type=click.IntRange(4, MAX_GAMES), default=None,
              help="Games to play, rounded up to whole deals (4 games) in every match "
                   "[default: 960].")
@click.option("--players", default=None,
              help="Comma-separated policy specs, weakest rung first [default: random, greedy, "
                   "lookahead:4, lookahead:32].")
@click.option("--seed", type=ROOT_SEED, default=0, show_default=True,
              help="Root seed: every game's dice and board come from it.")
@click.option("--boards", type=click.IntRange(2, MAX_BOARDS), default=32, show_default=True,
              help="Distinct generated boards, reused in turn (deal d on board d % boards); "
                   "the intervals are clustered by board.")
@click.option("--alpha", type=FiniteFloatRange(0.0, 0.5, min_open=True), default=0.05,
              show_default=True, help="Level of the rung tests (Holm over the rungs).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="table: for reading; json: for scripts (stdout only).")
@cards_option()
def ladder(games, players, seed, boards, alpha, fmt, cards):
    """Which AI is stronger? Every pair of players meets: one team of the higher rung against
    three of the lower, each deal (board, teams, dice) played four times with the single seat
    rotated through all four seats."""
    from sim.catalogue.loader import load_catalogue
    from sim.runner.ladder import DEFAULT_GAMES, DEFAULT_PLAYERS, play_ladder

    from ._engine import ready_to_play
    from ._policy import policy_list

    labels = (policy_list(players, None, "--players", at_least=2) if players is not None
              else list(DEFAULT_PLAYERS))
    catalogue = load_catalogue(cards)
    ready_to_play((), catalogue.root)  # every input checked: now the compile and the games
    r = play_ladder(catalogue, labels, games=games or DEFAULT_GAMES, seed=seed, boards=boards,
                    alpha=alpha)
    data = ladder_doc(r, seed, alpha)
    if fmt == "json":
        click.echo(json_text(data, "ladder", indent=2))
        return
    _echo_table(r, data, seed)


def match_boards(r) -> list[int]:
    """The boards each match was played on (its deals' boards: all the ladder's once it has as
    many deals, sim/runner/ladder.match_deals)."""
    return [int(r.match_boards[k].sum()) for k in range(len(r.matches))]


def best_rung_p(r, alpha: float) -> tuple[list[float], list[bool]]:
    """Per rung the smallest p its sign test can give on the boards of its match (every board
    won: 0.5 ** boards) and whether, with every rung at that best, Holm lets it pass ``alpha``:
    False means no number of games makes it beat the rung below, only more boards."""
    from sim.analysis.multiple import holm

    n = match_boards(r)
    best = [0.5 ** n[r.match(k, k + 1)] for k in range(len(r.players) - 1)]
    adjusted = holm(np.array(best)) if best else np.array([])
    return best, [bool(a < alpha) for a in adjusted]


def ladder_doc(r, seed: int, alpha: float) -> dict:
    """The ladder as data (``--format json``; the table reads it too)."""
    n_boards = match_boards(r)
    best, attainable = best_rung_p(r, alpha)
    return {
        "games": r.games, "deals": r.deals, "boards": r.boards, "design": r.design,
        "seed": seed, "seconds": round(r.seconds, 1),
        "anchor": r.players[r.anchor], "alpha": alpha, "ordered": r.ordered,
        "players": [{"player": p, "elo": float(r.elo[i]), "elo_low": float(r.elo_low[i]),
                     "elo_high": float(r.elo_high[i])} for i, p in enumerate(r.players)],
        "matches": [{"player": r.players[hi], "against": r.players[lo],
                     "games": int(r.played[k]), "wins": int(r.wins[k]),
                     "win_rate": float(r.wins[k] / max(r.played[k], 1)),
                     "low": float(r.win_low[k]), "high": float(r.win_high[k]),
                     "ahead": int(r.ahead[k]), "behind": int(r.behind[k]),
                     "deals_won": int(r.match_deals[k, 0]), "deals_even": int(r.match_deals[k, 1]),
                     "deals_lost": int(r.match_deals[k, 2]),
                     "boards_won": int(r.match_boards[k, 0]),
                     "boards_even": int(r.match_boards[k, 1]),
                     "boards_lost": int(r.match_boards[k, 2]), "boards": n_boards[k],
                     "p": float(r.match_p[k])}
                    for k, (lo, hi) in enumerate(r.matches)],
        "rungs": [{"player": r.players[k + 1], "below": r.players[k],
                   "p": float(r.match_p[r.match(k, k + 1)]), "p_holm": float(r.rung_p_holm[k]),
                   "beats": bool(r.rung_p_holm[k] < alpha), "min_p": best[k],
                   "attainable": attainable[k]} for k in range(len(r.players) - 1)],
        "games_balance": {label: gb.as_dict() for label, gb in (r.balance or {}).items()},
    }


def _echo_table(r, data: dict, seed: int) -> None:
    """The ladder for reading: Elo per player, each match, how its games went, each rung."""
    click.echo(f"{r.design} (each deal × 4 seat rotations, seed {seed}) in {r.seconds:.0f} s")
    click.echo(f"{'player':<16}{'Elo':>7}{'95 % interval':>17}")
    for p in data["players"]:
        click.echo(f"{p['player']:<16}{p['elo']:+7.0f}{p['elo_low']:+10.0f} –"
                   f"{p['elo_high']:+5.0f}")
    click.echo(f"(Plackett–Luce on all finishing orders, {r.players[r.anchor]} = 0; "
               + _interval_words(r) + ")")
    click.echo("matches: one team of the player against three of the other, the single seat "
               "rotated through all four (even: wins 25 %, ahead of each other team 50 %)")
    width = max(len(p) for p in r.players) + 2
    click.echo(f"  {'player':<{width}}{'against 3 ×':<{width}}{'games':>6}{'win %':>7}"
               f"{'95 % interval':>15}{'ahead %':>9}   deals +/=/-   boards +/=/-   one-sided p")
    for m in data["matches"]:
        ahead = 100 * m["ahead"] / max(m["ahead"] + m["behind"], 1)
        click.echo(f"  {m['player']:<{width}}{m['against']:<{width}}{m['games']:6d}"
                   f"{100 * m['win_rate']:7.1f}{100 * m['low']:8.1f} –{100 * m['high']:5.1f}"
                   f"{ahead:9.1f}   {m['deals_won']:>4}/{m['deals_even']}/{m['deals_lost']:<6}"
                   f"{m['boards_won']:>5}/{m['boards_even']}/{m['boards_lost']:<8}{m['p']:.2g}")
    _echo_match_boards(r, data)
    _echo_balance(r.balance or {})
    click.echo("rungs (sign test over the boards of their match, Holm-adjusted):")
    for g in data["rungs"]:
        verdict = "beats" if g["beats"] else "does NOT significantly beat"
        cannot = ("" if g["beats"] or g["attainable"] else
                  f"; it cannot on this match's boards: p = {g['min_p']:.2g} at best")
        click.echo(f"  {g['player']} {verdict} {g['below']} (p = {g['p_holm']:.2g}{cannot})")
    reversed_rungs = _reversed_rungs(r, data)
    if reversed_rungs and not r.ordered:
        click.echo("ladder does NOT hold, and the order looks reversed: " + "; ".join(
            f"{below} beats {player} on the boards of their match" for player, below in
            reversed_rungs) + f" (one-sided sign test at the ladder's alpha, "
            f"{100 * data['alpha']:g} %); --players lists the weakest first")
    else:
        click.echo("ladder " + _ladder_verdict(r, data))


def _reversed_rungs(r, data: dict) -> list[tuple[str, str]]:
    """The rungs whose lower player beats the higher one: the mirror of the rung's own sign test
    (sim/runner/ladder.py), the single seat losing most boards of its match, at the ladder's
    ``--alpha``: ``--players`` given strongest first. Why said: the ladder only said it "does
    NOT hold at this number of games", and more games could not help (the AI-players audit of
    stop 77)."""
    from scipy.stats import binomtest

    out = []
    for k, g in enumerate(data["rungs"], start=1):  # rung k: player k over player k - 1
        won, _, lost = r.match_boards[r.match(k - 1, k)]
        if won + lost and binomtest(int(lost), int(won + lost), 0.5,
                                    alternative="greater").pvalue < data["alpha"]:
            out.append((g["player"], g["below"]))
    return out


def _interval_words(r) -> str:
    """How the Elo intervals were computed: clustered by board, or model-based where the games
    were on one board (the fit falls back, sim/runner/ladder._ratings; the line said "the boards'
    jackknife, t on 0 df" for ``--games 4``: the AI-players audit of stop 77)."""
    from sim.analysis.cluster import MIN_CLUSTERS

    if r.boards < MIN_CLUSTERS:
        return (f"intervals model-based, games taken as independent: all were on {r.boards} "
                f"board, and a board-clustered interval needs {MIN_CLUSTERS}; more --games "
                f"spread the deals over more boards")
    return (f"intervals clustered by board (the boards' jackknife), t on {r.boards - 1} df: the "
            f"{r.boards} boards are the independent draws")


def _ladder_verdict(r, data: dict) -> str:
    """Holds, does not hold at this number of games, or cannot hold on these boards (a rung's
    sign test cannot pass whatever the games: more boards can, more games cannot)."""
    if r.ordered:
        return "holds: every rung beats the one below"
    if all(g["attainable"] for g in data["rungs"]):
        return "does NOT hold at this number of games"
    return ("does NOT hold and cannot on these boards, whatever the number of games: the sign "
            "test over a match's boards cannot pass (Holm-adjusted) on so few; more --boards")


def _echo_match_boards(r, data: dict) -> None:
    """A note when a match played on fewer boards than the ladder has: its deals go round the
    boards in order (sim/runner/ladder.match_deals), so only when it has fewer deals than
    boards; its intervals and rung test count the boards it played."""
    fewest = min(m["boards"] for m in data["matches"])
    if fewest < r.boards:
        deals = counted(r.deals // max(len(data['matches']), 1), "deal")
        click.echo(f"note: each match played on {fewest} of the {r.boards} boards (it has "
                   f"{deals}); its intervals and rung test count those boards")


def _echo_balance(balance: dict) -> None:
    """Per match, how its games ended, how long they lasted, how often the lead changed
    (sim.analysis.balance; shares with 95 % intervals clustered by board)."""
    from sim.analysis.balance import KIND_WORDS

    if not balance:
        return
    click.echo("how each match's games went (endings, median length, lead changes):")
    for label, gb in balance.items():
        ends = "; ".join(f"{KIND_WORDS.get(k, k)} {s.text()}" for k, s in gb.outcomes.items()
                         if s.k)
        lead = f"; the lead changed in {gb.lead['any']['share'] * 100:.0f} %" if gb.lead else ""
        click.echo(f"  {label}: {ends}; median {gb.length['median']:g} rotations{lead}")
