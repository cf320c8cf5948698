"""``bwlab rulings``: replay one fixed study under the book default and under each house ruling's
alternative, with the same seeds, so that every difference is the ruling's doing.

The study has two parts, both fixed in size (no early stop, so the two rule sets play exactly
the same games' seeds): (1) the fairness of four given teams in duplicate play
(:mod:`.fairness`'s experiment: block ``b`` on board ``b % boards``, dice from child ``game`` of
the root seed); (2) card ratings from a pool experiment (:mod:`.rarity`). An alternative that the
engine does not read replays bit-identical games, so its effect is exactly zero — which is
itself worth knowing (docs/rulings-impact.md). The comparisons live in :mod:`.rulings_compare`,
how games end under each rule set (the balance metrics, from the columns kept per game) in
:mod:`.rulings_balance`.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from . import progress
from .progress_text import counted
from .rulings_data import DEFAULT_STUDY, Alternative, RulingsFile, prepare
from .tasks import input_digest

ROUND_GAMES = 256       # games per engine call (a multiple of 4: duplicate blocks)


@dataclass(frozen=True)
class StudyConfig:
    """The fixed study: the same under every rule set."""

    teams: Path
    fairness_games: int
    fairness_boards: int
    rating_experiment: Path
    rating_games: int
    seed: int
    policy: str
    tolerance: float

    @classmethod
    def from_file(cls, rulings: RulingsFile, **overrides) -> "StudyConfig":
        """``[study]`` of the alternatives file (defaults: :data:`DEFAULT_STUDY`), then the flags."""
        merged = {**DEFAULT_STUDY, **rulings.study,
                  **{k: v for k, v in overrides.items() if v is not None}}
        return cls(Path(merged["teams"]), int(merged["fairness_games"]),
                   int(merged["fairness_boards"]), Path(merged["rating_experiment"]),
                   int(merged["rating_games"]), int(merged["seed"]), str(merged["policy"]),
                   float(merged["tolerance"]))


@dataclass(frozen=True)
class StudyRun:
    """What one rule set's replay of the study produced (per game, in game order)."""

    fair_winner: np.ndarray     # winning team of each fairness game (-1: nobody)
    fair_board: np.ndarray      # board of each duplicate block
    fair_trace: np.ndarray      # (winner, decisions, rotations) per game: did the game change?
    fair_games: dict            # per game: the columns the balance metrics read (GAME_KEYS)
    seat_cards: np.ndarray      # rating games: cards per (game, seat) [n, 4, 5]
    rating_winner: np.ndarray   # winning seat of each rating game
    rating_board: np.ndarray
    rating_trace: np.ndarray
    rating_games: dict
    seconds: float
    inputs: str = ""            # digest of everything the engine was given (boards, rules, cards)


# per game, what the balance metrics read (sim.analysis.balance), kept beside the verdicts' data
GAME_KEYS = ("winner_seat", "outcome", "rotations", "lead_changes")
RATING_CLUSTERS = 1_000_000     # the rating part's boards are other boards: distinct cluster ids


def _game_columns(cols, cluster_offset: int = 0) -> dict:
    """The balance metrics' columns of one engine call: :data:`GAME_KEYS`, each game's board as
    its cluster, and per seat the decision after which it fell (-1: never)."""
    out = {k: np.asarray(cols[k]) for k in GAME_KEYS}
    out["cluster"] = np.asarray(cols["board"], np.int64) + cluster_offset
    out["eliminated"] = np.stack([cols[f"seat{s + 1}_eliminated"] for s in range(4)], axis=1)
    return out


def _concat(parts: list[dict]) -> dict:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]} if parts else {}


def pooled_games(run: "StudyRun") -> dict:
    """Both parts' games in one table (the rating part's boards as distinct clusters)."""
    return _concat([g for g in (run.fair_games, run.rating_games) if g])


def _trace(cols) -> np.ndarray:
    return np.stack([cols["winner_seat"], cols["decisions"], cols["rotations"]], axis=1)


def play_fairness(catalogue, cfg: StudyConfig) -> tuple:
    """The fixed fairness study: winners, each block's board and each game's trace."""
    from .fairness import fairness_experiment
    from .file_kinds import load_team_file
    from .tasks import build_arena, grow_arena, play_games

    teams = load_team_file(cfg.teams, catalogue.cards)
    exp = fairness_experiment(teams, cfg.policy, cfg.seed, cfg.fairness_games, ROUND_GAMES,
                              cfg.fairness_boards)
    arena = build_arena(catalogue, exp, n_boards=2)
    winners, boards, traces, games = [], [], [], []
    for start in range(0, cfg.fairness_games, ROUND_GAMES):
        stop = min(cfg.fairness_games, start + ROUND_GAMES)
        arena = grow_arena(catalogue, arena, stop)
        cols = play_games(arena, start, stop)
        winners.append(cols["winner_team"])
        boards.append(cols["board"][::4])
        traces.append(_trace(cols))
        games.append(_game_columns(cols))
    return (np.concatenate(winners), np.concatenate(boards), np.concatenate(traces),
            _concat(games), input_digest(arena).hexdigest())


def play_ratings(catalogue, cfg: StudyConfig) -> tuple:
    """The fixed rating study on the pool experiment's own boards and seeds."""
    from sim.engine.state.fields import POLICY_IDS

    from .experiment import load_experiment
    from .rarity import pool_boards
    from .tasks import build_arena, play_games

    exp = load_experiment(cfg.rating_experiment, catalogue.cards, tuple(POLICY_IDS),
                          games=cfg.rating_games)
    exp = replace(exp, policies=(cfg.policy,) * 4)
    arena = build_arena(catalogue, exp)
    cards, winners, traces, games = [], [], [], []
    for start in range(0, exp.games, ROUND_GAMES):
        stop = min(exp.games, start + ROUND_GAMES)
        cols = play_games(arena, start, stop)
        cards.append(np.stack([np.stack([cols[f"seat{s + 1}_card{k + 1}"] for k in range(5)], 1)
                               for s in range(4)], 1))
        winners.append(cols["winner_seat"])
        traces.append(_trace(cols))
        games.append(_game_columns(cols, RATING_CLUSTERS))
    return (np.concatenate(cards), np.concatenate(winners), pool_boards(exp, exp.games),
            np.concatenate(traces), _concat(games), input_digest(arena).hexdigest())


def play_study(catalogue, cfg: StudyConfig, stage: str) -> StudyRun:
    """Both parts of the study under one card folder (``stage`` names it on the progress
    line)."""
    t0 = time.perf_counter()
    with progress.stage(f"{stage}: fairness"):
        *fair, fair_inputs = play_fairness(catalogue, cfg)
    with progress.stage(f"{stage}: card ratings"):
        *rating, rating_inputs = play_ratings(catalogue, cfg) \
            if cfg.rating_games else (np.zeros((0, 4, 5), np.int64), np.zeros(0, np.int64),
                                      np.zeros(0, np.int64), np.zeros((0, 3), np.int64), {},
                                      "")
    return StudyRun(*fair, *rating, time.perf_counter() - t0, fair_inputs + rating_inputs)


def prepare_all(rulings: RulingsFile, cards: Path, workdir: Path) -> list[tuple]:
    """Every alternative's (catalogue, alternative) before any game: a bad entry costs nothing."""
    out = []
    for alt in rulings.alternatives:
        folder = workdir / f"alternative-{alt.index}"
        out.append(prepare(alt, cards, folder, rulings.path))
    return out


def check_study(catalogue, cfg: StudyConfig) -> None:
    """Load the study's team file and (with rating games) its pool experiment: InputError
    before any game. Why: they were first read inside the book default's games, so a bad
    experiment was refused after its fairness games."""
    from sim.engine.state.fields import POLICY_IDS

    from .experiment import load_experiment
    from .file_kinds import load_team_file

    load_team_file(cfg.teams, catalogue.cards)
    if cfg.rating_games:
        load_experiment(cfg.rating_experiment, catalogue.cards, tuple(POLICY_IDS),
                        games=cfg.rating_games, games_flag="--rating-games")


def run_rulings(rulings: RulingsFile, cfg: StudyConfig, cards: Path, ready=None) -> dict:
    """The whole comparison as plain data (the JSON document; the text prints from it).
    ``ready()`` is called once every input (the book's cards, the study's files, each
    alternative's card folder) is loaded and checked, before the first game: the CLI checks its
    outputs against them there and compiles the engine."""
    from sim.catalogue.loader import load_catalogue

    from .rulings_balance import mark_endings, rule_set_balance
    from .rulings_compare import conclusion, rank

    book = load_catalogue(cards)
    check_study(book, cfg)
    per_study = cfg.fairness_games + cfg.rating_games
    total = per_study * (1 + len(rulings.alternatives))
    with tempfile.TemporaryDirectory(prefix="bwlab-rulings-") as tmp:
        prepared = prepare_all(rulings, Path(cards), Path(tmp))
        if ready is not None:
            ready()
        with progress.stage("rule sets", total):
            base, results, changes = _play_rule_sets(book, cfg, prepared)
    mark_endings(results, changes)
    ranked = rank(results)
    return {"conclusion": conclusion(ranked), "study": _study_doc(cfg, base),
            "book_balance": rule_set_balance(base), "alternatives": ranked,
            "alternatives_file": str(rulings.path)}


def _play_rule_sets(book, cfg: StudyConfig, prepared: list[tuple]) -> tuple:
    """The study under the book's rules and under each prepared alternative: (the book's run,
    each alternative's comparison, each one's change of endings)."""
    from .rulings_balance import ending_change, rule_set_balance
    from .rulings_compare import compare

    base = play_study(book, cfg, "book default")
    results, changes = [], []
    for k, (catalogue, alt) in enumerate(prepared, 1):
        run = play_study(catalogue, cfg, f"[{k}/{len(prepared)}] {alt.label}")
        changes.append(ending_change(base, run))
        results.append({**compare(book, cfg, base, run, alt),
                        "games_balance": rule_set_balance(run),
                        "ending_change": changes[-1].as_dict()})
    return base, results, changes


def _study_doc(cfg: StudyConfig, base: StudyRun) -> dict:
    fair_boards = int(np.unique(base.fair_board).size)
    rating_boards = int(np.unique(base.rating_board).size)
    return {"teams": str(cfg.teams), "fairness_games": cfg.fairness_games,
            "fairness_boards": fair_boards,
            "fairness_design": (f"{counted(cfg.fairness_games, 'game')} on "
                                f"{counted(fair_boards, 'board')}"),
            "rating_experiment": str(cfg.rating_experiment), "rating_games": cfg.rating_games,
            "rating_boards": rating_boards,
            "rating_design": (f"{counted(cfg.rating_games, 'game')} on "
                              f"{counted(rating_boards, 'board')}"),
            "seed": cfg.seed, "policy": cfg.policy, "tolerance": cfg.tolerance,
            "seconds_per_study": round(base.seconds, 1)}


__all__ = ["DEFAULT_STUDY", "Alternative", "StudyConfig", "StudyRun", "play_study",
           "run_rulings"]
