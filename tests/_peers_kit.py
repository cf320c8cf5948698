"""Shared by the peer-combat tests: a private copy of ``cards/`` with one edit to peers.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

CARDS = Path(__file__).resolve().parents[1] / "cards"


def cards_with(tmp_path, old: str, new: str) -> Path:
    """``cards/`` copied under ``tmp_path`` with the first ``old`` in peers.toml made ``new``."""
    root = tmp_path / "cards"
    shutil.copytree(CARDS, root)
    text = (root / "peers.toml").read_text()
    assert old in text
    (root / "peers.toml").write_text(text.replace(old, new, 1))
    return root
