"""``bwlab rulings``: which house rulings matter — each alternative of experiments/rulings.toml
replayed on the same study with the same seeds, ranked by how much it moves the verdicts.

Results only on stdout (text or --format json); progress on stderr. docs/rulings-impact.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from sim.runner.limits import MAX_BOARDS, MAX_GAMES

from ._engine import ready_to_play
from ._numbers import ROOT_SEED
from ._paths import IN_FILE, OUT_FILE, cards_option
from ._policy import POLICY_HELP, budget_option, policy_label

# ._balance_text (scipy, 1.4-2.9 s) is imported where it is used: this module loads before the
# command's progress session, whose line says "loading" only once it has begun


@click.command()
@click.option("--alternatives", "alternatives_file", type=IN_FILE,
              default=Path("experiments/rulings.toml"), show_default=True,
              help="The ruling alternatives and the study ([study]) to replay under each.")
@click.option("--games", type=click.IntRange(8, MAX_GAMES), default=None,
              help="Fairness games per rule set (a multiple of 4; default: [study]).")
@click.option("--boards", type=click.IntRange(2, MAX_BOARDS), default=None,
              help="Boards of the fairness games: the clusters of their intervals.")
@click.option("--rating-games", type=click.IntRange(0, MAX_GAMES), default=None,
              help="Card-rating games per rule set (0: fairness only).")
@click.option("--seed", type=ROOT_SEED, default=None,
              help="Root seed of the fairness games (the same under every rule set).")
@click.option("--policy", default=None, help=POLICY_HELP)
@budget_option
@click.option("--only", "only", multiple=True, metavar="KEY",
              help="Replay only the alternatives of this key (table.key; repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="table: for reading; json: for scripts (stdout only).")
@click.option("--out", type=OUT_FILE, default=None,
              help="Also write the results (JSON) here, e.g. reports/rulings.json; "
                   "`bwlab report --rulings FILE` shows them.")
@cards_option("Card folder holding the book defaults (default: $BWLAB_CARDS, else ./cards).")
def rulings(alternatives_file, games, boards, rating_games, seed, policy, budget, only, fmt, out,
            cards):
    """Which house rulings matter: paired replays of a fixed study under each alternative."""
    from dataclasses import replace

    from sim.atomic import write_text
    from sim.catalogue.loader import default_cards_dir
    from sim.cli._json import json_text
    from sim.runner.rulings import StudyConfig, run_rulings
    from sim.runner.rulings_data import load_rulings

    if games is not None and games % 4:
        raise click.BadParameter("must be a multiple of 4 (duplicate blocks)",
                                 param_hint="--games")
    spec = load_rulings(alternatives_file)
    label = policy_label(policy or spec.study["policy"], budget)  # flag, else [study]
    if only:
        unknown = sorted(set(only) - {a.key for a in spec.alternatives})
        if unknown:
            raise click.BadParameter(f"no alternative of {', '.join(map(repr, unknown))} in "
                                     f"{alternatives_file}", param_hint="--only")
        spec = replace(spec, alternatives=tuple(a for a in spec.alternatives if a.key in only))
    cfg = StudyConfig.from_file(spec, fairness_games=games, fairness_boards=boards,
                                rating_games=rating_games, seed=seed, policy=label)
    root = Path(cards) if cards else default_cards_dir()
    # --out: not the alternatives file, a card file or a study file (all read by then)
    doc = run_rulings(spec, cfg, root, ready=lambda: ready_to_play({"--out": out}, root))
    if out is not None:
        # strict JSON: a score with no value is null, which `report --rulings` reads back as
        # NaN (sim/report/rulings_section.nan_for_null)
        write_text(out, json_text(doc, "rulings", indent=2, ensure_ascii=False) + "\n")
    if fmt == "json":
        click.echo(json_text(doc, "rulings", indent=2, ensure_ascii=False))
        return
    for line in text_lines(doc):
        click.echo(line)


def text_lines(doc: dict) -> list[str]:
    """The results as text: the conclusion first, the ranking, then each alternative."""
    from ._balance_text import balance_text

    st = doc["study"]
    lines = [doc["conclusion"], "",
             f"Study replayed under the book default and each alternative, same seeds: fairness "
             f"of {st['teams']} ({st['fairness_design']}, duplicate play, seed {st['seed']}) and "
             + (f"card ratings from {st['rating_experiment']} ({st['rating_design']})"
                if st["rating_games"] else "no card ratings (--rating-games 0)")
             + f"; policy {st['policy']}; {st['seconds_per_study']} s per rule set.", ""]
    lines += ["The book's games (the balance metrics, every game of the study; 95 % intervals "
              "clustered by board):"] + ["  " + x for x in balance_text(
                  doc["book_balance"], "balance of the four teams in duplicate play", "seat")]
    lines += ["", f"{'#':>2}  {'alternative':<40}{'score':>6}{'p Holm':>8}{'team |z|':>9}"
             f"{'card |z|':>9}  {'largest team effect':<34}verdicts"]
    for r in doc["alternatives"]:
        t = r["largest_team"]
        team = (f"{t['name'][:14]} {100 * t['delta']:+.1f} [{100 * t['low']:+.1f}, "
                f"{100 * t['high']:+.1f}]")
        lines.append(f"{r['rank']:>2}  {r['label'][:39]:<40}{r['score']:6.2f}"
                     f"{_p_holm(r):>8}{r['team_z']:9.1f}{r['card_z']:9.1f}  {team:<34}"
                     f"{len(r['verdicts_changed'])}")
    lines.append("")
    first = doc["alternatives"][0] if doc["alternatives"] else None
    cards = first and first["card_critical_z"]
    crits = (f" (critical |z|: teams {first['team_critical_z']:.2f}"
             + (f", cards {cards:.2f})" if cards else ")") if first else "")
    lines.append("(Δ win rate in points, alternative − default, intervals clustered by board: "
                 "the largest team's and the largest card's at their family's level, "
                 "simultaneous over the teams or the cards, since each was picked as the largest; "
                 "every team's own in the details at 95 %. score = the largest |z| / its "
                 "Bonferroni critical value, teams and cards each at 2.5 % per alternative"
                 + crits + "; above 1 = beyond the noise of the alternative's own test. p Holm "
                 "= its p-value adjusted over the alternatives tested (Holm; the default itself "
                 "and keys the engine does not read are not counted): at most 0.05 = matters, "
                 "a gap to close first)")
    lines += [""] + endings_table(doc)
    for r in doc["alternatives"]:
        lines += detail_lines(r)
    return lines


def _p_holm(r: dict) -> str:
    """The table's "p Holm" cell: "-" for a results file written before it."""
    p = r.get("p_holm")
    return "-" if p is None else f"{p:.3f}" if p >= 0.001 else "<0.001"


def detail_lines(r: dict) -> list[str]:
    """One alternative: the ruling, each team's paired change, the verdicts that change."""
    from sim.analysis.fairness import status_word

    fair = r["fairness"]
    head = (f"{r['rank']}. {r['ruling']}: {r['key']} {json.dumps(r['default'])} → "
            f"{json.dumps(r['alternative'])} (completes: \"{r['completes']}\")")
    out = ["", head]
    if r["identical_games"]:
        out.append("   every game identical to the default's: " + (
            "the value is the default's" if r["default"] == r["alternative"] else
            "the engine's inputs are identical too, so it does not read this key and the "
            "ruling cannot change any result" if r["engine_inputs_equal"] else
            "the engine reads the key (its inputs differ), but the situation it rules never "
            "decided anything in these games"))
        return out
    n_rating = r["ratings"]["games_changed"] if r["ratings"] else 0
    out.append(f"   games changed: {fair['games_changed']:,} fairness, {n_rating:,} rating; "
               f"fairness verdict {status_word(fair['verdict_default'])} → "
               f"{status_word(fair['verdict_alternative'])}")
    for t in fair["teams"]:
        out.append(f"   {t['name'][:24]:<25}{100 * t['default']:6.1f} % → "
                   f"{100 * t['alternative']:5.1f} %  Δ {100 * t['delta']:+5.1f} "
                   f"[{100 * t['low']:+5.1f}, {100 * t['high']:+5.1f}]  "
                   f"{t['verdict_default']} → {t['verdict_alternative']}")
    c = r["largest_card"]
    if c is not None:
        level = f", {100 * c['level']:.2f} % simultaneous over the cards" if "level" in c else ""
        out.append(f"   largest card effect: {c['card']} rating {c['delta']:+.3f} "
                   f"[{c['low']:+.3f}, {c['high']:+.3f}] (|z| {c['z']:.1f}{level})")
    out.append("   verdicts that change: " + ("; ".join(r["verdicts_changed"]) or "none"))
    return out + ending_lines(r)


ENDING_HEADS = {"last team standing": "last", "simultaneous elimination": "same-step",
                "stalemate": "stalemate", "rotation cap": "cap", "no winner": "no winner"}


def endings_table(doc: dict) -> list[str]:
    """How games end under the book and each alternative, one row each; ``*`` marks a share
    that changes against the book (Holm over every alternative and ending)."""
    from ._balance_text import shares

    book = doc["book_balance"]
    n = book["games"]["games"]
    lines = [f"How games end under each rule set (% of the study's {n:,} games; * = changes "
             f"against the book, Holm, 5 % over every alternative and ending):",
             f"{'rule set':<40}" + "".join(f"{h:>10} " for h in ENDING_HEADS.values())
             + f"{'median rot.':>12}{'leads':>7}{'balance':>9}"]
    rows = [("book default", book, [])] + [(r["label"], r["games_balance"],
                                             r.get("endings_changed", []))
                                            for r in doc["alternatives"]]
    for label, b, marked in rows:
        share = shares(b["games"])
        cells = "".join(f"{100 * share[k]:10.1f}{'*' if k in marked else ' '}"
                        for k in ENDING_HEADS)
        lead = b["games"]["lead_changes"]
        lines.append(f"{label[:39]:<40}{cells}{b['games']['duration_rotations']['median']:12g}"
                     f"{(lead['mean'] if lead else float('nan')):7.2f}"
                     f"{b['balance']['balance']:9.3f}")
    return lines


def ending_lines(r: dict) -> list[str]:
    """An alternative's paired changes against the book: each ending's share, length, leads."""
    from sim.runner.rulings_balance import same_step_words

    from ._balance_text import change_lines

    ch = r["ending_change"]
    bal = r["games_balance"]["balance"]
    return (["   how games end (% of games, paired Δ with 95 % interval clustered by board; "
             "* = changes, Holm, its interval given the mark):"]
            + change_lines(ch, set(r.get("endings_changed", [])), "     ",
                           r.get("endings_given_mark"))
            + [f"     {same_step_words(ch)}; balance of the four teams under it "
               f"{bal['balance']:.3f} ({bal['low']:.3f}–{bal['high']:.3f}, simultaneous)"])
