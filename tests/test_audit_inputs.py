"""``cloversolve audit`` given hostile input: a certificate of the other verdict, a study JSON
whose summary is not its per-deal verdicts, headers of an unknown version, a byte-order mark
and bytes that are not verdict letters; and ``--json`` naming every deal not re-checked."""

import subprocess
from pathlib import Path

import orjson
import pytest
from helpers import CLOVERSOLVE, load_benchmark, study_json

from cloversolve.audit.checks import NOT_RECHECKED, REFUSED, AuditBudget, Claim, audit_claim
from cloversolve.core.inputs import InputFileError
from cloversolve.core.jsonio import shown
from cloversolve.runs.study_files import STUDY_JSON_ALL_FIELDS, read_verdicts

ROOT = Path(__file__).parent.parent
BOM = b"\xef\xbb\xbf"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLOVERSOLVE, *args], capture_output=True, text=True, timeout=600)


def audit(*args: str) -> tuple[int, dict]:
    done = cli("audit", *args, "--json", "--no-progress")
    assert "Traceback" not in done.stderr
    return done.returncode, orjson.loads(done.stdout) if done.stdout else {}


def refused_in_one_line(*args: str) -> str:
    """The one line of a refused ``audit`` (exit status 2)."""
    done = cli("audit", *args, "--no-progress")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    return done.stderr


@pytest.fixture(scope="module")
def study_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The verdicts and certificates of thirteen deals 1..20."""
    folder = tmp_path_factory.mktemp("study")
    verdicts, proofs = folder / "t.verdicts", folder / "t.certificates"
    done = cli(
        "study", "thirteen", "--deals", "1..20", "--verdicts", str(verdicts),
        "--certificates", str(proofs),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return verdicts, proofs


def without(data: dict, key: str) -> dict:
    return {name: value for name, value in data.items() if name != key}


def letters_of(verdicts: Path) -> str:
    return verdicts.read_text().splitlines()[1]


def with_line(proofs: Path, folder: Path, number: int, text: str) -> Path:
    """The side file with deal ``number``'s certificate replaced by ``text``."""
    lines = proofs.read_text().splitlines()
    lines = [f"{number} {text}" if line.startswith(f"{number} ") else line for line in lines]
    path = folder / "forged.certificates"
    path.write_text("\n".join(lines) + "\n")
    return path


def certificate_of(proofs: Path, number: int) -> str:
    line = next(line for line in proofs.read_text().splitlines() if line.startswith(f"{number} "))
    return line.partition(" ")[2]


def test_a_loss_certificate_on_a_solvable_claim_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    solvable = letters_of(verdicts).index("s") + 1
    forged = with_line(
        proofs, tmp_path, solvable, "exhausted-search states=5 nodes=5 transposition-table"
    )
    status, summary = audit(str(verdicts), "--certificates", str(forged))
    assert status == 1 and summary["disagreements"] == [
        [
            solvable,
            "refused",
            "a certificate of a loss (exhausted-search) given for a solvable claim",
        ]
    ]
    done = cli("audit", str(verdicts), "--certificates", str(forged), "--no-progress")
    assert done.returncode == 1 and f"deal {solvable}: refused:" in done.stdout


@pytest.mark.parametrize(
    ("preset", "number", "certificate"),
    [
        ("blackhole", 2, "exhausted-search states=3 nodes=3 reverse,rank-walk"),
        ("alexander", 1, "exhausted-search states=5 nodes=5 transposition-table"),
        ("cloverleaf", 1, "suit-projection CH"),
    ],
)
def test_a_forged_loss_of_a_solvable_deal_is_refused_and_says_no_search_ran(
    preset: str, number: int, certificate: str
) -> None:
    budget = AuditBudget(max_nodes=1, time_limit=0.01, max_positions=10)
    finding, kind, reason = audit_claim(preset, budget, Claim(number, "solved", certificate))
    kind_given = certificate.split()[0]
    assert (finding, kind) == (REFUSED, kind_given)
    assert reason == f"a certificate of a loss ({kind_given}) given for a solvable claim"


def test_a_winning_route_on_an_unsolvable_claim_is_refused(
    study_files: tuple[Path, Path],
) -> None:
    verdicts, proofs = study_files
    solvable = letters_of(verdicts).index("s") + 1
    route = certificate_of(proofs, solvable)
    finding, kind, reason = audit_claim(
        "thirteen", AuditBudget(), Claim(solvable, "unsolvable", route)
    )
    assert (finding, kind, reason) == (
        REFUSED,
        "route",
        "a route (a certificate of a win) given for an unsolvable claim",
    )


def test_a_study_json_must_be_consistent(tmp_path: Path) -> None:
    done = cli("study", "thirteen", "--deals", "5..7", "--json", "--per-deal")
    honest = orjson.loads(done.stdout)
    made = study_json("thirteen", {5: "solved", 6: "unsolvable", 7: "unsolvable"})
    assert honest["methods"] == {"king-bottom-condition": 2, "route-found": 1}
    assert made["methods"] == {"exhausted-search": 2, "route-found": 1}
    assert honest == {**honest, **made, "methods": honest["methods"]}  # (as study writes)
    stray = {**honest, "per_deal": {**honest["per_deal"], "900": "unsolvable"}}
    stray["unsolvable"] += 1
    stray["deals"] = {**stray["deals"], "count": 4}
    miscounted = {**honest, "solvable": 2}
    again = {**honest, "per_deal": {"5": "solved", "5 ": "unsolvable", "7": "unsolvable"}}
    zero = {**honest, "per_deal": {"05": "solved", "6": "unsolvable", "7": "unsolvable"}}
    wrong_span = {**honest, "deals": {"first": 5, "last": 9, "count": 3}}
    no_span = {key: value for key, value in honest.items() if key != "deals"}
    assert set(honest) == STUDY_JSON_ALL_FIELDS  # (every field a study writes, and no other)
    budget = honest["budget"]
    cases = {
        "first-as-text": (
            {**honest, "deals": {**honest["deals"], "first": "5"}},
            "not a range of deals in their JSON form",
        ),
        "last-as-text": ({**honest, "deals": {**honest["deals"], "last": "7"}}, "JSON form"),
        "unknown-field": ({**honest, "note": "by hand"}, 'the unknown field "note"'),
        "negative-budget": (
            {**honest, "budget": {**budget, "max_nodes": -5}},
            "'budget': 'max_nodes' is -5, not a whole number from 1 to 2**62",
        ),
        "budget-field": (
            {**honest, "budget": {**budget, "nodes": 5}},
            "'budget' has the unknown field \"nodes\"",
        ),
        "budget-text": ({**honest, "budget": "none"}, "'budget' is \"none\", not an object"),
        "stray": (stray, "deal 900 of 'per_deal' is outside 5..7"),
        "miscounted": (miscounted, "'solvable' is 2, 'per_deal' holds 1"),
        "again": (again, '"5 " is not a deal number'),
        "leading-zero": (zero, '"05" is not a deal number'),
        "wrong-span": (wrong_span, "5..9 is not 3 deals"),
        "no-span": (no_span, "no 'deals' (a study's JSON, study --json --per-deal, has preset,"),
        "no-methods": (without(honest, "methods"), "no 'methods'"),
        "no-rate": (without(honest, "solvable_rate"), "no 'solvable_rate'"),
        "no-counts": (without(honest, "undecided"), "no 'undecided'"),
        "other-family": (
            {**honest, "preset": "cloverleaf"},
            "'methods' names \"king-bottom-condition\", which the search of cloverleaf never "
            "reports (it reports budget-exhausted, exhausted-search, route-found, "
            "suit-projection)",
        ),
        "other-family-no-witness": (
            {**honest, "preset": "blackhole"},
            "which the search of blackhole never reports",
        ),
        "bench": ({**honest, "deals": "5..7"}, "'deals' is \"5..7\""),
        "methods": ({**honest, "methods": {"route-found": 2}}, "'methods' is {\"route-found\":2}"),
        "rate": ({**honest, "solvable_rate": 0.5}, "'solvable_rate' is 0.5, not 0.333"),
        "methods-of-other-verdicts": (
            {**honest, "methods": {"exhausted-search": 3}},
            "'methods' counts 0 solvable deals, 'per_deal' holds 1",
        ),
        "unknown-method": (
            {**honest, "methods": {"route-found": 1, "guesswork": 2}},
            "'methods' names \"guesswork\", not a search method",
        ),
    }
    for name, (data, quoted) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(orjson.dumps(data))
        said = refused_in_one_line(str(path))
        assert f"study JSON {str(path)!r}: " in said and quoted in said, said
    path = tmp_path / "honest.json"
    path.write_bytes(orjson.dumps(honest))
    status, summary = audit(str(path))
    assert (status, summary["checked"], summary["agreed"]) == (0, 3, 3)


def test_a_header_of_an_unknown_version_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    future = tmp_path / "future.verdicts"
    future.write_text(verdicts.read_text().replace('"version":1', '"version":2', 1))
    said = refused_in_one_line(str(future))
    assert f"verdict file {str(future)!r} is of version 2" in said, said
    unversioned = tmp_path / "unversioned.verdicts"
    unversioned.write_text(verdicts.read_text().replace('"version":1,', "", 1))
    said = refused_in_one_line(str(unversioned))
    assert f"verdict file {str(unversioned)!r}: its header has no 'version'" in said, said
    side = tmp_path / "future.certificates"
    side.write_text(proofs.read_text().replace('"version":1', '"version":"1"', 1))
    said = refused_in_one_line(str(verdicts), "--certificates", str(side))
    assert f'certificates file {str(side)!r} is of version "1"' in said, said


@pytest.mark.parametrize(
    ("replaced", "by", "said"),
    [
        ('"max_nodes":null', '"max_nodes":-1', "'max_nodes' is -1, not a whole number from 1"),
        ('"time_limit":null', '"time_limit":"abc"', "'time_limit' is \"abc\", not a finite"),
        ('"max_memory":', '"max_memory":true,"max_memory":', 'the key "max_memory" is given twice'),
        (
            '"preset":"thirteen"',
            '"preset":"blackhole","preset":"thirteen"',
            '"preset" is given twice',
        ),
        ('"first":1', '"first":1,"note":"x"', 'its header has the unknown field "note"'),
        ('"first":1,', "", "its header has no 'first'"),
        ('"preset":"thirteen",', "", "its header has no 'preset'"),
    ],
)
def test_a_forged_verdict_header_field_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path, replaced: str, by: str, said: str
) -> None:
    verdicts, _ = study_files
    assert replaced in verdicts.read_text()
    forged = tmp_path / "forged.verdicts"
    forged.write_text(verdicts.read_text().replace(replaced, by, 1))
    line = refused_in_one_line(str(forged))
    assert f"verdict file {str(forged)!r}: " in line and said in line, line


@pytest.mark.parametrize("first", ['"1"', "1.0", "true", '"01"', f'"{2**53 - 1}"', f"{2**53}"])
def test_a_header_deal_number_not_in_its_json_form_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path, first: str
) -> None:
    verdicts, proofs = study_files
    forged = tmp_path / "text.verdicts"
    forged.write_text(verdicts.read_text().replace('"first":1', f'"first":{first}', 1))
    line = refused_in_one_line(str(forged))
    assert f"verdict file {str(forged)!r}: 'first' is {first}, not a deal number" in line, line
    side = tmp_path / "text.certificates"
    side.write_text(proofs.read_text().replace('"first":1', f'"first":{first}', 1))
    line = refused_in_one_line(str(verdicts), "--certificates", str(side))
    assert f"'first' is {first}, not a deal number" in line, line


def test_a_big_first_deal_is_read_as_decimal_text(tmp_path: Path) -> None:
    big = 2**53
    path = tmp_path / "big.verdicts"
    header = {"format": "cloversolve-verdicts", "version": 1, "preset": "fifteen", "first": big}
    path.write_bytes(orjson.dumps({**header, "first": str(big)}) + b"\ns?\n")
    assert read_verdicts(path) == ({**header, "first": big}, "s?")


@pytest.mark.parametrize("first_line", ["[1,2]", '{"format":"cloversolve-verdict"}', "s?u"])
def test_a_file_that_opens_with_no_header_is_refused_quoting_its_first_line(
    tmp_path: Path, first_line: str
) -> None:
    path = tmp_path / "headless.verdicts"
    path.write_text(first_line + "\nsu\n")
    with pytest.raises(InputFileError) as refused:
        read_verdicts(path)
    said = str(refused.value)
    assert "does not open with a 'cloversolve-verdicts' header" in said, said
    assert f"(its first line is {first_line!r})" in said, said
    line = refused_in_one_line(str(path))  # (audit: no header, and no JSON either)
    assert f"its first line, {first_line!r}, is no 'cloversolve-verdicts' header" in line, line


def test_a_forged_certificates_header_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    side = tmp_path / "forged.certificates"
    side.write_text(proofs.read_text().replace('"first":1', '"first":1,"max_nodes":5', 1))
    line = refused_in_one_line(str(verdicts), "--certificates", str(side))
    assert 'its header has the unknown field "max_nodes"' in line, line
    side.write_text(proofs.read_text().replace("\n1 ", "\n01 ", 1))
    line = refused_in_one_line(str(verdicts), "--certificates", str(side))
    assert "line 2: '01 route" in line and "not a deal number and a certificate" in line, line


def test_a_side_file_that_is_not_utf8_is_refused_naming_the_byte(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    data = proofs.read_bytes()
    bad = data.index(b"\n1 ") + 3  # (the first byte of deal 1's certificate)
    side = tmp_path / "latin.certificates"
    side.write_bytes(data[:bad] + b"\xff" + data[bad + 1 :])
    line = refused_in_one_line(str(verdicts), "--certificates", str(side))
    assert f"certificates file {str(side)!r} is not UTF-8 text (byte {bad})" in line, line


@pytest.mark.parametrize(
    "line",
    [
        " {number} {certificate}",
        "{number}  {certificate}",
        "{number} {certificate}\t",
        "{number} {certificate} ",
        "{number}\t{certificate}",
        "{number} {spaced}",
        "{number} exhausted-search states=05 nodes=5 transposition-table",
        "{number} exhausted-search states=5 nodes=007 transposition-table",
        "{number} buried-rank 07:8C,8S,8H",
    ],
)
def test_a_side_file_line_not_in_its_exact_form_is_refused_quoting_it(
    study_files: tuple[Path, Path], tmp_path: Path, line: str
) -> None:
    verdicts, proofs = study_files
    lost = letters_of(verdicts).index("u") + 1
    certificate = certificate_of(proofs, lost)
    text = line.format(
        number=lost, certificate=certificate, spaced=certificate.replace(" ", "  ", 1)
    )
    lines = proofs.read_text().splitlines()
    lines = [text if entry.startswith(f"{lost} ") else entry for entry in lines]
    forged = tmp_path / "spaced.certificates"
    forged.write_text("\n".join(lines) + "\n")
    said = refused_in_one_line(str(verdicts), "--certificates", str(forged))
    assert f"{str(forged)!r} line " in said and repr(text)[:40] in said, said


def test_a_byte_order_mark_is_allowed_and_a_bad_byte_names_its_deal(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    marked, marked_proofs = tmp_path / "bom.verdicts", tmp_path / "bom.certificates"
    marked.write_bytes(BOM + verdicts.read_bytes())
    marked_proofs.write_bytes(BOM + proofs.read_bytes() + b"\r\n\n")  # empty lines hold nothing
    assert read_verdicts(marked) == read_verdicts(verdicts)
    status, summary = audit(str(marked), "--certificates", str(marked_proofs))
    assert (status, summary["checked"], summary["agreed"]) == (0, 20, 20)
    header, letters = verdicts.read_bytes().split(b"\n")[:2]
    for bad, said in {"é".encode(): "the letter 'é'", b"\xff": "the byte 0xff"}.items():
        damaged = tmp_path / "damaged.verdicts"
        damaged.write_bytes(header + b"\r\n" + letters[:6] + b"\r\n" + bad + letters[7:] + b"\n")
        line = refused_in_one_line(str(damaged))
        assert f"verdict file {str(damaged)!r}: deal 7 has {said}" in line, line


def test_the_other_readers_of_verdict_files_accept_a_byte_order_mark(tmp_path: Path) -> None:
    run_alone = load_benchmark("run_alone")
    header = b'{"format":"cloversolve-verdicts","version":1,"preset":"fifteen","first":3}'
    path = tmp_path / "marked.verdicts"
    path.write_bytes(BOM + header + b"\ns?u\n?\n")
    assert run_alone.chosen_deals(path, None) == {"fifteen": [4, 6]}
    big = 10**20 - 9  # (written as text, past what a JSON double holds)
    path.write_bytes(header.replace(b'"first":3', f'"first":"{big}"'.encode()) + b"\n?s?\n")
    assert run_alone.chosen_deals(path, None) == {"fifteen": [big, big + 2]}
    path.write_bytes(header + b"\nsu\nx\n")
    with pytest.raises(run_alone.InputError, match="deal 5 has the letter 'x'"):
        run_alone.chosen_deals(path, None)
    with pytest.raises(InputFileError, match="deal 5 has the letter 'x'"):
        read_verdicts(path)
    path.write_bytes(BOM + header + b"\ns?u\n")  # study may write over it, as over any
    done = cli("study", "fifteen", "--deals", "3..4", "--verdicts", str(path))
    assert done.returncode == 0 and read_verdicts(path)[1] == "uu", done.stderr


def test_a_file_past_the_last_deal_or_a_side_file_alone_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    header = verdicts.read_text().splitlines()[0].replace('"first":1', f'"first":"{10**20 - 2}"')
    past = tmp_path / "past.verdicts"
    past.write_text(f"{header}\nsuu\n")
    said = refused_in_one_line(str(past))
    assert f"verdict file {str(past)!r}: its 3 letters from deal {10**20 - 2} go past" in said
    said = refused_in_one_line(str(proofs))
    assert f"{str(proofs)!r} is a side file of certificates: audit its verdict file" in said


def test_a_certificate_of_an_undecided_deal_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    undecided = tmp_path / "undecided.verdicts"
    header, letters = verdicts.read_text().splitlines()
    undecided.write_text(f"{header}\n?{letters[1:]}\n")
    said = refused_in_one_line(str(undecided), "--certificates", str(proofs))
    assert "deal 1 has a certificate, but" in said and "says it is undecided" in said, said


def test_json_lists_the_deals_not_rechecked(study_files: tuple[Path, Path], tmp_path: Path) -> None:
    verdicts, proofs = study_files
    lost = [i + 1 for i, letter in enumerate(letters_of(verdicts)) if letter == "u"][:2]
    sparse = proofs
    for number in lost:  # an exhaustive proof of a whole deal does not end in 2 positions
        sparse = with_line(sparse, tmp_path, number, "exhausted-search states=1 nodes=1")
    status, summary = audit(
        str(verdicts), "--certificates", str(sparse), "--max-positions", "2", "--jobs", "2"
    )
    assert status == 0 and summary["not_rechecked"] == 2
    assert summary["not_rechecked_deals"] == lost and summary["disagreeing_deals"] == []


def test_a_claim_the_search_finds_no_certificate_for_says_so() -> None:
    budget = AuditBudget(max_nodes=1, max_positions=1)  # the search stops at its first node
    lost = read_verdicts(ROOT / "benchmarks" / "results" / "verdicts" / "blackhole.verdicts")[1]
    number = lost.index("u") + 1
    assert audit_claim("blackhole", budget, Claim(number, "unsolvable")) == [
        NOT_RECHECKED,
        None,
        "no certificate given, and the search finds none; not exhausted within 1 positions",
    ]
    assert audit_claim("blackhole", budget, Claim(number, "solved")) == [
        NOT_RECHECKED,
        None,
        "no route given, and the search finds none",
    ]


def test_a_long_refused_certificate_is_quoted_cut_and_closed() -> None:
    certificate = "exhausted-search states=-5 nodes=1e3 reverse,rank-walk"
    budget = AuditBudget(max_nodes=1, time_limit=0.01, max_positions=10)
    _, _, reason = audit_claim("thirteen", budget, Claim(1, "unsolvable", certificate))
    quoted = reason.removesuffix(" is not a certificate")
    assert quoted.startswith('"exhausted-search states=-5') and quoted.endswith('…"'), reason
    assert len(quoted) == 40
    assert shown("short") == '"short"' and shown(list(range(30))).endswith(",…")
