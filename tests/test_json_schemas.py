"""Every JSON document the lab prints opens with its schema id and has exactly the top-level keys
docs/json.md lists for it; every key path of docs/json.md's glossary is found in the documents
it names (docs/json.md: "within a version keys are only added, never renamed or removed").

Each document is made by its command, small (a few seconds each), in this process."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import pytest

from sim.cli._json import SCHEMAS
from tests._cli_kit import run
from tests._drift_kit import private_lab

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
TEAMS = ROOT / "experiments" / "teams" / "example.toml"

# each document: the command line that prints it (small), its exit codes
COMMANDS = {
    "fairness": (("fairness", TEAMS, "--games", "64", "--round", "64", "--boards", "16"),
                 (0, 1, 3)),
    "draft": (("draft", "--random", "20", "--seed", "4", "--games", "64", "--proposals", "1"),
              (0, 1, 3)),
    "ladder": (("ladder", "--games", "16", "--players", "random,greedy", "--boards", "4"), (0,)),
    "power-levels": (("power-levels", "--games", "64"), (0,)),
    "rarity": (("rarity", "--games", "128", "--ablation", "0"), (0, 1)),
    "rulings": (("rulings", "--only", "board.sight_lines", "--games", "64", "--boards", "16",
                 "--rating-games", "0"), (0, 1)),
    "combat": (("combat", "--attacks", "4", "--tier", "1", "--defense", "2"), (0,)),
    "combat-profiles": (("combat", "--attacks", "4", "--tier", "1", "--defense", "2",
                         "--sweep", "defense=1..3"), (0,)),
    "combat-peer": (("combat", "--system", "arena"), (0,)),
}


def _documented() -> dict[str, set[str]]:
    """docs/json.md's list of each document's top-level keys: a line "- `bwlab.NAME/1`: keys"."""
    out = {}
    for name, keys in re.findall(r"^- `bwlab\.([\w-]+)/\d+` [^:]*: (.+)$", DOC, re.M):
        out[name] = {k.strip(" `.") for k in keys.split(",")}
    return out


def _glossary() -> list[tuple[str, str]]:
    """(document, key path) of every glossary cell: `NAME: path` items."""
    table = DOC[DOC.index("## The same concept in each document"):]
    return re.findall(r"`([\w-]+): ([\w\[\].]+)`", table)


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict[str, dict]:
    """Every document, made once (the games journal in a folder of the module's own: a module
    fixture runs before the conftest's per-test one is set)."""
    tmp = tmp_path_factory.mktemp("json_schemas")
    docs = {}
    with pytest.MonkeyPatch.context() as m:
        m.chdir(ROOT)  # the commands' default files (experiments/rarity.toml, ...)
        if os.environ.get("BWLAB_JOURNAL", "").lower() != "off":
            m.setenv("BWLAB_JOURNAL", str(tmp / "journal"))
        for name, (args, codes) in COMMANDS.items():
            docs[name] = _run_json(args, codes)
        cards, suite, baseline = private_lab(
            tmp, {"max_games = 4096": "max_games = 256", "min_games = 1024": "min_games = 64",
                  "round = 128": "round = 64"}, {"boards = 128": "boards = 64"})
        common = ("drift", "--cards", cards, "--suite", suite, "--baseline", baseline)
        docs["drift"] = _run_json(common, (0, 1, 3))
        docs["drift-update"] = _run_json(common + ("--update",), (0,))
    return docs


def _run_json(args, codes) -> dict:
    """The JSON document ``bwlab ARGS --format json --quiet`` prints on stdout."""
    from sim.cli.main import main

    with pytest.MonkeyPatch.context() as m:
        out = io.StringIO()
        m.setattr(sys, "stdout", out)
        code = main([str(a) for a in args] + ["--format", "json", "--quiet"])
    assert code in codes, (args, code)
    return json.loads(out.getvalue())


def test_every_schema_is_documented():
    assert set(_documented()) == set(SCHEMAS)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_a_document_opens_with_its_schema_and_has_the_keys_docs_list(documents, name):
    doc = documents[name]
    assert next(iter(doc)) == "schema" and doc["schema"] == SCHEMAS[name]
    assert re.search(rf"^- `{re.escape(SCHEMAS[name])}` ", DOC, re.M), "docs/json.md's version"
    assert set(doc) == _documented()[name], set(doc) ^ _documented()[name]


def test_every_glossary_path_is_in_its_document(documents):
    missing = []
    for name, path in _glossary():
        value = documents[name]
        for part in re.findall(r"\w+|\[\]", path):
            if part == "[]":
                assert isinstance(value, list) and value, (name, path)
                value = value[0]
            elif isinstance(value, dict) and part in value:
                value = value[part]
            else:
                missing.append(f"{name}: {path}")
                break
    assert not missing and _glossary(), missing


def test_the_cli_kit_reads_the_same_document(capsys):
    """The schema id is the document's first key on stdout, as a script reads it."""
    code, out, _ = run(capsys, "combat", "--attacks", "2", "--tier", "1", "--defense", "1",
                       "--format", "json")
    assert code == 0 and out.lstrip().startswith('{\n  "schema": "bwlab.combat/1"')
