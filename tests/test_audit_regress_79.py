"""Regression audit of stop 79 (the permanent tile buff, the drift gate's unreplayed line, the
baseline's combat and win-rate checks), as a user sees them."""

import pytest

from sim.report.drift_junit import junit_xml
from sim.runner.drift import GateResult


@pytest.mark.xfail(strict=True, reason="--junit drops the 'But N of M games ... did not replay "
                                       "the recorded ones' line: a CI view shows all green")
def test_junit_keeps_the_unreplayed_games_line():
    result = GateResult(metrics=(), combat=(), alpha_per_metric=0.0125, changed_files=(),
                        engine_changed=False, unreplayed=(("example", 1, 128),))
    assert "did not replay" in result.provenance
    assert "did not replay" in junit_xml(result)
