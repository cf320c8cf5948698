"""The drift gate's baseline file: what it records and how two records are compared.

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

How a parsed file is checked, field by field, before any of it is used is
:mod:`sim.runner.drift_baseline_checks`: many small helpers that only the loading of a file
calls, kept apart from the record and the comparisons that the gate reads on every run.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from sim import __version__
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
    """The first half of :func:`card_record`: each designer file's sha256, as a baseline keeps
    it."""
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


def changed_files_text(baseline: dict, texts: dict[str, str], changed,
                       digests: dict[str, str] | None = None) -> str:
    """The changed card files for reading: each CSV table with what changed in it (see
    :func:`csv_changes`) between the baseline's copy and ``texts`` (today's, as
    :func:`card_record` read them; a file that is not UTF-8 has none): "characters.csv
    (Pixel Paladin: max_health 275 → 200)"; a file gone from the folder since the baseline
    (``digests``: today's) or new in it says so, "peers.toml (removed)" (it read as
    changed, "in text only": the drift audit of stop 77)."""
    parts = []
    for name in changed:
        if digests is not None and name not in digests:
            parts.append(f"{name} (removed)")
            continue
        if name not in baseline.get("cards", {}):
            parts.append(f"{name} (added)")
            continue
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


# --- format 3's per-game columns, beside the winners ---------------------------------------

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
