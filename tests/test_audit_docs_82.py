"""Docs audit 82: figures and alternatives the user-facing docs state, kept equal to the data."""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_tiles_doc_counts_the_shipped_tile_functions_and_effects():
    from sim.catalogue.tile_functions import FUNCTION_EFFECTS

    tiles = tomllib.loads((ROOT / "cards/tiles.toml").read_text())["tiles"]
    rewards = [t["reward"]["effect"] for t in tiles if "reward" in t]
    inter = [t["interactable"]["effect"] for t in tiles if "interactable" in t]
    holding = sum(1 for t in tiles if "reward" in t or "interactable" in t)
    used = set(rewards) | set(inter)
    doc = _flat((ROOT / "docs/tiles.md").read_text())
    m = re.search(r"The shipped tiles hold (\d+) functions \((\d+) rewards, (\d+) interactables\) "
                  r"on (\d+) tiles \((\d+) of them hold a function\), using (\d+) of the (\d+) "
                  r"effects", doc)
    assert m, "docs/tiles.md no longer states the shipped tiles' functions in the tested form"
    said = tuple(int(g) for g in m.groups())
    assert said == (len(rewards) + len(inter), len(rewards), len(inter), len(tiles), holding,
                    len(used), len(FUNCTION_EFFECTS))
    unused = sorted(set(FUNCTION_EFFECTS) - used)
    for name in unused:
        assert f"`{name}`" in doc[m.end():m.end() + 80], f"the unused effect {name} is not named"


def test_every_alternative_bwlab_rulings_replays_is_named_in_its_ruling():
    """rulings-impact.md: each shipped alternative comes "from the Alternatives of its ruling in
    rulings.md"; the ruling that names the key must name that alternative."""
    alts = tomllib.loads((ROOT / "experiments/rulings.toml").read_text())["alternatives"]
    bullets = re.split(r"\n(?=- \*\*)", (ROOT / "docs/rulings.md").read_text())
    missing = []
    for a in alts:
        leaf = a["key"].split(".")[-1]
        value = a["value"]
        if isinstance(value, list):
            continue  # named in the book's notation (D8/D12/D16/D20), not as a list
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        named = [b for b in bullets if re.search(rf"\b{leaf}\b", b) and "lternative" in b
                 and re.search(rf"{leaf}\s*=\s*\"?{re.escape(shown)}\b|\"{re.escape(shown)}\"|"
                               rf"`{re.escape(shown)}`|lternatives?:? {re.escape(shown)}\b", _flat(b))]
        if not named:
            missing.append(f"{a['key']} = {value!r}")
    assert not missing, f"alternatives replayed but not named in docs/rulings.md: {missing}"
