"""Who deals each deal of a partie (engine/piquet/partie.py) against the Laws of Piquet
(Portland and Turf Clubs), and against the order the batch kernels play."""

import doctest

import numpy as np
import pytest

from ecarte_sim.engine.cards import PIQUET, parse_card
from ecarte_sim.engine.piquet import partie as P
from ecarte_sim.engine.piquet import simulate as S
from ecarte_sim.engine.piquet.game import simulate_one
from ecarte_sim.engine.piquet.records import N_SEATS
from ecarte_sim.engine.piquet.settings import PiquetSettings
from ecarte_sim.engine.piquet.whole import new_solver_scratch


def card(text):
    return parse_card(text, PIQUET)


@pytest.mark.quick
def test_docstring_example():
    assert doctest.testmod(P, raise_on_error=True).attempted >= 4


def test_law_4_the_ace_is_highest_and_the_higher_card_has_the_choice():
    # "In cutting, the ace is highest. The player who cuts the higher card has the choice
    # of deal."
    assert P.cut_winner(card("AC"), card("KS")) == 0
    assert P.cut_winner(card("7H"), card("AH")) == 1
    assert P.cut_winner(card("8D"), card("7S")) == 0
    assert P.first_dealer(card("AC"), card("KS"), winner_deals=True) == 0
    assert P.first_dealer(card("AC"), card("KS"), winner_deals=False) == 1
    assert P.first_dealer(card("9C"), card("TS"), winner_deals=True) == 1


def test_law_4_ranks_only_the_cards_same_rank_cuts_again():
    assert P.cut_winner(card("QC"), card("QH")) is None
    with pytest.raises(ValueError, match="cut again"):
        P.first_dealer(card("7C"), card("7D"), winner_deals=True)


def test_law_16_the_players_deal_alternately_law_71_six_deals():
    # "The players deal alternately." "A partie consists of six deals."
    for first in (0, 1):
        turns = P.deal_order(first)
        assert [t.number for t in turns] == [1, 2, 3, 4, 5, 6]
        assert [t.dealer for t in turns] == [first, 1 - first] * 3
        assert all(t.elder == 1 - t.dealer for t in turns)     # Law 9: the non-dealer
        assert all(t.weight == 1 and not t.extra for t in turns)
        # each player deals three times and is elder three times
        assert sum(t.dealer == 0 for t in turns) == 3


def test_law_71_a_tie_each_deals_once_more():
    # "If both players score the same number in six deals, each deals once more."
    turns = P.deal_order(1, tied=True)
    assert len(turns) == 8
    extra = [t for t in turns if t.extra]
    assert [t.number for t in extra] == [7, 8]
    assert sorted(t.dealer for t in extra) == [0, 1]
    assert [t.dealer for t in turns] == [1, 0] * 4


def test_note_to_law_71_four_deals_first_and_last_double_extras_single():
    # "a partie may consist of four deals, the score in the first and last deals counting
    # double. In case of a tie, each deals once more, the scores in the extra deals
    # counting single."
    turns = P.deal_order(0, partie="four", tied=True)
    assert [t.weight for t in turns] == [2, 1, 1, 2, 1, 1]
    assert [t.extra for t in turns] == [False] * 4 + [True] * 2
    assert [t.dealer for t in turns] == [0, 1, 0, 1, 0, 1]
    assert [t.weight for t in P.deal_order(1, partie="four")] == [2, 1, 1, 2]


@pytest.mark.parametrize("bad", [
    lambda: P.deal_order(2), lambda: P.deal_order(0, partie="five"),
    lambda: P.cut_winner(32, 0), lambda: P.cut_winner(-1, 0), lambda: P.cut_winner(True, 3)])
def test_bad_input_is_a_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def _kernel_partie(seed, p, cfg_a, cfg_b, four):
    perm, draws, values, stock, rec, scratch, state = S._scratch()
    script = np.zeros(N_SEATS, dtype=np.int64)
    totals = np.zeros((S.DEALS_PER_PARTIE, 2), dtype=np.int64)
    table, ws = new_solver_scratch(False)
    n = S.play_partie(np.uint64(seed), p, cfg_a, cfg_b, four, rec, perm, draws, values, stock,
                      script, totals, scratch, state, table, ws)
    return totals[:n]


def _check_partie(seed, p, cfg, four):
    """The kernel's partie ``p`` deal by deal against deal_order (A = player 0 deals
    first); returns whether it was tied."""
    totals = _kernel_partie(seed, p, cfg[0], cfg[1], four)
    tied = len(totals) > (4 if four else 6)
    turns = P.deal_order(0, partie="four" if four else "six", tied=tied)
    assert len(turns) == len(totals)
    for t, (a, b) in zip(turns, totals):
        rec = simulate_one(seed, S.DEALS_PER_PARTIE * p + t.number - 1, cfg[t.dealer])
        dealer, elder = rec.younger["total"], rec.elder["total"]
        expect = (dealer, elder) if t.dealer == 0 else (elder, dealer)
        assert (int(a), int(b)) == (expect[0] * t.weight, expect[1] * t.weight)
    return tied


@pytest.mark.parametrize("four", [False, True])
def test_the_batch_kernels_play_this_order(four):
    """Every deal of a partie as the batch kernel scores it equals the deal played with the
    dealer deal_order names, weighted as it says: A (the first dealer) heuristic against B
    random for regular parties; random against random for tied ones (ties are rare when
    one player is much the stronger)."""
    seed = 7
    a_deals = PiquetSettings("random", "heuristic")          # B elder, A younger (dealer)
    cfg = {0: a_deals.cfg(), 1: a_deals.swapped().cfg()}
    for p in range(4):
        _check_partie(seed, p, cfg, four)
    same = PiquetSettings("random", "random").cfg()
    ties = 0
    for p in range(3000):
        if ties < 3 and len(_kernel_partie(seed, p, same, same, four)) > (4 if four else 6):
            ties += _check_partie(seed, p, {0: same, 1: same}, four)
    assert ties > 0
