"""JSON on stdout and in files: strict JSON, whatever the numbers.

Why: Python writes a NaN or an infinity as ``NaN``/``Infinity``, which is not JSON; a script
reading ``bwlab fairness --format json`` with a strict parser (jq, JavaScript, Go) failed on
the variance ratio of a team whose outcome never varied. A number that is not finite is
``null`` here: "no value to give", as the text output's "nan" means.

Each document a command prints (or `bwlab rulings --out` writes) opens with ``"schema":
"bwlab.<document>/<version>"`` (:data:`SCHEMAS`, docs/json.md): within a version keys are only
added, never renamed or removed, so a script can check the one key before it reads the rest.
Why: the same concept had other keys in other commands (``win_probability``, ``win_rate``) and
renaming them would break scripts silently; docs/json.md maps each concept to its keys.
"""

from __future__ import annotations

import json
import math


def finite_or_null(value):
    """``value`` with every float that is not finite replaced by None, through dicts and lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_or_null(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite_or_null(v) for v in value]
    return value


# each document's schema id (docs/json.md lists its keys; tests/test_json_schemas.py keeps the
# two equal): bump a version when a key is renamed, removed or changes its shape, never when one
# is added. rarity/2 (stop 82): with --policies, ``policies`` stays the list of policy names and
# the per-player comparison is ``by_policy`` (rarity/1 replaced the list with it)
VERSIONS = {"rarity": 2}
SCHEMAS = {name: f"bwlab.{name}/{VERSIONS.get(name, 1)}" for name in (
    "fairness", "draft", "drift", "drift-update", "ladder", "power-levels", "rarity", "rulings",
    "combat", "combat-profiles", "combat-peer")}


def json_text(doc, schema: str | None = None, **options) -> str:
    """``json.dumps(doc, **options)`` as strict JSON (module doc); ``schema`` (a key of
    :data:`SCHEMAS`) opens the document with its schema id."""
    if schema is not None:
        doc = {"schema": SCHEMAS[schema], **doc}
    return json.dumps(finite_or_null(doc), allow_nan=False, **options)
