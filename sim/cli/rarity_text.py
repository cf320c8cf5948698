"""``bwlab rarity`` for reading: the table (each rarity's ratings, the rarity order, the
outliers, the balance metrics, the verdicts by player), the ``--card`` answers, the remedies and
the closing one-sentence conclusion, with the words each verdict is put in.

Why apart from :mod:`sim.cli.rarity_output` (the CSV tables and the JSON document, read by
scripts): this is where the study is worded, and it is most of the wording the command has. The
JSON takes its one-sentence conclusion from here (:func:`conclusion_line`), so the text and the
document never say it differently."""

from __future__ import annotations

import click


def order_sentence(s, rarities) -> str:
    """The rarity order's verdict with its level and, unless it holds, the pairs behind it:
    "Bronze < ... < GOAT Series: not settled (median ratings; one-sided tests of the 5 adjacent
    pairs in play, Bonferroni, family-wise 5 %): Diamond < Legendary not settled (...)"."""
    order = " < ".join(rarities)
    word = {"holds": "holds", "does not hold": "DOES NOT HOLD"}.get(s.order_verdict,
                                                                    s.order_verdict)
    if s.order is None:
        return f"{order}: {word} (no standard errors: the order cannot be tested)"
    head = f"{order}: {word} (median ratings; {s.order.level_words()})"
    detail = s.order.detail(list(rarities))
    return head + (f": {detail}" if detail and s.order_verdict != "holds" else "")


VERDICT_WORDS = {"in band": "plays inside its rarity's band (shown)",
                 "undecided": "not shown outside its band nor inside it (undecided)",
                 "strong": "plays STRONGER than its rarity's band (shown)",
                 "weak": "plays WEAKER than its rarity's band (shown)",
                 "not played": "not in play in this study"}


def echo_answers(answers: list[dict], games: int) -> None:
    """The ``--card`` answers for reading, one paragraph per card."""
    for a in answers:
        if a["verdict"] == "not played":
            click.echo(f"{a['card']} ({a['rarity']}): {VERDICT_WORDS['not played']}")
        else:
            settle = (f"; about {a['games_to_settle']:,.0f} games of the study would settle it"
                      if a["games_to_settle"] is not None else "") + _why_open(a)
            click.echo(f"{a['card']} ({a['rarity']}) in play: {VERDICT_WORDS[a['verdict']]}: "
                       f"teams holding it win {100 * a['win_rate']:.1f} % "
                       f"({100 * a['win_low']:.1f}–{100 * a['win_high']:.1f} %, {a['games']} of "
                       f"the {games:,} games), plays like {a['plays_like']}; rating "
                       f"{a['rating']:+.3f} [{a['rating_low']:+.3f}, {a['rating_high']:+.3f}] vs "
                       f"band [{a['band_low']:+.3f}, {a['band_high']:+.3f}]{settle}")
        lo, hi = a["power_band"]
        click.echo(f"  by its stats: power {a['power']:.1f}, "
                   + (f"inside the {a['rarity']} band {lo:g}–{hi:g}" if a["power_in_band"] else
                      f"OUTSIDE the {a['rarity']} band {lo:g}–{hi:g}")
                   + f" ({a['power_curve']})")


def _why_open(a: dict) -> str:
    """Why a card whose own interval lies wholly outside (or inside) its band is still
    undecided: the verdict is tested over every card in play at once (``--correction``), the
    interval is the card's own 95 % (the rarity audit of stop 79: "undecided" beside an
    interval wholly below the band, with no reason given)."""
    if a["verdict"] != "undecided":
        return ""
    outside = a["rating_high"] < a["band_low"] or a["rating_low"] > a["band_high"]
    inside = a["band_low"] <= a["rating_low"] and a["rating_high"] <= a["band_high"]
    if not (outside or inside):
        return ""
    return (f" (its own 95 % interval lies {'outside' if outside else 'inside'} the band, but "
            "the verdict is corrected over every card in play, --correction: not yet shown)")


def echo_table(frame, run, per, exp, catalogue, correction, out, remedy, answers=()) -> None:
    """The table for reading; ``remedy`` = (games, the rows of the cards asked) with --remedy,
    else None; ``answers``: the --card answers (:func:`sim.cli.rarity_output.card_answers`)."""
    from sim.analysis.balance import balance_lines

    s, rules, names = run.s, catalogue.rules, catalogue.cards.names
    click.echo(f"{s.design} of {exp.name} (teams drawn from {len(exp.pool)} cards, "
               f"policies {', '.join(sorted(set(exp.policies)))}, root seed {exp.root_seed}; "
               f"rating intervals clustered by "
               f"board (the boards' jackknife), t on {s.boards - 1} df)")
    for p in per:
        click.echo(f"  {p['rarity']:<12} " + ("no card in play" if p["median_rating"] is None else
                                              f"median rating {p['median_rating']:+.3f} "
                                              f"(range {p['min']:+.3f} .. {p['max']:+.3f})"))
    click.echo(order_sentence(s, rules.rarities))
    echo_outliers(frame, s, correction, run.recur)
    for line in balance_lines(run.balance, [f"seat {k + 1}" for k in range(4)]):
        click.echo(line)
    if remedy is not None:
        remedy_games, asked = remedy
        verdicts = s.verdict
        echo_remedies(run.fixes, remedy_games, [(names[c], verdicts[c]) for c in asked])
    if run.compared is not None:
        from sim.runner.rarity_policies import verdict_lines

        click.echo(f"Verdicts by player (the same {s.games} games' teams, boards and seeds under "
                   f"each; outliers judged against each player's own bands):")
        for line in verdict_lines(run.compared, names, rules.rarities):
            click.echo("  " + line)
        click.echo(f"Per card and player: {out / 'rarity_policies.csv'}")
    click.echo(f"Per card: {out / 'rarity_cards.csv'}")
    echo_answers(answers, s.games)
    click.echo("")
    click.echo(conclusion_line(frame, s, correction, 1 if run.recur is None else run.recur.runs))


def echo_outliers(frame, s, correction: str, recur) -> None:
    """The flagged cards, each led by the win rate of teams holding it and "plays like"; the
    rating (log-strength) and the test come second; with replicates, how often each recurs."""
    flagged = frame[frame["outlier"] != ""]
    replicates = 1 if recur is None else recur.runs
    # the list's reading order only when a list follows: "0 outlier(s): ... second:" ended on a
    # colon with nothing after it
    click.echo(f"{len(flagged)} outlier(s): shown outside their rarity's band (one-sided tests "
               f"against the band's edge, {CORRECTION_WORDS[correction]} over the "
               f"{int((s.held > 0).sum())} cards in play, 5 %)"
               + ("; win rate of teams holding the card first, rating (log-strength) second, "
                  "each with its 95 % interval given the flag (the flag chose it for lying far "
                  "out):" if len(flagged) else "."))
    in_play = int((s.held > 0).sum())
    for row in flagged.itertuples():
        click.echo(f"  {row.card} ({row.rarity}) is {row.outlier}: teams holding it win "
                   f"{100 * row.win_rate:.1f} % ({_win_given_flag(row, in_play)}, {row.games} "
                   f"games), plays like {row.plays_like}; rating "
                   f"{row.rating:+.3f} [{row.rating_low_given_flag:+.3f}, "
                   f"{row.rating_high_given_flag:+.3f}] given the flag vs band "
                   f"[{row.band_low:+.3f}, {row.band_high:+.3f}], adjusted p {row.p_adjusted:.2g}"
                   + (f"; swapping it for {row.reference_card} changes its team's chance to win "
                      f"by {-100 * row.ablation_effect:+.1f} points{_swap_interval(row)} over "
                      f"{row.ablation_games} replayed games" if row.ablation_games else "")
                   + (f"; flagged so in {row.recurrence} of {replicates} independent runs"
                      if recur is not None else ""))
    undecided = frame[frame["verdict"] == "undecided"]
    if len(undecided):
        need = undecided["games_to_settle"]
        click.echo(f"{int((frame['verdict'] == 'in band').sum())} card(s) shown inside their "
                   f"band; {len(undecided)} undecided (neither shown out nor in: their rating "
                   f"lies too near a band edge for {s.games:,} games; the median one would need "
                   f"about {float(need.median()):,.0f} games at its current estimate; column "
                   f"games_to_settle)")
    if recur is not None:
        r = recur.summary()
        flagged = (f"{r['flagged_in_every']} of the {r['flagged_in_any']} cards flagged in any "
                   f"run are flagged the same way in every run ({100 * r['agreement']:.0f} %)"
                   if r["flagged_in_any"] else "no card is flagged in any run")
        click.echo(f"Recurrence over {r['runs']} independent runs (seeds {r['seeds']}): flagged "
                   f"per run {r['flagged_per_run']}; {flagged}; "
                   # the share counts the flags only: "the same verdict" read as in band /
                   # undecided too, which differ between runs (the rarity audit of stop 77)
                   f"{100 * r['cards_same_in_every_run']:.0f} % of the cards get the same flag "
                   f"(strong, weak or none) in every run"
                   + (f"; {r['contradicted']} flag(s) contradicted by another run (flagged the "
                      f"other way or shown inside the band)" if "contradicted" in r else ""))


def _win_given_flag(row, in_play: int) -> str:
    """A flagged card's held win rate's interval given its flag: simultaneous over the cards in
    play (``sim.runner.rarity.held_win_given_flag``), since the flag, chosen on the rating,
    shares the win rate's luck; its own 95 % interval held the truth in 50 % of the flags of
    cards 1.5 standard errors past their band (docs/selection-audit-2.md, finding 3)."""
    return (f"{100 * row.win_low_given_flag:.1f}–{100 * row.win_high_given_flag:.1f} %, "
            f"simultaneous over the {in_play} cards in play")


def _swap_interval(row) -> str:
    """The swap's 95 % interval in the sentence's sign (the swap's change is minus the
    ablation effect, so the bounds trade places); empty when the replay has none."""
    import math

    if not (math.isfinite(row.ablation_low) and math.isfinite(row.ablation_high)):
        return ""
    return (f" ({-100 * row.ablation_high:+.1f} to {-100 * row.ablation_low:+.1f}, 95 %, "
            f"clustered by board)")


def conclusion_line(frame, s, correction: str, replicates: int = 1) -> str:
    """The study's answer in one sentence: does rarity order strength, and which cards stray;
    with ``replicates`` (> 1, column ``recurrence``) how many of the independent runs flagged
    each card: a flag one run in three raised is not the same claim as one every run raised
    (the audit of stop 55)."""
    order = ORDER_WORDS.get(s.order_verdict, s.order_verdict)
    flagged = frame[frame["outlier"] != ""]
    n_open = int((frame["verdict"] == "undecided").sum())
    still = f" {n_open} card(s) are still undecided at this many games." if n_open else ""
    level = (f"median ratings, family-wise {100 * s.order.alpha:g} %" if s.order is not None
             else "median ratings, no standard errors")
    if not len(flagged):
        return (f"The rarity order {order} ({level}), and no card is shown to play "
                f"outside its rarity's band ({s.design}).{still}")
    runs = replicates > 1 and "recurrence" in frame
    cards = "; ".join(f"{r.card} ({r.rarity}, {r.outlier}, plays like {r.plays_like}"
                      + (f", in {r.recurrence} of {replicates} runs" if runs else "") + ")"
                      for r in flagged.itertuples())
    return (f"The rarity order {order} ({level}); {len(flagged)} card(s) play outside "
            f"their rarity's band ({CORRECTION_WORDS[correction]}, {s.design}): {cards}.{still}")


ORDER_WORDS = {"holds": "holds", "does not hold": "does NOT hold",
               "not settled": "is not settled at this many games"}
CORRECTION_WORDS = {"holm": "Holm-corrected", "bh": "Benjamini-Hochberg-corrected",
                    "none": "uncorrected"}


# A card --remedy-card names that is not an outlier, by its verdict: only a card shown inside its
# band needs no remedy; an undecided one is not shown out *or* in (docs/advice.md, "Verdicts that
# hold"), so nothing is claimed about it.
NOT_REMEDIED = {
    "in band": "shown inside its band: no remedy needed",
    "undecided": "not an outlier at this many games, but not shown inside its band either "
                 "(undecided): no remedy searched; run the study with more --games to decide it",
    "not played": "not in play in this study: no remedy searched",
}


# overshoots / short judged on the checks' ratings, while the nearest check's interval still
# reaches into the band: the search did not show it (docs/power-curve.md, "Reading a remedy").
NOT_SHOWN = {
    "short": "short by the ratings only: no allowed change's rating reached the band, but the "
             "nearest's interval (shown) reaches into it, so falling short is not shown (more "
             "--remedy-games, or a longer study with more --games, could tell); nearest shown",
    "overshoots": "overshoots by the ratings only: every change whose rating reaches the band "
                  "jumps past it, but the nearest's interval (shown) reaches into the band, so "
                  "overshooting is not shown (more --remedy-games, or a longer study with more "
                  "--games, could tell); nearest shown",
}


def not_remedied(run, names, asked) -> list[dict]:
    """The cards --remedy-card named that got no remedy, with their verdict and why (the text's
    line for each; ``--format json`` had only an empty ``remedies``: the rarity audit of stop
    77). ``asked``: card indices."""
    done = {f["card"] for f in run.fixes}
    return [{"card": names[c], "verdict": run.s.verdict[c],
             "why": NOT_REMEDIED.get(run.s.verdict[c], NOT_REMEDIED["undecided"])}
            for c in asked if names[c] not in done]


def echo_remedies(fixes: list[dict], budget: int, asked: list[tuple[str, str]]) -> None:
    """The remedies for reading; ``asked``: (name, verdict) of each card --remedy-card named."""
    click.echo(f"Remedies (smallest single-stat change by power delta; each outlier measured on a "
               f"base study of its own, played afresh so that the luck which flagged it does not "
               f"measure its fix; each candidate checked by replaying the card's games there with "
               f"the same seeds, budget {budget} games per outlier):")
    done = {f["card"] for f in fixes}
    for name, verdict in asked:
        if name not in done:
            click.echo(f"  {name}: {NOT_REMEDIED.get(verdict, NOT_REMEDIED['undecided'])}")
    if not fixes and not asked:
        click.echo("  none needed: no outlier")
    for f in fixes:
        head = f"  {f['card']} ({f['rarity']}) {f['direction']}: "
        if not f["change"]:
            click.echo(head + "no allowed change moves its power that way ([remedy] steps)")
            continue
        band = f"[{_edge(f['band_low'], '-')}, {_edge(f['band_high'], '+')}]"
        click.echo(head + f"{f['change']}, power {f['power_before']:.1f} → {f['power_after']:.1f} "
                   f"({f['power_delta']:+.1f}; power band {f['power_band_low']:g}-"
                   f"{f['power_band_high']:g}{_power_words(f)})")
        verdict = {"lands": f"lands in its band (its whole interval inside, in the search and "
                            f"again on {f['confirmation_games']} games of its own)",
                   "unsettled": _unsettled(f),
                   "overshoots": "overshoots: every change that "
                   "reaches the band jumps past it; nearest shown",
                   "short": "short: even the largest allowed change stays outside the band; "
                   "nearest shown"}[f["status"]]
        if f.get("by_ratings_only"):
            verdict = NOT_SHOWN[f["status"]]
        click.echo(f"      rating {f['rating_before']:+.3f} → {f['rating_after']:+.3f} "
                   f"[{f['rating_after_low']:+.3f}, {f['rating_after_high']:+.3f}] vs band {band}: "
                   f"{verdict} ({f['checks_run']} of {f['candidates']} candidates checked, "
                   f"{f['games_per_check']} games each; its team's win rate "
                   f"{100 * f['win_change']:+.1f} points)")


def _power_words(f: dict) -> str:
    """Where the change leaves the card's power against its rarity's power band. "OUTSIDE it"
    says the change takes the card's stats out of the band (the power curve misjudges the card);
    a card whose stats were outside the band before the change (a Bronze card with a Gold card's
    stats) is still outside after a change too small by stats, which is not the same finding:
    stats and play agree there (the rarity audit of stop 77)."""
    if f["power_in_band"]:
        return ""
    lo, hi = f["power_band_low"], f["power_band_high"]
    if lo <= f["power_before"] <= hi:
        return ", OUTSIDE it"
    side = "above" if f["power_before"] > hi else "below"
    return (f", still OUTSIDE it, as before the change: by its stats too the card lies {side} "
            f"its band")


def _unsettled(f: dict) -> str:
    """Why a remedy whose rating is inside the band does not land yet, and what would settle it.
    The search's checks and the confirmation share the card's games in the study
    (``card_games``): when those are too few, more replays cannot help, a longer study can."""
    inside = (f["band_low"] is None or f["band_low"] <= f["rating_after"]) and (
        f["band_high"] is None or f["rating_after"] <= f["band_high"])
    held = f.get("card_games") or 0
    if f.get("confirmation_games"):
        head = (f"its interval was inside the band in the search, but not on "
                f"{f['confirmation_games']} games of its own (the check shown): ")
    elif _interval_inside(f):  # the search landed; no game of the card was left to confirm it
        return (f"its interval is inside the band in the search, but none of the card's "
                f"{held:,} games in the study was left to confirm it on games of its own (the "
                f"search's checks took them all): run the study with more --games, or lower "
                f"--remedy-games so that a check takes at most half of them")
    elif inside:
        head = "inside the band, but its interval is not yet: "
    else:
        head = "not confirmed: "
    needed = f["replays_needed"]
    if needed is None or needed < 0:
        return head + ("no number of replays settles it (the study's own rating interval is too "
                       "wide): run the study with more --games")
    if held and 2 * needed > held:
        return head + (f"about {needed:,} replayed games per check would settle it, but the study "
                       f"holds {held:,} games of this card for a check and its confirmation "
                       f"together: run the study with more --games")
    return head + (f"about {needed:,} replayed games per check would settle it "
                   f"(raise --remedy-games in proportion)")


def _interval_inside(f: dict) -> bool:
    """Whether the remedy's shown interval lies wholly inside the band (None: an open end)."""
    return (f["band_low"] is None or f["band_low"] <= f["rating_after_low"]) and (
        f["band_high"] is None or f["rating_after_high"] <= f["band_high"])


def _edge(x, sign: str) -> str:
    """A band edge; None is the open end (Bronze has no bottom, GOAT Series no top)."""
    return f"{sign}inf" if x is None else f"{x:+.3f}"
