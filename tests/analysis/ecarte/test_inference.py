"""The exact posterior of the adversary's hand given the first decisions (``infer``):
against combinatorics and against an independent enumeration through the plain
reference's reading of Hoyle's list."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.advice.inference import posterior, unseen_hands
from ecarte_sim.engine.cards import parse_card, parse_hand
from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.decisions.policies import maxims_accept

SEED_HAND = "QS JS AH 7C JD"          # the seed's example: A, the non-dealer, diamonds trumps


def _own(hand, turn_up):
    return int(parse_hand(hand, 5)), parse_card(turn_up)


@pytest.mark.quick
def test_unseen_hands_are_every_hand_of_the_other_26_cards():
    own, turn_up = _own(SEED_HAND, "8D")
    hands = unseen_hands(own, turn_up)
    assert hands.size == comb(26, 5) == 65_780 and np.unique(hands).size == hands.size
    assert not np.any(hands & np.uint32(own | 1 << turn_up))
    assert all(bin(int(h)).count("1") == 5 for h in hands[::997])


def test_without_information_the_trump_counts_are_the_hypergeometric_ones():
    own, turn_up = _own(SEED_HAND, "8D")        # one trump held, one turned: 6 unseen
    r = posterior(own, turn_up, "propose,accept", "elder", "always-accept")
    assert r["consistent"] == r["of"] == 65_780
    assert r["trump_counts"] == [comb(6, k) * comb(20, 5 - k) for k in range(6)]
    with pytest.raises(ValueError, match="'refuse' contradicts"):
        posterior(own, turn_up, "propose,refuse", "elder", "always-accept")


def test_refusal_under_the_maxims_equals_a_plain_enumeration():
    own, turn_up = _own(SEED_HAND, "8D")
    trump = turn_up >> 3
    cards = [c for c in range(32) if not own >> c & 1 and c != turn_up]
    counts = [0] * 6
    kings = 0
    for five in combinations(cards, 5):
        mask = sum(1 << c for c in five)
        if not maxims_accept(np.uint32(mask), trump):
            t = sum(1 for c in five if c >> 3 == trump)
            counts[t] += 1
            kings += (trump * 8 + 7) in five
    r = posterior(own, turn_up, "propose,refuse", "elder")
    assert r["trump_counts"] == counts and r["king_of_trumps_holders"] == kings
    assert r["consistent"] == sum(counts)
    assert r["two_trumps_or_more"] == pytest.approx(sum(counts[2:]) / sum(counts))


def test_a_proposal_under_hoyles_list_equals_the_reference_reading():
    """The dealer's view: the elder proposed, so his hand is not a jeu de règle as the
    plain reference reads the list; played, it is one. Counted over every hand."""
    own, turn_up = _own("KS QS 9S 8H 7D", "TS")
    hands = unseen_hands(own, turn_up)
    regle = np.array([R.jeu_de_regle([c for c in range(32) if int(h) >> c & 1], "S")
                      is not None for h in hands])
    trumps = np.array([bin(int(h) & 0xFF).count("1") for h in hands])     # spades: bits 0-7
    for history, held in (("propose", ~regle), ("play", regle)):
        r = posterior(own, turn_up, history, "dealer")
        assert r["consistent"] == int(held.sum()) > 0
        assert r["trump_counts"] == np.bincount(trumps[held], minlength=6)[:6].tolist()


@pytest.mark.quick
def test_infer_json_contract_and_bad_input(cli):
    run = cli("infer", SEED_HAND, "--turn-up", "8D", "--history",
              "propose,refuse", "--json")
    assert run.code == 0 and run.err == "", run
    out = json.loads(run.out)
    assert {"exact", "consistent", "of", "trump_counts", "trumps", "king_of_trumps", "suits",
            "provenance"} <= set(out)
    assert out["exact"] is True and sum(out["trump_counts"]) == out["consistent"]
    assert sum(out["trumps"]) == pytest.approx(1.0)
    assert out["suits"]["D"]["trump"] and not out["suits"]["H"]["trump"]
    from helpers import one_line_error
    for args, token in ((["--history", "propose,maybe"], "'maybe'"),
                        (["--history", "refuse"], "'refuse'"),
                        (["--history", "propose", "--opponent-model", "psychic"], "psychic"),
                        (["--history", "propose", "--role", "judge"], "judge")):
        assert token in one_line_error(cli("infer", SEED_HAND, "--turn-up", "8D", *args))
    assert "in the hand" in one_line_error(cli("infer", "QS JS AH 7C 8D", "--turn-up", "8D",
                                               "--history", "propose"))
    assert "4 cards" in one_line_error(cli("infer", "QS JS AH 7C", "--turn-up", "8D",
                                           "--history", "propose"))


def test_a_computed_table_as_opponent_model_reads_like_its_policy(cli, tmp_path):
    """The maxims written as a strategy table (tables.npz, one row per score) give the
    same posterior as the maxims themselves: the table is read by canonical state."""
    from ecarte_sim.engine.ecarte.decisions.states import N_STATES
    from ecarte_sim.engine.ecarte.decisions.tables import treatise_table
    maxims = treatise_table("dealer", "maxims")
    rows = np.zeros((25, N_STATES), dtype=bool)
    rows[7] = maxims                                   # the score 1-2 only
    path = tmp_path / "tables.npz"
    np.savez(path, dealer=np.packbits(rows, axis=-1), n_states=N_STATES)
    by_policy = cli("infer", SEED_HAND, "--turn-up", "8D", "--history",
                    "propose,refuse", "--json")
    by_table = cli("infer", SEED_HAND, "--turn-up", "8D", "--history",
                   "propose,refuse", "--json", "--opponent-model",
                   str(path), "--score", "1-2")
    assert by_policy.err == "" and by_table.err == "", (by_policy, by_table)
    a, b = json.loads(by_policy.out), json.loads(by_table.out)
    assert a["trump_counts"] == b["trump_counts"] and a["suits"] == b["suits"]
    at_zero = cli("infer", SEED_HAND, "--turn-up", "8D", "--history",
                  "propose,refuse", "--opponent-model", str(path))
    assert at_zero.code == 0                      # row 0-0: all False, refuses always
    assert "65,780 of his 65,780" in at_zero.out


def test_refusal_posterior_over_every_deal_matches_sampled_deals():
    """The exact count over every deal (inclusion–exclusion over the dealer's subsets)
    against plain random deals: the share of proposals, and after a refusal the share of
    dealers with two trumps or more, within four standard errors."""
    from ecarte_sim.analysis.ecarte.advice.inference import refusal_posterior
    from ecarte_sim.engine.ecarte.decisions.tables import decisions
    exact = refusal_posterior()
    assert exact["proposed"]["deals"] == sum(exact["proposed"]["trump_counts"])
    total = comb(32, 5) * comb(27, 5) * 22 // 4          # spade turn-ups: a quarter of 22
    rng = np.random.default_rng(0)
    order = np.argsort(rng.random((300_000, 32)), axis=1)
    order = order[order[:, 10] >> 3 == 0]                 # spades turned up
    mask = lambda cols: np.bitwise_or.reduce(np.uint32(1) << order[:, cols].astype(np.uint32),
                                             axis=1)
    elder, dealer, turn_up = mask(slice(0, 5)), mask(slice(5, 10)), order[:, 10]
    proposes = decisions("elder", "regle", elder, turn_up)
    refuses = proposes & ~decisions("dealer", "maxims", dealer, turn_up)
    p = exact["proposed"]["deals"] / total
    assert abs(proposes.mean() - p) < 4 * np.sqrt(p * (1 - p) / proposes.size)
    two = np.array([bin(int(d) & 0xFF).count("1") >= 2 for d in dealer[refuses]])
    q = exact["refused"]["two_trumps_or_more"]
    assert abs(two.mean() - q) < 4 * np.sqrt(q * (1 - q) / two.size)


def test_lead_values_equal_the_solver_hand_by_hand():
    """After a refusal, each first lead's tricks over the consistent dealer hands: the
    batch kernel against the solver's own move values on every 50th hand, and the
    counts adding up to the consistent hands for every lead."""
    from ecarte_sim.analysis.ecarte.advice.inference import lead_values
    from ecarte_sim.engine.ecarte.search.solver import lead_tricks, move_values
    own, turn_up = _own(SEED_HAND, "8D")
    r = lead_values(own, [turn_up])
    assert all(sum(v["tricks"]) == r["consistent"] for v in r["leads"].values())
    assert r["leads"]["QS"] == r["leads"]["JS"]          # a sequence: the same lead
    hands = posterior(own, turn_up, "propose,refuse")["_hands"][::50]
    out = np.zeros((hands.size, 32), dtype=np.int64)
    lead_tricks(np.uint32(own), hands.astype(np.int64), turn_up >> 3, True, out)
    for row, dealer in zip(out, hands):
        values = move_values(own, int(dealer), turn_up >> 3)
        assert {c: int(row[c]) for c in values} == values
    with pytest.raises(ValueError, match="refusal"):
        lead_values(own, [turn_up], "propose,accept")


def test_sampled_posterior_of_a_first_answer_matches_the_exact_one():
    """The pimc-inference player's draws after propose,refuse against the enumeration of
    every hand (chi-square on the dealer's trump count)."""
    from ecarte_sim.analysis.ecarte.advice.inference import posterior, sampled_posterior
    from stats_helpers import chi2_stat, chi2_upper
    own, turn_up = int(parse_hand("QS JS AH 7C JD")), parse_card("8D")
    exact = posterior(own, turn_up, "propose,refuse", "elder", "maxims")
    sampled = sampled_posterior(own, [], turn_up, "propose,refuse", "elder", "maxims",
                                samples=8000, seed=3)
    assert sampled["exact"] is False and sampled["fallback_draws"] == 0
    assert sum(sampled["trump_counts"]) == sampled["consistent"] == 8000
    expected = [p * 8000 for p in exact["trumps"]]
    cells = [k for k, e in enumerate(expected) if e >= 5]
    assert len(cells) >= 3
    stat = chi2_stat([sampled["trump_counts"][k] for k in cells], [expected[k] for k in cells])
    assert stat < chi2_upper(len(cells) - 1)


def test_infer_after_an_exchange_is_sampled_and_bad_tokens_are_one_line(cli):
    from helpers import one_line_error
    import json as _json
    r = cli("infer", "QS KH AH 9C JD", "--turn-up", "8D", "--history",
            "propose,accept:2,play", "--thrown", "7C 8H", "--samples", "500", "--json")
    out = _json.loads(r.out)
    assert out["exact"] is False and out["counts"] == [2] and out["of"] == 500
    # accepting by the maxims and throwing exactly two (trumps-kings): three trumps with
    # the king, the only maxim that accepts a hand with two cards to discard
    assert out["king_of_trumps"] == 1.0 and out["trump_counts"][:3] == [0, 0, 0]
    line = one_line_error(cli("infer", "QS KH AH 9C JD", "--turn-up", "8D",
                              "--history", "propose,accept,play", "--thrown", "7C 8H"))
    assert "'accept'" in line
    line = one_line_error(cli("infer", "QS KH AH 9C JD", "--turn-up", "8D",
                              "--history", "propose,accept:2,play"))
    assert "--thrown" in line
    line = one_line_error(cli("infer", "QS KH AH 9C JD", "--turn-up", "8D",
                              "--history", "propose,accept:2,play", "--thrown", "QS"))
    assert "QS" in line
