"""Shared fixtures: the shipped catalogue, and rules variants for alternative house rulings."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from sim.catalogue.loader import load_catalogue

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards"


@pytest.fixture(scope="session")
def catalogue():
    return load_catalogue(CARDS)


@pytest.fixture(scope="session")
def rules(catalogue):
    return catalogue.rules


def with_rules(rules, **changes):
    """A copy of ``rules`` with some house rulings changed (tiny dice make enumeration cheap)."""
    if "tier_faces" in changes:
        changes["tier_faces"] = np.asarray(changes["tier_faces"], dtype=np.int64)
    return dataclasses.replace(rules, **changes)
