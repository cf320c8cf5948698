"""JSON on stdout and in files: strict JSON, whatever the numbers.

Why: Python writes a NaN or an infinity as ``NaN``/``Infinity``, which is not JSON; a script
reading ``bwlab fairness --format json`` with a strict parser (jq, JavaScript, Go) failed on
the variance ratio of a team whose outcome never varied. A number that is not finite is
``null`` here: "no value to give", as the text output's "nan" means.
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


def json_text(doc, **options) -> str:
    """``json.dumps(doc, **options)`` as strict JSON (module doc)."""
    return json.dumps(finite_or_null(doc), allow_nan=False, **options)
