"""Readable names of the special entities in game logs (``Game.labels``): what each row is
(``fields.KIND``) and whose it is."""

from __future__ import annotations

from sim.engine.state import fields as L

KIND_WORDS = {L.K_MINION: "minion", L.K_CLONE: "clone"}


def entity_label(row, card_names, entities=None) -> str:
    """The label of a non-CPU entity row: "Luffy (T1)", "Luffy (T1, summoned)", "Shadow Scribe
    minion (T2)", "Sidekick (T3 assist)", "Mystery Machine (vehicle)"."""
    kind, team = int(row["kind"]), int(row["team"])
    if kind == L.K_VEHICLE:
        names = entities.vehicle_names if entities is not None else ()
        k = int(row["slot"])
        return f"{names[k] if k < len(names) else f'vehicle {k + 1}'} (vehicle)"
    if kind == L.K_ASSIST:
        names = entities.assist_names if entities is not None else ()
        k = int(row["slot"])
        return f"{names[k] if k < len(names) else f'assist {k + 1}'} (T{team + 1} assist)"
    card = int(row["card"])
    name = card_names[card] if 0 <= card < len(card_names) else "?"
    if kind in KIND_WORDS:
        return f"{name} {KIND_WORDS[kind]} (T{team + 1})"
    if kind == L.K_SUMMONED:
        return f"{name} (T{team + 1}, summoned)"
    return f"{name} (T{team + 1})"
