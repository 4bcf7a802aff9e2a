"""`tav check` and `tav lint` print for code-scanning tools, as ruff does: `--format sarif` is a
SARIF 2.1.0 log (valid against the OASIS schema, shipped in tests/data since tests have no
network) and `--format github` one GitHub Actions annotation per error,
`::error file=F,line=L,col=C,...::message`; the exit codes are those of the text output."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
UNUSED = 'game "G"\nplayers 2..3\ncounter unused per player = 0\nrounds 1 { phase p "P" { } }\n'
TWICE = 'game "G"\nplayers 2..3\ncounter pot = 0\ncounter pot = 1\n'


def _sarif(r) -> dict:
    log = json.loads(r.output)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["version"] == "2.1.0"
    return log


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "unused.tav").write_text(UNUSED)
    (tmp_path / "twice.tav").write_text(TWICE)
    (tmp_path / "clean.tav").write_text('game "G"\nplayers 2..3\n')
    return tmp_path


def test_the_schema_rejects_a_log_without_runs():
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate({"version": "2.1.0"})


def test_lint_sarif_is_a_valid_log_of_the_findings_and_the_rules(tav, here):
    r = tav("lint", "unused.tav", "--format", "sarif")
    assert r.exit_code == 1
    run = _sarif(r)["runs"][0]
    assert run["tool"]["driver"]["name"] == "tav"
    [res] = run["results"]
    assert res["ruleId"] == "TAV403" and res["level"] == "error"
    assert res["message"]["text"].startswith("counter 'unused' is never read")
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "unused.tav"
    assert loc["region"] == {"startLine": 3, "startColumn": 1, "endLine": 3, "endColumn": 30}
    rule = run["tool"]["driver"]["rules"][res["ruleIndex"]]
    assert rule["id"] == "TAV403" and rule["shortDescription"]["text"]


def test_lint_sarif_of_a_clean_file_has_no_results_and_exits_0(tav, here):
    r = tav("lint", "clean.tav", "--format", "sarif")
    assert r.exit_code == 0, r.output
    assert _sarif(r)["runs"][0]["results"] == []


def test_check_sarif_gives_each_error_with_its_note_as_a_related_location(tav, here):
    r = tav("check", "twice.tav", "unused.tav", "--format", "sarif")
    assert r.exit_code == 1
    [res] = _sarif(r)["runs"][0]["results"]
    assert res["level"] == "error" and res["message"]["text"] == "counter 'pot' is already defined"
    assert res["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    [note] = res["relatedLocations"]
    assert note["physicalLocation"]["region"]["startLine"] == 3 and "first defined here" in note["message"]["text"]


def test_check_sarif_of_clean_files_exits_0(tav, here):
    r = tav("check", "clean.tav", "--format", "sarif")
    assert r.exit_code == 0 and _sarif(r)["runs"][0]["results"] == []


def test_a_file_name_is_a_uri_in_sarif(tav, here):
    (here / "a b.tav").write_text(TWICE)
    r = tav("check", "a b.tav", "--format", "sarif")
    loc = _sarif(r)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "a%20b.tav"


def test_lint_github_is_one_error_annotation_per_finding(tav, here):
    r = tav("lint", "unused.tav", "--format", "github")
    assert r.exit_code == 1
    assert r.output.splitlines() == [
        "::error file=unused.tav,line=3,col=1,endLine=3,endColumn=30,title=tav (TAV403)::TAV403 counter 'unused' "
        "is never read: no rule, end condition or winner rule looks at it"]


def test_check_github_puts_a_note_on_the_next_line_of_the_message(tav, here):
    r = tav("check", "twice.tav", "--format", "github")
    assert r.exit_code == 1
    assert r.output.splitlines() == [
        "::error file=twice.tav,line=4,col=1,endLine=4,endColumn=16,title=tav::counter 'pot' is already defined"
        "%0Atwice.tav:3:1: note: 'pot' is first defined here"]


def test_github_escapes_commas_and_colons_in_a_file_name(tav, here):
    (here / "a,b:c.tav").write_text(TWICE)
    r = tav("check", "a,b:c.tav", "--format", "github")
    assert r.output.startswith("::error file=a%2Cb%3Ac.tav,line=4,col=1,"), r.output


def test_check_github_of_clean_files_prints_nothing_and_exits_0(tav, here):
    r = tav("check", "clean.tav", "--format", "github")
    assert r.exit_code == 0 and r.output == ""


def test_check_format_json_is_check_json(tav, here):
    a, b = tav("check", "twice.tav", "--format", "json"), tav("check", "twice.tav", "--json")
    assert a.exit_code == b.exit_code == 1 and a.output == b.output
    assert json.loads(a.output)["errors"][0]["line"] == 4
