"""How many games the drift gate may play per matchup, and what set that limit.

Why a module of its own: the gate plays each matchup on the baseline's seeds and pairs every game
with the baseline's game of the same number, so it can never play more games than the baseline
holds. A baseline written with ``drift --update --games 512`` therefore lowered the gate's cap to
512 without a word, and with it the suite's floor (``min_games``: no decision before the variance
estimate settles), since a floor cannot stand above the cap: the gate decided "no drift" after
512 games, printed the suite's "1024–4096 games per matchup" and advised raising ``max_games``,
which could not help. Here:

- a baseline shorter than the gate's floor is refused before any game (bad input, exit 2),
  since a gate that silently decides on fewer games than its suite allows must not pass CI;
  the user can lower the floor knowingly with ``--games`` (said on stderr), or make a longer
  baseline;
- a baseline shorter than the cap (but not than the floor) gates, with a note on stderr and in
  the conclusion: the cap is the baseline's, and only a longer baseline raises it;
- every matchup's limits (floor, cap and what set it, games used) are kept with the result, so
  the footer and the advice name the real numbers.
"""

from __future__ import annotations

from sim.catalogue.diagnostics import Problem

__all__ = ["baseline_games", "gate_cap", "limits", "notes", "short_of_floor"]


def baseline_games(baseline: dict, name: str) -> int | None:
    """The games the baseline holds for matchup ``name`` (None: not in it)."""
    record = baseline["matchups"].get(name)
    return None if record is None else len(record["winners"])


def _floor_words(suite) -> str:
    return (f"--games {suite.max_games} (the cap, which lowers the suite's min_games)"
            if suite.capped_by_flag and suite.min_games == suite.max_games
            else f"the suite's min_games {suite.min_games} ({suite.path})")


def short_of_floor(suite, baseline: dict, baseline_path) -> list[Problem]:
    """One problem per matchup whose baseline holds fewer games than the gate's floor: the gate
    would decide before the floor (module doc)."""
    out = []
    for exp in suite.experiments:
        n = baseline_games(baseline, exp.name)
        if n is not None and n < suite.min_games:
            out.append(Problem(str(baseline_path), None, f"matchups.{exp.name}.games",
                               f"{n} games, fewer than {_floor_words(suite)}: the gate would "
                               f"decide on fewer games than it allows; rewrite the baseline "
                               f"with `bwlab drift --update` (it plays {suite.max_games}), or "
                               f"gate on {n} games knowingly with --games {n - n % 4}"))
    return out


def gate_cap(suite, baseline_n: int) -> int:
    """The most games the gate can play of a matchup: the suite's (or --games') cap, or the
    baseline's own length when shorter (each game is paired with the baseline's)."""
    return min(suite.max_games, baseline_n)


def limits(suite, exp, baseline_n: int, used: int) -> dict:
    """One matchup's limits (JSON-ready): the floor, the cap and what set it (``baseline``,
    ``--games`` or ``max_games``), what the suite or --games asked for, and the games used."""
    cap = gate_cap(suite, baseline_n)
    by = ("baseline" if baseline_n < suite.max_games else
          "--games" if suite.capped_by_flag else "max_games")
    return {"matchup": exp.name, "floor": min(suite.min_games, cap), "cap": cap, "capped_by": by,
            "asked": suite.max_games, "baseline_games": baseline_n, "games": used}


def notes(suite, baseline: dict) -> list[str]:
    """The stderr notes before any game: each matchup whose baseline caps the gate below what
    the suite (or --games) asks for."""
    asked = "--games" if suite.capped_by_flag else f"the suite's max_games ({suite.path})"
    out = []
    for exp in suite.experiments:
        n = baseline_games(baseline, exp.name)
        if n is not None and suite.min_games <= n < suite.max_games:
            out.append(f"note: the baseline holds {n:,} games of {exp.name}, fewer than the "
                       f"{suite.max_games:,} games {asked} asks for: the gate plays at most {n:,} "
                       f"(it pairs each game with the baseline's); a longer `bwlab drift "
                       f"--update` on the known-good cards restores the full gate")
    return out + _test_settings_changed(suite, baseline)


# the suite's settings that change the test itself (what the baseline's games are not)
_TEST_SETTINGS = (("delta_elo", "delta_elo", " Elo"), ("alpha", "alpha", ""),
                  ("beta", "beta", ""))


def _test_settings_changed(suite, baseline: dict) -> list[str]:
    """A note for each test setting of the suite file that differs from the one the baseline
    was recorded under. Why: the gate tests with the suite file's, and nothing said so; a CI
    engineer comparing with the run that made the baseline read other bounds without a word
    (the drift audit of stop 82)."""
    recorded = baseline.get("suite") if isinstance(baseline, dict) else None
    if not isinstance(recorded, dict):
        return []
    out = []
    for key, attr, unit in _TEST_SETTINGS:
        then, now = recorded.get(key), getattr(suite, attr)
        if isinstance(then, (int, float)) and not isinstance(then, bool) and then != now:
            out.append(f"note: the suite's {key} is {now:g}{unit} ({suite.path}); the baseline "
                       f"was recorded under {then:g}{unit}: the gate tests with the suite's, and "
                       f"`bwlab drift --update` records it")
    return out
