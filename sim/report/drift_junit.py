"""The drift gate's result as JUnit XML, the format CI systems read (``bwlab drift --junit``)."""

from __future__ import annotations

from sim.analysis.paired import DRIFT_DOWN, DRIFT_UP, OPEN

__all__ = ["junit_xml"]


def junit_xml(result) -> str:
    """JUnit XML for CI systems: one test case per metric plus one for the combat tables."""
    from xml.sax.saxutils import escape, quoteattr

    cases = []
    for m in result.metrics:
        t, body = m.test, ""
        if m.decision in (DRIFT_UP, DRIFT_DOWN):
            body = (f"<failure message={quoteattr(m.decision)}>{escape(m.name)}: "
                    f"{t.before:.4f} -> {t.after:.4f} ({t.elo_change:+.0f} Elo) after {t.games} "
                    f"games</failure>")
        elif m.decision == OPEN:
            body = f"<skipped message={quoteattr('inconclusive at the game cap')}/>"
        cases.append(f"<testcase classname='drift' name={quoteattr(m.name)}>{body}</testcase>")
    combat = ""
    if result.combat:
        combat = (f"<failure message='exact combat tables changed'>"
                  f"{escape(chr(10).join(result.combat))}</failure>")
    cases.append(f"<testcase classname='drift' name='combat tables'>{combat}</testcase>")
    failures = sum("<failure" in c for c in cases)
    skipped = sum("<skipped" in c for c in cases)
    return (f"<?xml version='1.0' encoding='utf-8'?>\n<testsuite name='bwlab-drift' "
            f"tests='{len(cases)}' failures='{failures}' skipped='{skipped}'>\n"
            + "\n".join(cases) + "\n</testsuite>\n")
