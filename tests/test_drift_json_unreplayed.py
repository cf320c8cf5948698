"""``bwlab drift --format json`` carries the unreplayed games as a field of their own
(docs/drift.md, "Exact replay, checked"): until stop 80 a script found them only inside the
``provenance`` sentence (the regression audit of stop 79)."""

from types import SimpleNamespace

from sim.cli.drift import gate_document
from sim.runner.drift import GateResult


def _document(unreplayed) -> dict:
    result = GateResult(metrics=(), combat=(), alpha_per_metric=0.0125, changed_files=(),
                        engine_changed=False, unreplayed=unreplayed)
    return gate_document(result, SimpleNamespace(delta_elo=35.0), "No drift.")


def test_the_json_names_each_matchup_that_did_not_replay_with_its_counts():
    doc = _document((("example", 3, 128),))
    assert doc["unreplayed"] == [{"matchup": "example", "games_differ": 3, "games": 128}]
    assert "But 3 of 128 games of example did not replay" in doc["provenance"]


def test_an_exact_replay_gives_an_empty_list():
    assert _document(())["unreplayed"] == []
