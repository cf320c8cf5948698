"""The drift gate's baseline file: what it records, how it is checked, how it is compared.

A baseline is the memory of one known-good state of the lab. It records, beside each matchup's
per-game winners (so a later run can pair its games with them seed by seed) and, since format 3,
each game's ending, length in rotations and lead changes (so the gate can show the balance
metrics of the baseline's games beside today's; a format-2 baseline still reads, and the gate
then says those metrics were not recorded in it):

- the digest of every file under ``cards/`` and a copy of each that is UTF-8 text (so the gate
  can replay the baseline's cards under today's engine and name the files that differ);
- the engine's version and a digest of the source that decides the games (so "same cards: the
  engine changed" can be said);
- the exact combat tables, compared later with a tolerance (never by hashing rounded floats: a
  rounding boundary turns equal tables into "changed").

Every field is validated before use: a corrupted baseline is bad input (exit 2, one line per
problem), never a pass and never "drift".
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np

from sim import __version__
from sim.catalogue.diagnostics import InputError, Problem
from sim.runner.experiment import MAX_SEED
from sim.runner.file_names import file_name_problem
from sim.combat.exact import damage_distribution

FORMAT = 3
READABLE_FORMATS = (2, 3)   # 2: winners only (the balance metrics "not recorded in the baseline")
SNAPSHOT_ATTACKS = (1, 4, 8)
PMF_TOLERANCE = 1e-9      # exact tables are equal when every probability agrees this closely
WINNER_CODES = "-0123"    # one character per game: no winner, or the winning experiment team
# one character per game: how it ended (the engine's labels, sim.engine.state.fields.REASON_NAMES)
ENDING_CODES = {"last team standing": "L", "simultaneous elimination": "S", "stalemate": "T",
                "rotation cap": "C"}
GAME_FIELDS = ("outcomes", "rotations", "lead_changes")   # format 3: per game, beside winners
# and, per game, the decision after which each experiment team fell ("12,40,-1,33": -1 never;
# absent from the first format 3 files, whose order of elimination is then not recorded)
ELIMINATED = "eliminated"
_SECTIONS = ("format", "engine", "cards", "card_files", "suite", "policies", "matchups",
             "metrics", "combat")
# the suite's bounds (experiments/drift.toml, sim.runner.drift.load_suite), as the baseline's
# "suite" section records them: name in the file -> (kind, lowest, highest)
SUITE_RANGES = {"delta_elo": ((int, float), 5.0, 800.0), "alpha": ((int, float), 1e-6, 0.5),
                "beta": ((int, float), 1e-6, 0.5), "max_games": (int, 8, 1_000_000),
                "min_games": (int, 8, 1_000_000), "round": (int, 4, 1_000_000)}


# the layers that read and word the games' results but never change a game: the statistics
# (``sim.analysis``), the report and the command line
NOT_THE_GAMES = ("analysis", "report", "cli")


def engine_digest(root: Path = Path(__file__).resolve().parents[1]) -> str:
    """sha256 over the source files of the ``sim`` package that decide the games a suite plays
    (every layer but :data:`NOT_THE_GAMES`): it changes when a game can.

    Why not every file: a help-text edit in ``sim/cli`` made the gate say "the engine changed"
    (and judge the baseline's games as other games) until ``drift --update`` (stop 68's note).
    The game code, the catalogue, the board, the AI and the runner's deals and seeds are all
    in it."""
    digest = hashlib.sha256()
    for path in sorted(p for p in Path(root).rglob("*.py")
                       if p.relative_to(root).parts[0] not in NOT_THE_GAMES):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def card_record(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(the sha256 of every designer file under the card folder, the files ``cards_digest``
    counts; the text of each that is UTF-8 text: the copy a baseline keeps to replay).

    A UTF-8 file's digest is of its text as read (universal newlines), as every baseline has
    recorded it. A file that is not UTF-8 (a stray export beside the cards: no loader reads it,
    or the cards would not have loaded) is digested by its bytes and has no copy. Why: reading
    it as text made ``drift --update`` an internal error naming no file while ``validate`` said
    "ok" of the same folder (the audit of 2026-12); a change to it is still a changed file."""
    digests, texts = {}, {}
    for p in sorted(Path(root).iterdir()):
        if not (p.is_file() and p.suffix in (".csv", ".toml")):
            continue
        try:
            texts[p.name] = p.read_text(encoding="utf-8")
            digests[p.name] = text_digest(texts[p.name])
        except UnicodeDecodeError:
            digests[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
    return digests, texts


def card_digests(root: Path) -> dict[str, str]:
    """The first half of :func:`card_record`: each designer file's sha256, as a baseline keeps it."""
    return card_record(root)[0]


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def combat_snapshot(rules) -> dict[str, dict]:
    """The exact damage pmf of every tier and defense at a few attack counts."""
    out = {}
    for tier in range(1, rules.n_tiers + 1):
        for defense in range(rules.max_defense + 1):
            for attacks in SNAPSHOT_ATTACKS:
                d = damage_distribution(attacks, defense, tier, rules)
                out[f"tier {tier}, {attacks} attacks vs defense {defense}"] = {
                    "die": int(rules.faces(tier)), "mean": float(d.mean),
                    "p_hit": float(d.p_hit), "pmf": [float(p) for p in d.pmf]}
    return out


def _same_table(a: dict, b: dict) -> bool:
    pa, pb = np.asarray(a["pmf"], float), np.asarray(b["pmf"], float)
    n = max(pa.size, pb.size)
    pa, pb = np.pad(pa, (0, n - pa.size)), np.pad(pb, (0, n - pb.size))
    return a["die"] == b["die"] and bool(np.allclose(pa, pb, rtol=0.0, atol=PMF_TOLERANCE))


def combat_changes(old: dict, new: dict) -> list[str]:
    """One line per table entry that differs beyond :data:`PMF_TOLERANCE` (or was added/removed)."""
    changes = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            changes.append(f"{key}: {'added' if a is None else 'removed'}")
        elif not _same_table(a, b):
            changes.append(f"{key}: D{a['die']} -> D{b['die']}, mean {a['mean']:.4f} -> "
                           f"{b['mean']:.4f}, hit chance {a['p_hit']:.4f} -> {b['p_hit']:.4f}")
    return changes


def changed_card_files(baseline: dict, now: dict[str, str]) -> list[str]:
    """Names of the card files whose digests (``now``: :func:`card_digests`) differ from the
    baseline's (added and removed included)."""
    recorded = baseline["cards"]
    return sorted(n for n in set(recorded) | set(now) if recorded.get(n) != now.get(n))


def csv_changes(before: str, now: str, limit: int = 6) -> list[str]:
    """What changed between two texts of a card table (``characters.csv``, ``items.csv``), row
    by row, keyed by the first column (the name): "Pixel Paladin: max_health 275 → 200", "new
    row Iron Tide Kid", "row Mario removed"; at most ``limit`` entries, then "N more". Empty
    when a text is not a table of that shape (the file's name is said alone then). Why: the
    gate's first line named the file alone ("changed since the baseline: characters.csv"), and a
    CI user had to diff the baseline's JSON copy to learn which card and stat it replayed."""
    import csv
    import io

    def rows(text):
        table = list(csv.reader(io.StringIO(text, newline="")))
        if not table or not table[0]:
            raise ValueError("no header")
        header = [h.strip() for h in table[0]]
        keyed = {}
        for row in table[1:]:
            if row and row[0].strip():
                keyed.setdefault(row[0].strip(), dict(zip(header, (c.strip() for c in row))))
        return header, keyed

    try:
        (_, old), (header, new) = rows(before), rows(now)
    except (csv.Error, ValueError):
        return []
    out = [f"row {n} removed" for n in old if n not in new]
    for name, row in new.items():
        if name not in old:
            out.append(f"new row {name}")
            continue
        cells = [f"{h} {old[name].get(h, '(none)')} → {row.get(h, '(none)')}"
                 for h in dict.fromkeys(list(old[name]) + header)
                 if old[name].get(h) != row.get(h)]
        if cells:
            out.append(f"{name}: {', '.join(cells)}")
    if len(out) > limit:
        out = out[:limit] + [f"{len(out) - limit} more"]
    return out


def changed_files_text(baseline: dict, texts: dict[str, str], changed) -> str:
    """The changed card files for reading: each CSV table with what changed in it (see
    :func:`csv_changes`) between the baseline's copy and ``texts`` (today's, as
    :func:`card_record` read them; a file that is not UTF-8 has none): "characters.csv
    (Pixel Paladin: max_health 275 → 200)"."""
    parts = []
    for name in changed:
        before = baseline.get("card_files", {}).get(name)
        now = texts.get(name)
        what = (csv_changes(before, now) if name.endswith(".csv") and isinstance(before, str)
                and now is not None else [])
        parts.append(f"{name} ({'; '.join(what)})" if what else name)
    return ", ".join(parts)


def materialise_cards(baseline: dict, folder: Path) -> Path:
    """Write the baseline's copy of the card files into ``folder`` (to load and replay them)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in baseline["card_files"].items():
        if file_name_problem(name):  # validate_baseline refuses these first; never written
            raise ValueError(f"card_files: {file_name_problem(name)}")
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def engine_record() -> dict:
    return {"version": __version__, "source": engine_digest()}


# --- validation: every problem of a baseline file, one line each --------------------------------

def encode_games(cols: dict) -> dict:
    """A matchup's per-game endings (one character each, :data:`ENDING_CODES`), rotations and
    lead changes (space-separated whole numbers: compact, and readable in a diff)."""
    return {"outcomes": "".join(ENDING_CODES[str(k)] for k in cols["outcome"]),
            "rotations": " ".join(str(int(r)) for r in cols["rotations"]),
            "lead_changes": " ".join(str(int(x)) for x in cols["lead_changes"]),
            ELIMINATED: " ".join(",".join(str(int(d)) for d in row) for row in cols["eliminated"])}


def decode_games(entry: dict) -> dict | None:
    """The per-game columns :func:`encode_games` wrote, or None when the baseline predates them
    (format 2)."""
    if not all(k in entry for k in GAME_FIELDS):
        return None
    names = {code: name for name, code in ENDING_CODES.items()}
    out = {"outcome": np.array([names[c] for c in entry["outcomes"]]),
           "rotations": np.array(entry["rotations"].split(), np.int64),
           "lead_changes": np.array(entry["lead_changes"].split(), np.int64)}
    if ELIMINATED in entry:
        out["eliminated"] = np.array([g.split(",") for g in entry[ELIMINATED].split()], np.int64)
    return out


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


def _check_matchups(data: dict, add) -> None:
    for name, entry in data["matchups"].items():
        if not isinstance(entry, dict):
            add(f"matchups.{name}", "must be a table")
            continue
        winners, games = entry.get("winners"), entry.get("games")
        if not isinstance(winners, str) or set(winners) - set(WINNER_CODES):
            add(f"matchups.{name}.winners", f"must be a string of the characters {WINNER_CODES!r}")
        elif not _count(games, 1) or len(winners) != games:
            add(f"matchups.{name}.games", "must be a positive count equal to the winners' length")
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
            _check_games(name, entry, games, add)


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
    """Format 3's per-game endings, rotations and lead changes: one per game, well formed."""
    outcomes = entry.get("outcomes")
    if not isinstance(outcomes, str) or set(outcomes) - set(ENDING_CODES.values()):
        add(f"matchups.{name}.outcomes",
            f"must be a string of the characters {''.join(ENDING_CODES.values())!r}")
    elif len(outcomes) != games:
        add(f"matchups.{name}.outcomes", f"{len(outcomes)} games, not {games}")
    for key in ("rotations", "lead_changes"):
        text = entry.get(key)
        if not _whole_numbers(text):
            add(f"matchups.{name}.{key}", "must be whole numbers separated by spaces")
        elif len(text.split()) != games:
            add(f"matchups.{name}.{key}", f"{len(text.split())} games, not {games}")
    if ELIMINATED in entry:
        text = entry[ELIMINATED]
        rows = text.split() if isinstance(text, str) else None
        if rows is None or not all(_decisions(r) for r in rows):
            add(f"matchups.{name}.{ELIMINATED}", "must be, per game, four whole numbers (or -1) "
                                                  "joined by commas, games separated by spaces")
        elif len(rows) != games:
            add(f"matchups.{name}.{ELIMINATED}", f"{len(rows)} games, not {games}")


def _check_metrics(data: dict, add) -> None:
    for name, entry in data["metrics"].items():
        if not isinstance(entry, dict):
            add(f"metrics.{name}", "must be a table")
            continue
        if not _finite(entry.get("rate"), 0.0, 1.0):
            add(f"metrics.{name}.rate", f"must be a number in [0, 1], not {entry.get('rate')!r}")
        if not _count(entry.get("games"), 1):
            add(f"metrics.{name}.games", f"must be a positive count, not {entry.get('games')!r}")


def _check_combat(data: dict, add) -> None:
    for key, entry in data["combat"].items():
        if not isinstance(entry, dict):
            add(f"combat.{key}", "must be a table")
            continue
        pmf = entry.get("pmf")
        if not _count(entry.get("die"), 1):
            add(f"combat.{key}.die", f"must be a positive count, not {entry.get('die')!r}")
        if not (isinstance(pmf, list) and pmf and all(_finite(p, 0.0, 1.0) for p in pmf)):
            add(f"combat.{key}.pmf", "must be a non-empty list of probabilities")
        for field in ("mean", "p_hit"):
            if not _finite(entry.get(field), 0.0):
                add(f"combat.{key}.{field}", f"must be a finite number, not {entry.get(field)!r}")


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
    for key in _SECTIONS:
        if key not in data:
            add(key, "missing section; rewrite the baseline with --update")
        elif key != "format" and not (isinstance(data[key], dict) and data[key]):
            add(key, "must be a non-empty table")
    if not problems and data["format"] not in READABLE_FORMATS:
        add("format", f"baseline format {data['format']!r}; this lab reads "
                      f"{', '.join(map(str, READABLE_FORMATS))} and writes {FORMAT}: rewrite it "
                      f"with --update")
    if not problems:
        for check in (_check_matchups, _check_policies, _check_suite, _check_metrics,
                      _check_combat, _check_cards):
            check(data, add)
    if not problems:  # the copy of the cards is sound: its cards hold the teams'
        _check_team_cards(data, add)
    if problems:
        raise InputError(problems)
