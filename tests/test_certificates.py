"""Certificates: every verdict carries one, plain Python checks it, and a forged one is refused."""

import random

import pytest
from small_games import random_tiny_clover_deal, round_robin_tiny_game

from cloversolve.audit.checks import FALSE, LOST, OPEN, WON, check_certificate
from cloversolve.core.verdicts import Method, Status
from cloversolve.families.clover import search as clover
from cloversolve.families.thirteen import search as thirteen
from cloversolve.families.thirteen.rules import ThirteenPosition
from cloversolve.games.dealing import deal
from cloversolve.rules.exhaustive import solve_exhaustively
from cloversolve.solving.certificates import (
    BURIED_RANK,
    EXHAUSTED,
    KING_BOTTOM,
    ROUTE,
    SUIT_PROJECTION,
    Certificate,
    CertificateError,
    certificate_from_json,
    certify,
    parse_certificate,
)
from cloversolve.solving.solver import solve


def position_of(preset: str, number: int) -> ThirteenPosition:
    return ThirteenPosition.from_layout(deal(preset, number))


def test_solve_carries_the_route_and_the_king_bottom_piles() -> None:
    won, lost = solve("thirteen", 1), solve("thirteen", 6)
    assert won.certificate == Certificate(ROUTE, {"route": won.route_strings})
    assert lost.method is Method.KING_BOTTOM and lost.certificate is not None
    assert lost.certificate.kind == KING_BOTTOM
    bottoms = [str(pile[0]) for pile in position_of("thirteen", 6).piles]
    assert lost.to_json()["certificate"] == {"kind": KING_BOTTOM, "bottoms": bottoms}
    assert check_certificate(position_of("thirteen", 6), lost.certificate, None)[0] == LOST
    assert solve("thirteen", 1, max_nodes=1).certificate is None


@pytest.mark.parametrize("preset", ["thirteen", "thirteen-return"])
def test_buried_rank_names_the_rank_and_the_cards_that_bury_it(preset: str) -> None:
    result = solve(preset, 26816)
    assert result.method is Method.BURIED_RANK and result.certificate is not None
    assert result.certificate.to_json() == {
        "kind": BURIED_RANK,
        "buried": [{"rank": 7, "under": ["8C", "8S", "8H"]}],
    }
    position = position_of(preset, 26816)
    assert check_certificate(position, result.certificate, None)[0] == LOST
    for forged in ("buried-rank 7:8C,8S", "buried-rank 9:8C,8S,8H", "buried-rank 5:4C"):
        assert check_certificate(position, parse_certificate(forged), None)[0] == FALSE


def test_a_forged_king_bottom_witness_is_refused() -> None:
    lost, won = position_of("thirteen", 6), position_of("thirteen", 1)
    honest = Certificate(KING_BOTTOM, {"bottoms": [str(pile[0]) for pile in lost.piles]})
    wrong_card = Certificate(KING_BOTTOM, {"bottoms": ["5H", *honest.fields["bottoms"][1:]]})
    assert check_certificate(lost.copy(), wrong_card, None)[0] == FALSE
    kings = Certificate(KING_BOTTOM, {"bottoms": [str(pile[0]) for pile in won.piles]})
    verdict, reason = check_certificate(won, kings, None)
    assert verdict == FALSE and "last-rank" in reason
    assert check_certificate(won, parse_certificate("suit-projection CH"), None)[0] == FALSE


def test_an_exhausted_search_naming_an_unknown_reduction_is_refused() -> None:
    forged = parse_certificate("exhausted-search states=1 nodes=1 made-up-trick")
    verdict, reason = check_certificate(position_of("thirteen", 6), forged, None)
    assert (verdict, reason) == (FALSE, "'made-up-trick' is not a reduction of this game's search")
    named = parse_certificate("exhausted-search states=1 nodes=1 transposition-table")
    assert check_certificate(position_of("thirteen", 6), named, 1)[0] == OPEN  # names known


def test_a_corrupted_route_is_refused() -> None:
    route = solve("thirteen", 1).route_strings
    assert (
        check_certificate(
            position_of("thirteen", 1), parse_certificate(" ".join(["route", *route])), None
        )[0]
        == WON
    )
    for bad in (route[:-1], [route[1], route[0], *route[2:]], ["9>Q", *route[1:]]):
        verdict, _ = check_certificate(
            position_of("thirteen", 1), Certificate(ROUTE, {"route": bad}), None
        )
        assert verdict == FALSE


def test_thirteen_tiny_games_certificates_agree_with_their_verdicts() -> None:
    kinds = set()
    for seed in range(60):
        position = round_robin_tiny_game(
            ThirteenPosition, seed, ranks=4, suits=2, piles=3, allow_return=seed % 2 == 1
        )
        outcome = thirteen.search(position)
        certificate = certify(position, outcome, "thirteen")
        assert certificate is not None
        kinds.add(certificate.kind)
        verdict, reason = check_certificate(position.copy(), certificate, None)
        assert verdict == (WON if outcome.status is Status.SOLVED else LOST), (seed, reason)
    assert {ROUTE, KING_BOTTOM, BURIED_RANK} <= kinds


def test_clover_tiny_games_certificates_agree_with_their_verdicts() -> None:
    rng = random.Random(5)
    projections = forged = 0
    for _ in range(80):
        position = random_tiny_clover_deal(rng, 4, 3)
        outcome = clover.search(position)
        certificate = certify(position, outcome, "clover")
        assert certificate is not None
        verdict, reason = check_certificate(position.copy(), certificate, None)
        assert verdict == (WON if outcome.status is Status.SOLVED else LOST), reason
        if certificate.kind == SUIT_PROJECTION:
            projections += 1
            for suits in ("CD", "CH", "CS", "DH", "DS", "HS"):
                other = parse_certificate(f"{SUIT_PROJECTION} {suits}")
                if suits != certificate.fields["suits"]:
                    forged += check_certificate(position.copy(), other, None)[0] == FALSE
    assert projections >= 3 and forged >= 3


def test_an_exhaustive_proof_beyond_its_budget_is_not_rechecked() -> None:
    rng = random.Random(7)
    games = (random_tiny_clover_deal(rng, 4, 3) for _ in range(200))
    position = next(
        p
        for p in games
        if clover.search(p).method is Method.EXHAUSTED
        and solve_exhaustively(p.copy()).positions > 20
    )
    proof = certify(position, clover.search(position), "clover")
    assert proof is not None and proof.kind == EXHAUSTED
    assert check_certificate(position.copy(), proof, 10)[0] == OPEN
    assert check_certificate(position.copy(), proof, None)[0] == LOST


@pytest.mark.parametrize(
    "text",
    [
        "route 4>F 3>1",
        "king-bottom 5H QC -",
        "buried-rank 8:7S,9C 9:8D",
        "suit-projection CHS",
        "exhausted-search states=12 nodes=40 king-bottom,buried-rank",
        "exhausted-search states=0 nodes=1",
    ],
)
def test_text_and_json_forms_round_trip(text: str) -> None:
    certificate = parse_certificate(text)
    assert certificate.to_text() == text
    assert certificate_from_json(certificate.to_json()) == certificate


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "proof 4>F",
        "king-bottom 5H XX",
        "buried-rank 14:7S",
        "buried-rank 8",
        "suit-projection CC",
        "suit-projection CDHS",
        "exhausted-search states=x nodes=1",
        "exhausted-search states=05 nodes=1",
        "exhausted-search states=5 nodes=00",
        "buried-rank 08:7S",
        " route 4>F",
        "route  4>F 3>1",
        "route 4>F\t",
        "suit-projection CH ",
    ],
)
def test_malformed_certificates_are_refused_in_one_line(bad: str) -> None:
    with pytest.raises(CertificateError):
        parse_certificate(bad)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "route", "route": [1, 2]},
        {"kind": "route", "route": ["4>F 3>1"]},
        {"kind": "king-bottom"},
        {"kind": "buried-rank", "buried": [{"rank": "8", "under": ["7S"]}]},
        ["route"],
    ],
)
def test_malformed_json_certificates_are_refused(data: object) -> None:
    with pytest.raises(CertificateError):
        certificate_from_json(data)
