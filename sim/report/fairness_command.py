"""The `bwlab fairness` command that prints the report's fairness numbers, said on the page.

Why a module: the report's fairness section plays all its games and looks once, where
`bwlab fairness` looks every --round games, so the page names the one command that prints the
same numbers; that command must run as printed from where the report ran (the GM audit of stop
77: it named the team file by its bare name and left out --cards).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

__all__ = ["same_as_fairness", "same_as_rarity", "same_as_swaps"]

DEFAULT_ROUND = 256   # `bwlab fairness --round`'s default


def same_as_fairness(teams_path: str, seed: int, rep, policy: str = "greedy",
                     cards: Path | None = None) -> str:
    """How this section's numbers relate to `bwlab fairness`'s. Why said: the report plays all
    its games and looks once, `bwlab fairness` looks every --round (256) games and stops once
    settled, so on the same seed and games the two printed other rates and wider or narrower
    intervals with nothing on the page to say why (the consistency audit of 2026-12-06).

    The command runs as printed from where the report ran: the team file as given (it was its
    bare name, "example.toml", not found from the checkout) and ``--cards`` unless the cards are
    ./cards (a card folder of one's own was left out: unknown cards); quoted for the shell."""
    player = "" if policy == "greedy" else f" --policy {shlex.quote(policy)}"
    folder = ("" if cards is None or _is_plain_cards(cards)
              else f" --cards {shlex.quote(str(cards))}")
    return (f"All {rep.games:,} games were played and the verdict looked at once (no early stop), "
            f"so each team's interval is at {100 * rep.verdict.level:.2f} %: 95 % for the four "
            f"together. `bwlab fairness {shlex.quote(str(teams_path))} --seed {seed} --games "
            f"{rep.games} --round {rep.games}{player}{folder}` prints these numbers; "
            + ("its default --round (256) looks more often and stops once settled, on fewer "
               "games, its intervals widened for the looks." if rep.games > DEFAULT_ROUND else
               # at most one round's games: the default looks once too (the report audit of
               # stop 81: "looks more often" was said of 64 games, the same numbers)
               f"at {rep.games:,} games its default --round ({DEFAULT_ROUND}) looks once too, "
               f"the same numbers."))


def same_as_rarity(games: int, experiment: Path, cards: Path | None = None) -> str:
    """The `bwlab rarity` command that prints the ratings section's numbers, runnable as printed.
    Why: the section said "See `bwlab rarity` for the full study", and bare `bwlab rarity`
    plays its experiment's 8,000 games, other numbers than a report of 128 (the report audit of
    stop 78)."""
    plain = Path(experiment).resolve() == (Path.cwd() / "experiments" / "rarity.toml").resolve()
    exp = "" if plain else f" --experiment {shlex.quote(str(experiment))}"
    folder = ("" if cards is None or _is_plain_cards(cards)
              else f" --cards {shlex.quote(str(cards))}")
    return f"`bwlab rarity --games {games}{exp}{folder}` prints these numbers."


def same_as_swaps(teams_path: str, seed: int, games: int, k: int, rating_games: int,
                  rating_experiment: Path, cards: Path | None = None) -> str:
    """The `bwlab fairness --suggest` command that prints the swaps section's proposals, verdicts
    and gaps, runnable as printed. Why: the section named none, though the fairness and ratings
    sections each name theirs (the report audit of stop 81). The report judges each proposal on
    the fairness section's games, looked at once (``--round`` = ``--games``)."""
    plain = (Path(rating_experiment).resolve()
             == (Path.cwd() / "experiments" / "rarity.toml").resolve())
    exp = "" if plain else f" --rating-experiment {shlex.quote(str(rating_experiment))}"
    folder = ("" if cards is None or _is_plain_cards(cards)
              else f" --cards {shlex.quote(str(cards))}")
    return (f"`bwlab fairness {shlex.quote(str(teams_path))} --seed {seed} --games {games} "
            f"--round {games} --suggest {k} --rating-games {rating_games}{exp}{folder}` prints "
            f"these proposals, verdicts and gaps.")


def _is_plain_cards(cards: Path) -> bool:
    """Whether ``cards`` is ./cards, the folder `bwlab fairness` reads without --cards (when
    $BWLAB_CARDS is unset; set, --cards is said anyway: the command then holds either way)."""
    return not os.environ.get("BWLAB_CARDS") and \
        Path(cards).resolve() == (Path.cwd() / "cards").resolve()
