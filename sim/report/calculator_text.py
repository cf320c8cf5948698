"""The combat calculator as text and CSV: summaries, the exactly / at least / at most table (one
profile, or two side by side) and sweep tables.

Why trimmed in text only: a 50-attack D30 throw has 1,501 damage values, nearly all with a
probability that prints as 0.00 %; the text shows the rows a reader can see (and says what it
left out), while CSV and JSON list every row. Monte Carlo values carry "± standard error".
"""

from __future__ import annotations

import csv
import io

import numpy as np

EPS = 5e-5  # 0.005 %: the smallest probability the text table prints as non-zero
BAR = 24    # width of the text bar of the largest "exactly"


def _pm(value: float | None, se: float | None, digits: int, scale: float = 1.0) -> str:
    if value is None:  # not measured (a Monte Carlo hit chance of no attacks)
        return "n/a: no attack thrown"
    text = f"{value * scale:.{digits}f}"
    return text if se is None else f"{text} ± {se * scale:.{digits}f}"


def summary(r: dict) -> list[str]:
    """A profile's headline numbers, each Monte Carlo one with its standard error."""
    mc = r["method"] == "monte_carlo"
    head = r["label"] + " — " + (f"Monte Carlo, {r['samples']:,} samples, seed {r['seed']}"
                                 if mc else "exact")
    lines = [head]
    if "colour" in r:
        lines.append(f"  star colour       {r['colour_reason']}")
    adv = {1: ", attacker advantage", -1: ", attacker disadvantage"}.get(r["attacker_advantage"], "")
    dadv = {1: ", defender advantage", -1: ", defender disadvantage"}.get(r["defender_advantage"], "")
    lines += [f"  attacks           {r['attacks']}, dice tier {r['tier']} (D{r['die']}){adv}",
              f"  defense           {r['defense']} (hit chance "
              f"{_pm(r['p_hit'], r.get('p_hit_se'), 4)}){dadv}",
              f"  expected damage   {_pm(r['mean'], r.get('mean_se'), 2)} "
              f"(sd {r['sd']:.2f})",
              f"  kill probability  {_pm(r['kill_probability'], r.get('kill_probability_se'), 4)}"
              f" against {r['health']} health ({r['health_source']})"]
    if mc:
        e = r["exact"]
        lines.append(f"  exact             mean {e['mean']:.2f}, kill {e['kill_probability']:.4f}"
                     " (± is one standard error; a chance's is Agresti & Coull's)")
    return lines


def _span(table: dict) -> tuple[int, int]:
    at_most, at_least = np.asarray(table["at_most"]), np.asarray(table["at_least"])
    lo = int(np.argmax(at_most >= EPS)) if np.any(at_most >= EPS) else 0
    seen = np.flatnonzero(at_least >= EPS)
    hi = int(seen[-1]) if seen.size else 0
    return lo, max(lo, hi)


def _cells(table: dict, d: int) -> list[str]:
    out = []
    for key in ("exactly", "at_least", "at_most"):
        values = table[key]
        v = values[d] if d < len(values) else (1.0 if key == "at_most" else 0.0)
        se = table.get(f"{key}_se")
        s = None if se is None else (se[d] if d < len(se) else 0.0)
        out.append(_pm(v, s, 2 if se is None else 3, 100.0))
    return out


def distribution(results: list[dict]) -> list[str]:
    """The exactly / at least / at most table (percent) of one or two profiles, side by side."""
    spans = [_span(r["table"]) for r in results]
    lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
    header = ["damage"]
    for i, r in enumerate(results):
        tag = "" if len(results) == 1 else f"{'AB'[i]}: "
        header += [f"{tag}exactly %", f"{tag}at least %", f"{tag}at most %"]
    rows = [[str(d)] + sum((_cells(r["table"], d) for r in results), []) for d in range(lo, hi + 1)]
    if len(results) == 1:
        exactly = np.asarray(results[0]["table"]["exactly"])
        top = exactly.max() or 1.0
        header.append("")
        for row, d in zip(rows, range(lo, hi + 1)):
            row.append("#" * int(round(BAR * exactly[d] / top)))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    fmt = lambda cells: "  " + "  ".join(c.rjust(w) if i < len(widths) - 1 or len(results) > 1
                                         else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    lines = [fmt(header).rstrip()] + [fmt(row).rstrip() for row in rows]
    size = max(len(r["table"]["damage"]) for r in results)
    if lo > 0 or hi < size - 1:
        lines.append(f"  (damage below {lo} or above {hi}: under {100 * EPS:g} % each way; "
                     f"--format csv or json lists all {size} values)")
    return lines


def sweep_table(s: dict) -> list[str]:
    """Expected damage and kill probability per swept value, one column group per profile."""
    key, series = s["key"], s["series"]
    card = "colour" in series[0]["rows"][0]
    header = [key.replace("_", " ")]
    for i, ser in enumerate(series):
        tag = "" if len(series) == 1 else f"{'AB'[i]}: "
        header += ([f"{tag}star"] if card else []) + [f"{tag}mean", f"{tag}sd", f"{tag}kill %"]
    rows = []
    for j, value in enumerate(s["values"]):
        row = [str(value)]
        for ser in series:
            r = ser["rows"][j]
            if card:
                row.append(f"{r['colour']} {r['attacks']}^{r['tier']}")
            row += [_pm(r["mean"], r.get("mean_se"), 2), f"{r['sd']:.2f}",
                    _pm(r["kill_probability"], r.get("kill_probability_se"), 2, 100.0)]
        rows.append(row)
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    return ["  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths)) for cells in [header] + rows]


def render_text(result: dict) -> str:
    """The whole answer: summaries, then the sweep table or the distribution table."""
    profiles = result["profiles"]
    lines = []
    for i, r in enumerate(profiles):
        block = summary(r)
        if len(profiles) > 1:
            block[0] = f"{'AB'[i]}: {block[0]}"
        lines += block
    if "difference" in result:
        d = result["difference"]
        lines.append(f"B - A: expected damage {d['mean']:+.2f}"
                     + (f" ± {d['mean_se']:.2f}" if "mean_se" in d else "")
                     + f", kill probability {d['kill_probability']:+.4f}"
                     + (f" ± {d['kill_probability_se']:.4f}" if "kill_probability_se" in d else ""))
    lines.append("")
    if "sweep" in result:
        s = result["sweep"]
        lines.append(f"Sweep over {s['key'].replace('_', ' ')}: expected damage and kill "
                     "probability (P(damage ≥ health))")
        lines += sweep_table(s)
    else:
        lines += distribution(profiles)
    return "\n".join(lines)


def render_csv(result: dict) -> str:
    """One table: the sweep's rows (with ``--sweep``) or every damage value of every profile."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if "sweep" in result:
        s = result["sweep"]
        fields = [f for f in ("colour", "attacks", "tier", "defense", "health", "p_hit", "mean",
                              "sd", "kill_probability", "p_hit_se", "mean_se",
                              "kill_probability_se") if f in s["series"][0]["rows"][0]]
        fields = [f for f in fields if f != s["key"]]
        writer.writerow(["profile", s["key"], *fields])
        for label, ser in zip(_labels([ser["label"] for ser in s["series"]]), s["series"]):
            for r in ser["rows"]:
                writer.writerow([label, r[s["key"]], *(_num(r[f]) for f in fields)])
        return buf.getvalue()
    keys = [k for k in ("exactly", "at_least", "at_most", "exactly_se", "at_least_se",
                        "at_most_se") if k in result["profiles"][0]["table"]]
    writer.writerow(["profile", "damage", *keys])
    for label, r in zip(_labels([r["label"] for r in result["profiles"]]), result["profiles"]):
        t = r["table"]
        for d in t["damage"]:
            writer.writerow([label, d, *(_num(t[k][d]) for k in keys)])
    return buf.getvalue()


def _labels(labels: list[str]) -> list[str]:
    """Profile names as the text and figures show them: "A: ..." and "B: ..." for two."""
    return labels if len(labels) == 1 else [f"{'AB'[i]}: {x}" for i, x in enumerate(labels)]


def _num(v):
    return f"{v:.12g}" if isinstance(v, float) else v


def peer_monte_carlo_text(r: dict) -> str:
    """The text form of :func:`peer_standard_errors`' result: each estimate ``value ± se``, the
    exact value beside it; then P(damage >= h) at a few h, one row each."""
    e, t = r["exact"], r["table"]
    stats = ", ".join(f"{k} {','.join(map(str, v)) if isinstance(v, list) else v}"
                      for k, v in r["stats"].items())
    lines = [f"{r['title']}: {stats} — Monte Carlo, {r['samples']:,} samples, seed {r['seed']}",
             f"  p_success {r['p_success']:.4f} (exact, not sampled)",
             f"  mean      {r['mean']:.4f} ± {r['mean_se']:.4f}   exact {e['mean']:.4f}",
             f"  variance  {r['variance']:.4f} ± {r['variance_se']:.4f}   exact "
             f"{e['variance']:.4f}",
             f"  std dev   {r['sd']:.4f} ± {r['sd_se']:.4f}   exact {e['sd']:.4f}",
             f"  kill      {r['kill_probability']:.4f} ± {r['kill_probability_se']:.4f}   exact "
             f"{e['kill_probability']:.4f}   against {r['health']} health",
             "  damage >=  P (Monte Carlo)    exact"]
    seen = np.flatnonzero((np.asarray(t["exactly"]) > 0) | (np.asarray(e["pmf"]) > 0))
    for h in sorted({int(h) for h in seen} | {0})[:11]:
        lines.append(f"  {h:>9d}  {t['at_least'][h]:.4f} ± {t['at_least_se'][h]:.4f}    "
                     f"{e['at_least'][h]:.4f}")
    lines.append("  (± is one standard error; a chance's is Agresti & Coull's)")
    return "\n".join(lines)
