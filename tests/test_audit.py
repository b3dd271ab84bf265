"""``cloversolve audit``: honest claims agree, tampering is caught with its deal number, a proof
beyond the budget is counted as not re-checked, and bad input is one line."""

import subprocess
from pathlib import Path

import orjson
import pytest
from helpers import CLOVERSOLVE, study_json

from cloversolve.audit.checks import NOT_RECHECKED, UNSUPPORTED, AuditBudget, Claim, audit_claim
from cloversolve.audit.claims import read_claims
from cloversolve.audit.run import run_audit
from cloversolve.runs.study_files import read_verdicts

ROOT = Path(__file__).parent.parent


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLOVERSOLVE, *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def study_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The verdicts and certificates of thirteen deals 1..40."""
    folder = tmp_path_factory.mktemp("study")
    verdicts, proofs = folder / "t.verdicts", folder / "t.certificates"
    done = cli(
        "study", "thirteen", "--deals", "1..40", "--verdicts", str(verdicts),
        "--certificates", str(proofs),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return verdicts, proofs


def audit(*args: str) -> tuple[int, dict]:
    done = cli("audit", *args, "--json", "--no-progress")
    assert "Traceback" not in done.stderr
    return done.returncode, orjson.loads(done.stdout) if done.stdout else {}


def test_honest_verdicts_and_certificates_agree(study_files: tuple[Path, Path]) -> None:
    verdicts, proofs = study_files
    letters = verdicts.read_text().splitlines()[1]
    assert proofs.read_text().count("\n") == 41  # the header and one line per deal
    status, summary = audit(str(verdicts), "--certificates", str(proofs), "--jobs", "2")
    assert status == 0
    assert (summary["checked"], summary["agreed"], summary["disagreeing_deals"]) == (40, 40, [])
    assert summary["by_certificate"] == {
        "king-bottom agreed": letters.count("u"),
        "route agreed": letters.count("s"),
    }


def flipped(verdicts: Path, folder: Path) -> tuple[Path, list[int]]:
    """The verdict file with its first ``s`` and first ``u`` swapped; the two deals."""
    header, letters = verdicts.read_text().splitlines()
    solvable, lost = letters.index("s"), letters.index("u")
    tampered = list(letters)
    tampered[solvable], tampered[lost] = "u", "s"
    path = folder / "flipped.verdicts"
    path.write_text(f"{header}\n{''.join(tampered)}\n")
    return path, sorted([solvable + 1, lost + 1])


def test_a_flipped_letter_is_reported_with_its_deal_number(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    path, deals = flipped(study_files[0], tmp_path)
    status, summary = audit(str(path))
    assert status == 1 and summary["contradicted"] == 2
    assert summary["disagreeing_deals"] == deals
    reasons = {reason.partition(":")[0] for _, _, reason in summary["disagreements"]}
    assert reasons == {"the search's route certificate", "the search's king-bottom certificate"}
    # With the side file, each flipped letter has a certificate of the other verdict.
    status, summary = audit(str(path), "--certificates", str(study_files[1]))
    assert status == 1 and (summary["contradicted"], summary["refused"]) == (0, 2)
    assert summary["disagreeing_deals"] == deals


def tampered_certificates(proofs: Path, folder: Path, number: int, text: str) -> Path:
    lines = proofs.read_text().splitlines()
    lines = [f"{number} {text}" if line.startswith(f"{number} ") else line for line in lines]
    path = folder / "tampered.certificates"
    path.write_text("\n".join(lines) + "\n")
    return path


def certificate_of(proofs: Path, number: int) -> str:
    line = next(line for line in proofs.read_text().splitlines() if line.startswith(f"{number} "))
    return line.partition(" ")[2]


def test_a_corrupted_route_and_a_forged_witness_are_refused(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    letters = verdicts.read_text().splitlines()[1]
    solvable, lost = letters.index("s") + 1, letters.index("u") + 1
    kind, first, second, *rest = certificate_of(proofs, solvable).split()
    swapped = " ".join([kind, second, first, *rest])
    bottoms = certificate_of(proofs, lost).split()
    forged_bottoms = " ".join([bottoms[0], "KS" if bottoms[1] != "KS" else "KH", *bottoms[2:]])
    cases = {
        solvable: swapped,  # two moves swapped
        lost: forged_bottoms,  # a King where the pile has none
    }
    for number, text in cases.items():
        path = tampered_certificates(proofs, tmp_path, number, text)
        status, summary = audit(str(verdicts), "--certificates", str(path))
        assert status == 1 and summary["refused"] == 1, summary
        assert summary["disagreeing_deals"] == [number]


def test_a_proof_beyond_the_budget_is_counted_as_not_rechecked(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    path, deals = flipped(verdicts, tmp_path)
    claimed_lost = deals[0] if path.read_text().splitlines()[1][deals[0] - 1] == "u" else deals[1]
    # The route is withheld: an exhaustive proof of the claimed loss cannot end in 5 positions.
    sparse = tampered_certificates(
        proofs, tmp_path, claimed_lost, "exhausted-search states=1 nodes=1"
    )
    claims = read_claims(path, str(sparse)).select(only="unsolvable")
    report = run_audit(claims, AuditBudget(max_positions=5))
    summary = report.to_json()
    assert summary["not_rechecked"] == 1 and summary["disagreeing_deals"] == []
    assert summary["agreed"] == summary["checked"] - 1


def test_a_catalogue_and_a_study_json_are_read(tmp_path: Path) -> None:
    status, summary = audit(str(ROOT / "catalogues" / "thirteen.json"), "--sample", "3")
    assert status == 0 and (summary["checked"], summary["agreed"]) == (3, 3)
    study = tmp_path / "study.json"
    per_deal = {6: "unsolvable", 7: "limit", 8: "solved", 9: "solved"}
    study.write_bytes(orjson.dumps(study_json("thirteen", per_deal)))
    status, summary = audit(str(study))
    assert status == 1 and summary["disagreeing_deals"] == [9]
    assert (summary["checked"], summary["undecided_skipped"]) == (3, 1)


def test_bad_input_is_one_line(study_files: tuple[Path, Path], tmp_path: Path) -> None:
    header = study_files[0].read_text().splitlines()[0]
    wrong_letter = tmp_path / "x.verdicts"
    wrong_letter.write_text(f"{header}\nssx\n")
    not_claims = tmp_path / "list.json"
    not_claims.write_text("[1, 2]")
    cases = {
        str(tmp_path / "missing.verdicts"): "missing.verdicts",
        str(wrong_letter): "deal 3 has the letter 'x'",
        str(not_claims): "list.json",
    }
    for path, quoted in cases.items():
        done = cli("audit", path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and quoted in done.stderr, done.stderr
    garbled = tmp_path / "garbled.certificates"
    garbled.write_text(study_files[1].read_text().splitlines()[0] + "\nseven route 4>F\n")
    for args in (
        ["--sample", "0"],
        ["--certificates", str(tmp_path / "missing.certificates")],
        ["--certificates", str(garbled)],
        ["--certificates", str(study_files[0])],
    ):
        done = cli("audit", str(study_files[0]), *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


def test_a_solvable_claim_the_search_finds_lost_is_unsupported_when_not_proved() -> None:
    letters = read_verdicts(ROOT / "benchmarks" / "results" / "verdicts" / "blackhole.verdicts")[1]
    lost = letters.index("u") + 1
    claim = Claim(lost, "solved")
    finding, kind, reason = audit_claim("blackhole", AuditBudget(max_positions=1), claim)
    assert (finding, kind) == (UNSUPPORTED, "exhausted-search"), reason
    assert reason.startswith(
        "no route given; the search finds the deal lost (exhausted-search), and plain Python "
        "does not prove it: not exhausted within"
    ), reason
    assert audit_claim("blackhole", AuditBudget(max_positions=1), Claim(lost, "unsolvable"))[0] == (
        NOT_RECHECKED
    )


def test_a_damaged_catalogue_entry_is_refused_by_its_deal_number(tmp_path: Path) -> None:
    catalogue = orjson.loads((ROOT / "catalogues" / "thirteen.json").read_bytes())
    entries = catalogue["deals"][:3]
    piles = entries[0]["layout"]["piles"]
    piles[0], piles[1] = piles[1], piles[0]  # a layout that is not its deal's
    entries[1]["route_length"] += 1  # an entry that cannot be read
    entries.append(entries[2])  # a deal listed twice
    damaged = tmp_path / "damaged.json"
    damaged.write_bytes(orjson.dumps({**catalogue, "deals": entries}))
    status, summary = audit(str(damaged))
    assert status == 1 and (summary["checked"], summary["agreed"]) == (4, 1)
    numbers = [entry["number"] for entry in entries]
    assert summary["disagreeing_deals"] == numbers[:2] + numbers[3:]
    reasons = [reason for _, _, reason in summary["disagreements"]]
    assert reasons[0].startswith(f"layout is not thirteen deal {numbers[0]} (piles[0] is")
    assert "route_length" in reasons[1] and "listed again" in reasons[2]
    del entries[0]["number"]  # no deal number: the file cannot be read as claims
    damaged.write_bytes(orjson.dumps({**catalogue, "deals": entries}))
    done = cli("audit", str(damaged))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "deals/0: 'number' is a required property" in done.stderr, done.stderr


def test_a_catalogue_entry_catalogue_verify_refuses_is_a_claim_refused(tmp_path: Path) -> None:
    catalogue = orjson.loads((ROOT / "catalogues" / "thirteen.json").read_bytes())
    entries = catalogue["deals"][:3]
    entries[0] = {**entries[0], "note": "x"}  # a key no entry has
    entries[1] = {**entries[1], "number": str(entries[1]["number"])}  # a number as text
    damaged = tmp_path / "damaged.json"
    damaged.write_bytes(orjson.dumps({**catalogue, "deals": entries}))
    status, summary = audit(str(damaged))
    numbers = [int(entry["number"]) for entry in entries]
    assert status == 1 and summary["disagreeing_deals"] == numbers[:2], summary
    reasons = [reason for _, _, reason in summary["disagreements"]]
    assert "('note' was unexpected)" in reasons[0]
    assert f'number "{numbers[1]}" must be written as a JSON integer' in reasons[1]


def side_file(proofs: Path, folder: Path, header: str | None, *lines: str) -> Path:
    path = folder / "side.certificates"
    first = header if header is not None else proofs.read_text().splitlines()[0]
    path.write_text("\n".join([first, *lines]) + "\n")
    return path


def test_a_side_file_that_does_not_fit_its_verdict_file_is_refused(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    one = next(line for line in proofs.read_text().splitlines()[1:] if line.startswith("1 "))
    header = proofs.read_text().splitlines()[0]
    cases = {
        side_file(proofs, tmp_path, None, "41 route 4>F"): "'41 route 4>F': deal 41 is not one",
        side_file(proofs, tmp_path, None, one, one): "line 3: '1 route",
        side_file(proofs, tmp_path, header.replace('"first":1', '"first":2')): "first deal is 2",
    }
    for path, quoted in cases.items():
        done = cli("audit", str(verdicts), "--certificates", str(path))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and quoted in done.stderr, done.stderr


def test_an_unknown_reduction_is_a_false_certificate(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    lost = verdicts.read_text().splitlines()[1].index("u") + 1
    forged = f"{lost} exhausted-search states=5 nodes=5 transposition-table,made-up-trick"
    status, summary = audit(
        str(verdicts), "--certificates", str(side_file(proofs, tmp_path, None, forged))
    )
    assert status == 1 and summary["disagreements"] == [
        [lost, "refused", "'made-up-trick' is not a reduction of this game's search"]
    ]


def test_nothing_to_audit_is_said_in_one_line(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    header = study_files[0].read_text().splitlines()[0]
    empty, undecided, all_lost = (tmp_path / f"{name}.verdicts" for name in "eau")
    empty.write_text(f"{header}\n")
    undecided.write_text(f"{header}\n???\n")
    all_lost.write_text(f"{header}\nuuu\n")
    study = tmp_path / "study.json"
    study.write_bytes(orjson.dumps(study_json("thirteen", {})))
    catalogue = orjson.loads((ROOT / "catalogues" / "thirteen.json").read_bytes())
    no_deals = tmp_path / "no-deals.json"
    no_deals.write_bytes(orjson.dumps({**catalogue, "deals": []}))
    cases = {
        (str(empty),): "it holds no deals",
        (str(study),): "it holds no deals",
        (str(no_deals),): "it holds no deals",
        (str(undecided),): "its 3 deals are all undecided",
        (str(all_lost), "--only", "solvable"): "--only solvable selects none of the 3 claims",
    }
    for args, said in cases.items():
        done = cli("audit", *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and "nothing to audit" in done.stderr
        assert said in done.stderr, done.stderr


def test_a_checkpoint_is_recognised(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    done = cli("study", "thirteen", "--deals", "1..3", "--checkpoint", str(checkpoint))
    assert done.returncode == 0 and checkpoint.is_file(), done.stderr
    done = cli("audit", str(checkpoint))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "run.ckpt' is a build/study checkpoint, not a result file" in done.stderr


def test_a_verdict_file_with_crlf_line_ends_is_read(
    study_files: tuple[Path, Path], tmp_path: Path
) -> None:
    verdicts, proofs = study_files
    crlf = tmp_path / "crlf.verdicts"
    crlf.write_bytes(verdicts.read_bytes().replace(b"\n", b"\r\n"))
    proofs_crlf = tmp_path / "crlf.certificates"
    proofs_crlf.write_bytes(proofs.read_bytes().replace(b"\n", b"\r\n"))
    status, summary = audit(str(crlf), "--certificates", str(proofs_crlf))
    assert status == 0 and (summary["checked"], summary["agreed"]) == (40, 40)
