"""The rulesets' docs map each rule and worked example to its test by name: every test
they name exists (a test renamed or removed must take its row with it); and they name
every refusal code their ruleset gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.rules import all_rulesets, get_ruleset
from service.rules.seating import TABLE_RULES
from tests.conftest import REPO

DOCS = sorted((REPO / "docs" / "rulesets").glob("*.md"))
#: a test's name, not a file's (``test_longest_road.py``) nor a prefix (``test_end_...``,
#: ``test_farmers_*``)
NAMED = re.compile(r"\b(test_\w+)\b(?!\.py|\.\.\.|\*)")
PREFIX = re.compile(r"\b(test_\w+)(?:\.\.\.|\*)")


def defined_tests() -> set[str]:
    return {
        name
        for path in (REPO / "tests").rglob("test_*.py")
        for name in re.findall(r"^\s*def (test_\w+)\(", path.read_text(), re.M)
    }


@pytest.mark.parametrize("doc", DOCS, ids=[doc.name for doc in DOCS])
def test_every_test_the_docs_name_exists(doc: Path) -> None:
    text, tests = doc.read_text(), defined_tests()
    named = set(NAMED.findall(text))
    assert named, f"{doc.name} names no test"
    assert sorted(named - tests) == []
    prefixes = set(PREFIX.findall(text))
    assert sorted(p for p in prefixes if not any(t.startswith(p) for t in tests)) == []


#: each ruleset's docs: the refusals are listed there, the table's in docs/matches.md
RULESET_DOCS = {
    "carcassonne": ["carcassonne.md"],
    "carcassonne-south-seas": ["carcassonne-south-seas.md"],
    "catan": ["catan.md", "catan-seafarers.md"],
}


@pytest.mark.parametrize("name", [ruleset.name for ruleset in all_rulesets()])
def test_the_docs_name_every_refusal_code(name: str) -> None:
    text = "".join((REPO / "docs" / "rulesets" / doc).read_text() for doc in RULESET_DOCS[name])
    table = (REPO / "docs" / "matches.md").read_text()
    codes = get_ruleset(name).describe()["rules"]
    unnamed = [
        code for code in codes if f"`{code}`" not in (table if code in TABLE_RULES else text)
    ]
    assert unnamed == []
