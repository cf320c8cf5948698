"""The drift gate's baseline file, validated: every problem of a parsed baseline, one line each.

Every field is validated before use: a corrupted baseline is bad input (exit 2, one line per
problem), never a pass and never "drift". Why a module of its own: the checks are many small
helpers (one per section, and the types each field must have) that only
:func:`validate_baseline` calls, while :mod:`sim.runner.drift_baseline` holds what the file
records and how two records compare, which the gate reads on every run.
"""

from __future__ import annotations

import difflib
import math
from pathlib import Path

from sim.catalogue.diagnostics import InputError, Problem
from sim.runner.drift_baseline import (ELIMINATED, ENDING_CODES, FORMAT, READABLE_FORMATS,
                                       SUITE_RANGES, WINNER_CODES, materialise_cards, text_digest)
from sim.runner.experiment import MAX_SEED
from sim.runner.file_names import file_name_problem

# the sections every baseline holds: ``format`` (one of READABLE_FORMATS) and non-empty tables
_SECTIONS = ("format", "engine", "cards", "card_files", "suite", "policies", "matchups",
             "metrics", "combat")


def _decisions(game: str) -> bool:
    """Four decision numbers, -1 for a team never eliminated: "12,40,-1,33"."""
    parts = game.split(",")
    return len(parts) == 4 and all(p.isdigit() or p == "-1" for p in parts)


def _whole_numbers(text) -> bool:
    return isinstance(text, str) and all(t.isdigit() for t in text.split())


def _finite(value, lo=-math.inf, hi=math.inf) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and lo <= value <= hi)


def _count(value, lo=0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= lo


def _tables(data: dict, section: str, add):
    """The (name, entry) pairs of ``data[section]`` whose entry is a table; one problem for each
    that is not (every section of a baseline is a table of tables)."""
    for name, entry in data[section].items():
        if isinstance(entry, dict):
            yield name, entry
        else:
            add(f"{section}.{name}", "must be a table")


def _check_matchups(data: dict, add) -> None:
    for name, entry in _tables(data, "matchups", add):
        winners, games = entry.get("winners"), entry.get("games")
        # the per-game fields are counted against the winners (else the count): a bad count
        # is one line, not one more for each field that is right (the hostile audit of stop 80)
        played = games if _count(games, 1) else None
        if not isinstance(winners, str) or set(winners) - set(WINNER_CODES):
            add(f"matchups.{name}.winners", f"must be a string of the characters {WINNER_CODES!r}")
        else:
            played = len(winners)
            if not _count(games, 1) or len(winners) != games:
                add(f"matchups.{name}.games",
                    "must be a positive count equal to the winners' length")
        digest = entry.get("experiment")
        if not (isinstance(digest, str) and len(digest) == 64
                and set(digest) <= set("0123456789abcdef")):
            add(f"matchups.{name}.experiment", "must be the experiment's sha256 (64 hex "
                                               "digits)")
        teams = entry.get("teams")
        if teams is not None and not (isinstance(teams, list) and len(teams) == 4 and all(
                isinstance(t, list) and t and all(isinstance(c, str) for c in t) for t in teams)):
            add(f"matchups.{name}.teams", "must be 4 lists of card names")
        seed = entry.get("root_seed")
        if seed is not None and not (_count(seed) and seed <= MAX_SEED):
            add(f"matchups.{name}.root_seed", f"must be a whole number in [0, {MAX_SEED}], not "
                                              f"{seed!r}")
        if data["format"] >= 3:
            _check_games(name, entry, played, add)


def _check_policies(data: dict, add) -> None:
    """Each matchup's players: 4 player specs, as --update writes them (a spelling the lab does
    not know could never match a run's players: the gate would refuse the baseline later)."""
    from sim.ai.spec import parse_policy

    for name, players in data["policies"].items():
        if not (isinstance(players, list) and len(players) == 4
                and all(isinstance(p, str) and p for p in players)):
            add(f"policies.{name}", "must be a list of 4 player specs (e.g. \"greedy\")")
            continue
        for spec in dict.fromkeys(players):
            try:
                parse_policy(spec)
            except ValueError as exc:
                add(f"policies.{name}", str(exc))
            except InputError:  # a weights file: the suite's own loader reads it, not this
                pass


# the keys --update writes inside each section (format 2 wrote some of them): a key not here is
# a hand edit nothing reads, a typo'd "suite.alpah" passing as the suite's alpha left unchecked
# (the regression audit of stop 81)
_TABLE_KEYS = {"engine": {"source", "version"},
               "matchups.*": {"eliminated", "experiment", "games", "lead_changes", "outcomes",
                              "root_seed", "rotations", "teams", "winners"},
               "metrics.*": {"games", "rate"}, "combat.*": {"die", "mean", "p_hit", "pmf"}}


def _check_keys(data: dict, add) -> None:
    """One line per key no --update writes, inside the sections whose keys are fixed."""
    tables = {"suite": (data["suite"], set(SUITE_RANGES)),
              "engine": (data["engine"], _TABLE_KEYS["engine"])}
    for section in ("matchups", "metrics", "combat"):
        for name, entry in data[section].items():
            if isinstance(entry, dict):
                tables[f"{section}.{name}"] = (entry, _TABLE_KEYS[f"{section}.*"])
    for where, (table, known) in tables.items():
        for key in sorted(set(table) - known):
            meant = _meant(key, sorted(known - set(table)))
            add(f"{where}.{key}", f"unknown key{_did_you_mean(meant)}; --update writes "
                                  f"{', '.join(sorted(known))}")


def _meant(key: str, absent: list[str]) -> str | None:
    """The one absent name an unknown key most likely misspells (None: none close)."""
    close = difflib.get_close_matches(key, absent, n=1)
    return close[0] if close else None


def _did_you_mean(name: str | None) -> str:
    return f" (did you mean {name}?)" if name else ""


def _check_suite(data: dict, add) -> None:
    """The suite's bounds the baseline was played with, in the ranges a suite file allows."""
    for key, (kind, lo, hi) in SUITE_RANGES.items():
        value = data["suite"].get(key)
        whole = kind is int
        ok = (isinstance(value, kind) and not isinstance(value, bool)
              and _finite(value, lo, hi) and (not whole or value % 4 == 0))
        if key in data["suite"] and not ok:
            what = f"a multiple of 4 in [{lo}, {hi}]" if whole else f"a number in [{lo:g}, {hi:g}]"
            add(f"suite.{key}", f"must be {what}, not {value!r}")


def _check_games(name: str, entry: dict, games, add) -> None:
    """Format 3's per-game endings, rotations and lead changes: one per game (``games``; None:
    not counted, neither the winners nor the count being readable), well formed."""
    outcomes = entry.get("outcomes")
    if not isinstance(outcomes, str) or set(outcomes) - set(ENDING_CODES.values()):
        add(f"matchups.{name}.outcomes",
            f"must be a string of the characters {''.join(ENDING_CODES.values())!r}")
    elif games is not None and len(outcomes) != games:
        add(f"matchups.{name}.outcomes", f"{len(outcomes)} games, not {games}")
    for key in ("rotations", "lead_changes"):
        text = entry.get(key)
        if not _whole_numbers(text):
            add(f"matchups.{name}.{key}", "must be whole numbers separated by spaces")
        elif games is not None and len(text.split()) != games:
            add(f"matchups.{name}.{key}", f"{len(text.split())} games, not {games}")
    if ELIMINATED in entry:
        text = entry[ELIMINATED]
        rows = text.split() if isinstance(text, str) else None
        if rows is None or not all(_decisions(r) for r in rows):
            add(f"matchups.{name}.{ELIMINATED}", "must be, per game, four whole numbers (or -1) "
                                                  "joined by commas, games separated by spaces")
        elif games is not None and len(rows) != games:
            add(f"matchups.{name}.{ELIMINATED}", f"{len(rows)} games, not {games}")


def _check_metrics(data: dict, add) -> None:
    """Each team's recorded win rate (``metrics``, "<matchup>: <team>") is a rate, and each
    matchup's four are its recorded winners' four (a game without a winner counts 1/4 to each,
    as ``drift_balance.win_rates`` counts it): a hand-edited, missing or extra rate is named
    (the CI audit of stop 79). The gate reads the winners; these rates are what ``--update``
    printed, so they must not say otherwise."""
    for name, entry in _tables(data, "metrics", add):
        if not _finite(entry.get("rate"), 0.0, 1.0):
            add(f"metrics.{name}.rate", f"must be a number in [0, 1], not {entry.get('rate')!r}")
        if not _count(entry.get("games"), 1):
            add(f"metrics.{name}.games", f"must be a positive count, not {entry.get('games')!r}")
    for matchup, entry in data["matchups"].items():
        winners = entry.get("winners") if isinstance(entry, dict) else None
        if isinstance(winners, str) and winners and not set(winners) - set(WINNER_CODES):
            _check_matchup_rates(data["metrics"], matchup, winners, add)


def _check_matchup_rates(metrics: dict, matchup: str, winners: str, add) -> None:
    """One matchup's recorded rates against its winners: four, whose rates are the four teams'
    over the recorded games. As a set: the rates' names are the suite's teams, which the file
    does not hold (the gate names them), so which rate is whose is not checked here."""
    mine = {k: v for k, v in metrics.items()
            if k.startswith(f"{matchup}: ") and isinstance(v, dict)}
    if not mine:  # none recorded (older files: the gate says so) or under another matchup name
        return
    if len(mine) != 4:
        add(f"metrics.{matchup}", f"{len(mine)} teams' win rates, not 4; rewrite the baseline "
                                  "with --update")
        return
    for name, entry in mine.items():
        if _count(entry.get("games"), 1) and entry["games"] != len(winners):
            add(f"metrics.{name}.games", f"{entry['games']}, not the {len(winners)} games "
                                         "recorded")
    rates = [entry.get("rate") for entry in mine.values()]
    if not all(_finite(r, 0.0, 1.0) for r in rates):
        return  # (named above)
    none = winners.count(WINNER_CODES[0]) / 4
    recorded = sorted((winners.count(code) + none) / len(winners) for code in WINNER_CODES[1:])
    if any(abs(a - b) > 1e-9 for a, b in zip(sorted(rates), recorded)):
        add(f"metrics.{matchup}", "the teams' win rates "
            + ", ".join(f"{r:.4f}" for r in sorted(rates)) + " are not the recorded winners' "
            + ", ".join(f"{r:.4f}" for r in recorded) + "; rewrite the baseline with --update")


_EXACT = 1e-9  # how far an exact table's sums may be from 1 and from its recorded mean


def _check_combat(data: dict, add) -> None:
    """Each exact combat table is a distribution of damage 0, 1, ... that sums to 1 and whose
    mean is the recorded one: a hand-edited table was called drift ("combat table changed"
    over numbers that showed no change) where the docs promise bad input (the CI audit of stop
    79). The tables are exact sums of a few hundred terms: 1e-9 is far above their rounding."""
    for key, entry in _tables(data, "combat", add):
        pmf = entry.get("pmf")
        if not _count(entry.get("die"), 1):
            add(f"combat.{key}.die", f"must be a positive count, not {entry.get('die')!r}")
        for field in ("mean", "p_hit"):
            if not _finite(entry.get(field), 0.0):
                add(f"combat.{key}.{field}", f"must be a finite number, not {entry.get(field)!r}")
        if not (isinstance(pmf, list) and pmf and all(_finite(p, 0.0, 1.0) for p in pmf)):
            add(f"combat.{key}.pmf", "must be a non-empty list of probabilities")
        elif abs(math.fsum(pmf) - 1.0) > _EXACT:
            add(f"combat.{key}.pmf", f"sums to {math.fsum(pmf):.6g}, not 1: not a distribution; "
                                     "rewrite the baseline with --update")
        elif _finite(entry.get("mean"), 0.0) and abs(
                math.fsum(d * p for d, p in enumerate(pmf)) - entry["mean"]) > _EXACT * len(pmf):
            add(f"combat.{key}.pmf", "its mean is not the recorded mean "
                                     f"{entry['mean']:.6g}; rewrite the baseline with --update")


def _utf8_text(value) -> bool:
    """A string a file can hold: JSON's ``"\\ud800"`` (a lone surrogate) reads as a string
    that no UTF-8 file holds, and its digest was an internal error (UnicodeEncodeError)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_cards(data: dict, add) -> None:
    for name, text in data["card_files"].items():
        if file_name_problem(name):  # materialise_cards writes each: never outside its folder
            add(f"card_files.{name}", file_name_problem(name))
        elif not _utf8_text(text):
            add(f"card_files.{name}", "must be the file's text")
        elif data["cards"].get(name) != text_digest(text):
            add(f"card_files.{name}", "its text does not match the recorded digest in 'cards'")
    for key in ("version", "source"):
        if not isinstance(data["engine"].get(key), str):
            add(f"engine.{key}", "missing")


def _check_team_cards(data: dict, add) -> None:
    """Every card a matchup's teams name is a card of the baseline's own ``characters.csv``:
    the gate replays the baseline's cards by those names (``sim.runner.drift._cards_by_name``)
    and once refused a renamed card only after the matchups before it had played. A copy the
    engine can no longer load is not checked: the gate then says so and replays nothing."""
    import tempfile

    from sim.catalogue.loader import load_catalogue

    named = {c for entry in data["matchups"].values() if isinstance(entry, dict)
             and isinstance(entry.get("teams"), list)
             for team in entry["teams"] for c in team}
    if not named:
        return
    with tempfile.TemporaryDirectory(prefix="bwlab-baseline-") as tmp:
        try:
            cards = load_catalogue(materialise_cards(data, Path(tmp) / "cards")).cards
        except (InputError, ValueError, OSError):
            return
    missing = sorted(named - set(cards.names))
    if missing:
        add("card_files", f"{', '.join(missing)} not in the baseline's cards (its matchups' "
                          f"teams name them): rewrite the baseline with --update")


def validate_baseline(data, path: Path) -> None:
    """Raise InputError naming every problem of a parsed baseline file."""
    problems: list[Problem] = []

    def add(field, message):
        problems.append(Problem(str(path), None, field, message))

    if not isinstance(data, dict):
        add("baseline", "not a baseline written by --update (expected a JSON object)")
        raise InputError(problems)
    if not any(key in data for key in _SECTIONS):  # another file: one line, not one a section
        rulings = {"conclusion", "study", "alternatives"} <= set(data)
        add("baseline", "a bwlab rulings results file, not a drift baseline (it goes to bwlab "
                        "report --rulings)" if rulings else "not a baseline written by --update "
                        f"(none of its sections {', '.join(_SECTIONS)})")
        raise InputError(problems)
    meant = set()  # a typo'd section: one line (its name), not a second for the one missing
    for key in sorted(set(data) - set(_SECTIONS)):
        name = _meant(key, [k for k in _SECTIONS if k not in data])
        meant.add(name)  # (None: no section meant)
        add(key, f"unknown section{_did_you_mean(name)}; a baseline written by --update has "
                 f"{', '.join(_SECTIONS)}")
    for key in _SECTIONS:
        if key not in data:
            if key not in meant:
                add(key, "missing section; rewrite the baseline with --update")
        elif key != "format" and not (isinstance(data[key], dict) and data[key]):
            add(key, "must be a non-empty table")
    if not problems and data["format"] not in READABLE_FORMATS:
        add("format", f"baseline format {data['format']!r}; this lab reads "
                      f"{', '.join(map(str, READABLE_FORMATS))} and writes {FORMAT}: rewrite it "
                      f"with --update")
    if not problems:
        for check in (_check_keys, _check_matchups, _check_policies, _check_suite,
                      _check_metrics, _check_combat, _check_cards):
            check(data, add)
    if not problems:  # the copy of the cards is sound: its cards hold the teams'
        _check_team_cards(data, add)
    if problems:
        raise InputError(problems)
