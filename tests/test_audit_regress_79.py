"""Regression audit of stop 79 (the permanent tile buff, the drift gate's unreplayed line, the
baseline's combat and win-rate checks), as a user sees them."""

import xml.etree.ElementTree as ET

from sim.report.drift_junit import junit_xml
from sim.runner.drift import GateResult


def test_junit_keeps_the_unreplayed_games_line():
    """A replay that should be exact and was not exits with the verdict's code (0 here), so the
    JUnit file is a CI view's only sign of it: the provenance sentence is the suite's
    ``<system-out>`` (it was lost from the file until the audit of stop 79)."""
    result = GateResult(metrics=(), combat=(), alpha_per_metric=0.0125, changed_files=(),
                        engine_changed=False, unreplayed=(("example", 1, 128),))
    assert "did not replay" in result.provenance
    suite = ET.fromstring(junit_xml(result).split("\n", 1)[1])
    assert "But 1 of 128 games of example did not replay" in suite.find("system-out").text
