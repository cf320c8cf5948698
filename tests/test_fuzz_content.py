"""Fuzzing designer content that ``bwlab validate`` ACCEPTS (stop 73): stats, abilities, items,
tiles, vehicles, assists, Apocalypses and rules.toml numbers at the edges of what their loaders
allow. The promise (README, docs/effects.md): a designer changes the data files without
touching code, and bad input is caught by ``bwlab validate`` (exit 2, one located line per
problem); so a folder validate passes must play — no crash, no traceback, no hang, every game
ends with a reason, the engine's invariants hold — or validate should have refused it.

The first tests are the departures the fuzzing found, each written first as a strict xfail
failing at its assertion (or at the exception named), now refused by the validator with one
located line (stop 73). The property tests after them are the fuzzing's checks made small:
compiled bulk games on accepted extreme folders, each of which ended every game while fuzzing.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from sim.ai.play import R_REASON
from sim.catalogue.abilities import PARAM_LIMITS
from sim.cli.main import main
from sim.engine.state import fields as L
from tests._engine_kit import cards_with, fresh_cards, play_variant


def _validate(folder) -> int:
    """``bwlab validate FOLDER``'s exit code, its printing swallowed."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["validate", str(folder)])


def _refusals(folder) -> list[str]:
    """``bwlab validate FOLDER``'s error lines (it must exit 2 with at least one)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["validate", str(folder)])
    lines = [line for line in err.getvalue().splitlines() if line.startswith("error: ")]
    assert code == 2 and lines, f"validate exited {code}: {err.getvalue()[-300:]}"
    assert "Traceback" not in err.getvalue()
    return lines


# abilities.toml may widen a summon's tier to PARAM_LIMITS["tier"] = (1, 16); rules.toml has 4
SUMMON_TIER_5 = (("abilities.toml", "tier = [1, 1, 4]", "tier = [1, 1, 5]"),
                 ("characters.csv", "count=2; health=15; attacks=2; tier=1; charges=1",
                  "count=2; health=15; attacks=2; tier=5; charges=1"))


def test_a_summon_of_a_dice_tier_the_rules_do_not_have_is_refused():
    """Book: "there are 4 Dice Tiers" (rules.toml ``tier_faces``: one die per tier); a card's
    star tiers are checked against them (cards.py ``_card_fields``: 1..``rules.n_tiers``), and a
    minion's attack is thrown like anyone's (``attack._throw``: ``S.tier_faces[tier - 1]``).
    Found by fuzzing (stop 73): abilities.py bounded a summon's ``tier`` by ``PARAM_LIMITS``
    (1..16) only, so ``bwlab validate`` accepted a summon of tier 5..16 with four dice tiers
    (an assist's summon too: its ability_params meet the same type bounds), and the minion read
    past the end of ``tier_faces`` (interpreted: ``IndexError`` at its first attack; compiled: a
    garbage die, and games of tier-16 summoners never finished). Now ``load_abilities`` bounds
    it by ``rules.n_tiers``: the summon type's tier widened to [1, 1, 5] is one located line
    naming the rule; the shipped [1, 1, 4] passes."""
    (line,) = _refusals(cards_with(SUMMON_TIER_5[:1]))
    assert "abilities.toml:" in line and "tier" in line and "4 dice tiers" in line, line
    lines = _refusals(cards_with(SUMMON_TIER_5))
    assert any("abilities.toml:" in line for line in lines), lines
    assert _validate(cards_with(())) == 0


def test_an_item_value_too_large_for_the_item_table_is_refused():
    """The promise: bad input is caught by ``bwlab validate`` with exit 2 and one located line
    per problem, never a traceback (tests/_cli_kit.run: "bad input gets a line, never a
    traceback"). Found by fuzzing (stop 73): item_types.toml ``[rules] value = [min, max]``
    checked only ``0 <= min <= max`` (items.py ``_item_rules``), items.csv's ``value`` was
    checked against it, and ``_load_rows`` then built ``np.asarray(values, np.int32)``: a value
    of 3,000,000,000 inside ``value = [1, 3000000000]`` raised ``OverflowError`` out of ``bwlab
    validate`` (and of every command that loads the cards). Now ``[rules] value`` stops at
    ``items.MAX_ITEM_VALUE`` (a million; the shipped scale is 1..10): one located line."""
    from sim.catalogue.items import MAX_ITEM_VALUE
    big = f"{MAX_ITEM_VALUE + 1}"
    folder = fresh_cards((("item_types.toml", "value = [1, 10]", f"value = [1, {big}]"),
                          ("items.csv", "Iron Sword,weapon,3,", f"Iron Sword,weapon,{big},")))
    (line,) = _refusals(folder)
    assert "item_types.toml:" in line and "value" in line, line
    folder = fresh_cards((("item_types.toml", "value = [1, 10]", "value = [1, 3000000000]"),))
    assert _refusals(folder)
    ok = f"{MAX_ITEM_VALUE}"
    assert _validate(cards_with((("item_types.toml", "value = [1, 10]", f"value = [1, {ok}]"),
                                 ("items.csv", "Iron Sword,weapon,3,",
                                  f"Iron Sword,weapon,{ok},")))) == 0


# a weapon (a held item: a lasting buff of the attacks) declared as 10^18 attacks: the item
# types' own [default, min, max] is the only bound an item's parameter meets
HUGE_WEAPON = (("item_types.toml", "params = { stat = [3, 3, 3], amount = [1, 1, 4] }",
                "params = { stat = [3, 3, 3], amount = [1, 1, 1000000000000000000] }"),
               ("items.csv", "Iron Sword,weapon,3,,,,amount=1,",
                "Iron Sword,weapon,3,,,,amount=1000000000000000000,"))


def test_an_item_parameter_beyond_what_the_engine_holds_is_refused():
    """Every game ends ("every game ends": tests/_engine_kit.play_checked); abilities.py keeps
    every parameter within "what the engine can hold" (``PARAM_LIMITS``; "issue #22: a declared
    range must not let a card throw 1,009 attacks"). Found by fuzzing (stop 73): items.py
    ``_params`` checked an item type's ``[default, min, max]`` for shape only (the TOML reader
    stops at 10^18), so a weapon of ``amount = 10^18`` validated; held and active
    (``holding._end_turn_items``) it added 10^18 attacks to every point of the holder's star,
    and its first attack rolled them one by one (``attack._throw`` -> ``sampler.resolve_attack``):
    greedy games with the items in hand never finished. The same gap let a potion heal 10^18, a
    bomb deal 10^18 and a scroll last 10^18 turns. Now item types meet ``PARAM_LIMITS`` as
    ability types do: one located line; the bound itself is accepted."""
    lines = _refusals(cards_with(HUGE_WEAPON))
    assert any("item_types.toml:" in line and "amount" in line for line in lines), lines
    hi = PARAM_LIMITS["amount"][1]
    at_limit = ((HUGE_WEAPON[0][0], HUGE_WEAPON[0][1],
                 HUGE_WEAPON[0][2].replace("1000000000000000000", str(hi))),)
    assert _validate(cards_with(at_limit)) == 0


# ---------------------------------------------------------------- properties that hold

def _abilities_at_limits(kind: str, params: str, **bounds) -> tuple:
    """Every card of ability ``kind`` with ``params``, the type's bounds widened to ``bounds``
    (within ``PARAM_LIMITS``)."""
    import csv
    import re
    import tomllib

    from tests._engine_kit import ROOT

    text = (ROOT / "cards" / "abilities.toml").read_text(encoding="utf-8")
    old = re.search(rf"\n\[{kind}\](?:(?!\n\[).)*?(params = \{{[^\n]*\}})", text, re.S).group(1)
    spec = tomllib.loads(text)[kind]["params"]
    parts = []
    for p, (d, lo, hi) in spec.items():
        lo, hi = bounds.get(p, (lo, hi))
        parts.append(f"{p} = [{min(max(d, lo), hi)}, {lo}, {hi}]")
    sheet = (ROOT / "cards" / "characters.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(sheet)))
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        row["ability"], row["ability_params"] = kind, params
        writer.writerow(row)
    return (("abilities.toml", old, "params = { " + ", ".join(parts) + " }"),
            ("characters.csv", sheet, out.getvalue()))


R = "rules.toml"
EXTREMES = {
    # Luffy a card of 10 characters (LIMITS characters: its most)
    "ten_characters": (("characters.csv", "Luffy,Anime,Legendary,strike,bonus_attacks=2; "
                        "charges=3,1,", "Luffy,Anime,Legendary,strike,bonus_attacks=2; "
                        "charges=3,10,"),),
    # the game loop's numbers at their smallest
    "loop_minimal": ((R, "reveal_deaths = 7", "reveal_deaths = 1"),
                     (R, "turns_after_reveal = 1", "turns_after_reveal = 0"),
                     (R, "stalemate_rotations = 10", "stalemate_rotations = 1"),
                     (R, "water_streak_max = 4", "water_streak_max = 1")),
    # no attack can hit: defense_margin 100 on a D12
    "no_hits": ((R, "defense_margin = 2", "defense_margin = 100"),),
    # a buff of +100,000 attacks for 1,000 turns on every card (PARAM_LIMITS)
    "buff_attacks": _abilities_at_limits(
        "buff", "stat=3; amount=100000; duration=1000; range=35; charges=0",
        amount=(0, 100_000), duration=(1, 1000), range=(0, 35), charges=(0, 1000)),
    # summons of 10 minions of 100,000 health, tier 4, unlimited, 20 minion rows per creator
    "summon_swarm": _abilities_at_limits(
        "summon", "count=10; health=100000; attacks=50; tier=4; charges=0",
        count=(0, 10), health=(1, 100_000), attacks=(0, 50), charges=(0, 1000))
    + ((R, "max_minions = 6", "max_minions = 20"),),
}


@pytest.mark.parametrize("name", list(EXTREMES))
@pytest.mark.parametrize("policy", [L.RANDOM, L.GREEDY])
def test_accepted_extreme_content_plays_to_an_end(name, policy):
    """A folder ``bwlab validate`` accepts plays: 32 compiled games (random teams, 8 boards)
    each end with a reason ("every game ends"; ``R_REASON`` > 0) and no team keeps negative
    health. The folders are the fuzzing's extremes (stop 73: ~150 folders, ~9,000 compiled
    and ~500 step-checked games): ten-character cards, the reveal / stalemate / water-streak
    numbers at their smallest, attacks that cannot hit, abilities at ``PARAM_LIMITS``. Fails
    if validate refuses one (the promise would need the folder changed) or a game does not
    end. ~1-6 s each compiled."""
    from sim.ai.play import R_HEALTH

    edits = EXTREMES[name]
    assert _validate(cards_with(edits)) == 0
    results = play_variant(edits, [policy] * 4, 32, 8, 11)
    assert np.all(results[:, R_REASON] > 0), "a game ended with no reason"
    assert np.all(results[:, R_HEALTH] >= 0)
