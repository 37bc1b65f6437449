"""pimc-king: the worlds weighed as the laws and the opponent's policies say.

Law 43: a suit not followed removes every world holding it (and the trumps when he did not
trump either). Laws 23-24: after the opponent's first card, a king of trumps announced is
in every world; not announced, the worlds holding it keep the weight his concealing policy
gives (none for a player who always announces); before his first card his silence says
nothing. When they are few, every hand he may hold is a world, weighted exactly as the
decision model and the king say (against a plain enumeration). Without evidence and with
worlds drawn the player is pimc-inference, card for card; the whole deal's player is
:func:`read_decide`'s."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from ecarte_sim.engine.cards import parse_card, parse_hand
from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.deals.whole import payoff_table
from ecarte_sim.engine.ecarte.decisions.policies import empty_script
from ecarte_sim.engine.ecarte.laws.tricks import DEALER, ELDER
from ecarte_sim.engine.ecarte.play.reading import KING_SCALE, king_evidence, read_decide
from ecarte_sim.engine.ecarte.play.single import decide
from ecarte_sim.engine.ecarte.records import REC, Law49, ProposalsEnd, known_record
from ecarte_sim.engine.ecarte.settings import CFG, PlayModel, make_cfg

FULL = (1 << 32) - 1


def cards_of(mask: int) -> set[int]:
    return {c for c in range(32) if mask >> c & 1}


def position(own: str, turn_up: str, played: str, how=ProposalsEnd.ELDER_PLAYED,
             first=Law49.PLAYED_WITHOUT_PROPOSING, kings=(0, 0)):
    """The elder's hand at the first card, the record as he knows it (the kings marked:
    (elder, dealer)) and the cards played, as the kernels take them."""
    start = int(parse_hand(own))
    up = parse_card(turn_up)
    rec = known_record(up, int(how), int(first))
    rec[REC.at.KING_ELDER], rec[REC.at.KING_DEALER] = kings
    plays = np.full(10, -1, dtype=np.int64)
    seq = [parse_card(c) for c in played.split()]
    plays[:len(seq)] = seq
    unseen = ~(start | 1 << up) & FULL
    return start, unseen, up >> 3, rec, plays, len(seq), first


def worlds(mover, start, unseen, trump, rec, plays, n, first, *, w=4096, concealing=0,
           seed=5, index=0, cfg=None):
    """(card, [(world, weight)], distinct moves) of the reading player at card ``n``."""
    cfg = make_cfg(elder_play="pimc-king", dealer_play="pimc-king") if cfg is None else cfg
    hands = np.zeros(w, dtype=np.uint32)
    weights = np.zeros(w, dtype=np.int64)
    cards = np.zeros(5, dtype=np.int64)
    outcomes = np.zeros((w, 5), dtype=np.int64)
    r = read_decide(mover, np.uint32(start), np.uint32(unseen), plays, n, trump, True, w,
                    np.uint64(seed), np.uint64(index), cfg, empty_script(), rec,
                    payoff_table(first), hands, weights, True, cards, outcomes, concealing)
    k = int(r[8])
    return int(r[0]), [(int(hands[i]), int(weights[i])) for i in range(k)], int(r[2])


# the elder leads the ace of hearts, the dealer follows with the eight: he holds no higher
# heart (Law 43), and the elder leads again; then the seven of spades, the dealer wins with
# the eight and leads the nine of diamonds (clubs are trumps)
ELDER_HAND, TURN_UP, FIRST_TRICK = "AH 7S QS JS 8D", "9C", "AH 8H"
TWO_TRICKS = "AH 8H 7S 8S 9D"


@pytest.mark.quick
def test_a_suit_not_followed_leaves_no_world_holding_it():
    """The dealer answered the heart with a spade: he has no heart, and (trumping being
    compulsory, Law 43) no club either; every world, enumerated or drawn, agrees."""
    start, unseen, trump, rec, plays, n, first = position(ELDER_HAND, TURN_UP, "AH 9S")
    for w in (4096, 64):                       # every hand, then 64 drawn
        _, got, _ = worlds(ELDER, start, unseen, trump, rec, plays, n, first, w=w)
        assert len(got) == (w if w == 64 else len(got))
        hearts_clubs = int(parse_hand("7H 9H TH JH QH KH 7C 8C TC AC JC QC KC"))
        assert all(h & hearts_clubs == 0 and bin(h).count("1") == 4 for h, _ in got)
        assert all(h >> parse_card("9S") & 1 == 0 for h, _ in got)


@pytest.mark.quick
def test_a_king_announced_is_in_every_world():
    """The dealer announced the king of trumps before his first card (Laws 23-24)."""
    start, unseen, trump, rec, plays, n, first = position(ELDER_HAND, TURN_UP, FIRST_TRICK,
                                                          kings=(0, 1))
    king = parse_card("KC")
    for w in (4096, 64):
        _, got, _ = worlds(ELDER, start, unseen, trump, rec, plays, n, first, w=w)
        assert got and all(h >> king & 1 for h, _ in got)
        assert all(wt == KING_SCALE for _, wt in got)


@pytest.mark.quick
@pytest.mark.parametrize("concealing", [0, 250, 1000])
def test_a_king_not_announced_weighs_as_the_concealing_policy_says(concealing):
    """Not announced: the worlds holding the king of trumps weigh ``concealing``
    thousandths of the others, every hand enumerated; a player who always announces (0)
    then has not the king, in no world. The hands and their weights against a plain
    enumeration (his hand unchanged, nothing said by him: every hand of the cards he may
    hold fits)."""
    start, unseen, trump, rec, plays, n, first = position(ELDER_HAND, TURN_UP, TWO_TRICKS)
    king = parse_card("KC")
    _, got, _ = worlds(ELDER, start, unseen, trump, rec, plays, n, first,
                       concealing=concealing)
    possible = cards_of(unseen) - {parse_card(c) for c in TWO_TRICKS.split()}
    possible -= {parse_card(c) for c in ("JH", "QH", "KH")}    # no higher heart than AH
    want = {}
    for combo in combinations(sorted(possible), 2):
        weight = concealing if king in combo else KING_SCALE
        if weight:
            want[sum(1 << c for c in combo)] = weight
    assert {h: wt for h, wt in got if wt} == want
    if concealing == 0:
        assert not any(h >> king & 1 for h, _ in got)


@pytest.mark.quick
def test_silence_before_his_first_card_says_nothing():
    """At the first card the dealer has not yet had to announce (Law 23: before his first
    card): the worlds holding the king of trumps are the elder's to weigh like any other,
    and the king's evidence is none."""
    start, unseen, trump, rec, plays, n, first = position(ELDER_HAND, TURN_UP, "")
    king = parse_card("KC")
    possible, must, weight = king_evidence(rec, ELDER, trump, np.uint32(unseen),
                                           np.uint32(0), 0)
    assert int(possible) == unseen and int(must) == 0 and weight == KING_SCALE
    _, got, _ = worlds(ELDER, start, unseen, trump, rec, plays, n, first, w=256)
    assert any(h >> king & 1 for h, _ in got)


def test_every_hand_is_weighed_by_the_decision_model():
    """The elder proposed and the dealer (model: regle) refused: his hand is a jeu de
    règle. Late in the play the reading player lists every hand he may hold, and those
    of weight are exactly the jeux de règle of the reference (with the cards he played)."""
    start, unseen, trump, rec, plays, n, first = position(
        "QS JS AH 7C JD", "8D", "QS KS 9H", how=ProposalsEnd.DEALER_REFUSED,
        first=Law49.REFUSED_FIRST)
    cfg = make_cfg(elder_play="pimc-king", dealer_play="dd", dealer_policy="regle")
    # the dealer won the first trick with the king of spades and leads the nine of hearts;
    # he did not announce the king of diamonds (trumps): he has not it
    _, got, _ = worlds(ELDER, start, unseen, trump, rec, plays, n, first, cfg=cfg)
    shown = {parse_card("KS"), parse_card("9H")}
    possible = cards_of(unseen) - shown - {parse_card("KD")}
    want = set()
    for combo in combinations(sorted(possible), 3):
        if R.jeu_de_regle(sorted(set(combo) | shown), trump) is not None:
            want.add(sum(1 << c for c in combo))
    assert want and {h for h, wt in got if wt} == want
    assert len(got) == len(list(combinations(sorted(possible), 3)))


def test_without_evidence_the_drawn_worlds_and_card_are_pimc_inference():
    """At the first card (no king said yet) with more hands than worlds, the reading
    player draws pimc-inference's worlds and plays its card."""
    cfg = make_cfg(elder_play="pimc-king", dealer_play="pimc-king")
    w = 64
    script = empty_script()
    runner = DealRunner()
    for i in range(30):
        d = runner.play(7, i, make_cfg(), script)
        if d.ended or d.exchanges:
            continue
        start = int(d.elder_hand)
        up = int(d.turn_up)
        rec = known_record(up, int(d.how_ended), int(d.first))
        unseen = ~(start | 1 << up) & FULL
        plays = np.full(10, -1, dtype=np.int64)
        args = (ELDER, np.uint32(start), np.uint32(unseen), plays, 0, up >> 3, True, w,
                np.uint64(3), np.uint64(i), cfg, script, rec, payoff_table(int(d.first)))
        h1, h2 = np.zeros(w, dtype=np.uint32), np.zeros(w, dtype=np.uint32)
        c1 = np.zeros(5, dtype=np.int64)
        o1 = np.zeros((w, 5), dtype=np.int64)
        a = decide(*args, h1, True, c1, o1)
        b = read_decide(*args, h2, np.zeros(w, dtype=np.int64), True, c1.copy(), o1.copy(), 0)
        assert a[0] == b[0] and int(b[8]) == w and (h1 == h2).all()


def test_the_whole_deal_plays_read_decides_cards():
    """Deals played by two pimc-king players: each card is :func:`read_decide`'s from the
    mover's knowledge (his hand, what was said and thrown, the kings marked, the play)."""
    cfg = make_cfg(elder_play="pimc-king", dealer_play="pimc-king", worlds=32,
                   elder_policy="regle", dealer_policy="maxims")
    script = empty_script()
    runner = DealRunner()
    kings = 0
    for i in range(40):
        d = runner.play(9, i, cfg, script)
        if d.ended or len(d.play) < 10:
            continue
        kings += d.king_elder + d.king_dealer
        hands = {ELDER: int(d.elder_hand), DEALER: int(d.dealer_hand)}
        seen = {ELDER: int(d.elder0), DEALER: int(d.dealer0)}
        for ex in d.exchanges:
            seen[ELDER] |= int(ex[1])
            seen[DEALER] |= int(ex[3])
        thrown = [(bin(int(ex[0])).count("1"), bin(int(ex[2])).count("1")) for ex in d.exchanges]
        rec = known_record(int(d.turn_up), int(d.how_ended), int(d.first), thrown)
        rec[REC.at.KING_ELDER], rec[REC.at.KING_DEALER] = d.king_elder, d.king_dealer
        plays = np.array([int(c) for c in d.play], dtype=np.int64)
        leader, led = ELDER, -1
        trump = int(d.turn_up) >> 3
        from ecarte_sim.engine.ecarte.laws.position import step
        tricks = 0
        for j in range(10):
            mover = leader if led < 0 else 1 - leader
            unseen = ~(seen[mover] | 1 << int(d.turn_up)) & FULL
            w = 32
            r = read_decide(mover, np.uint32(hands[mover]), np.uint32(unseen), plays, j, trump,
                            True, w, np.uint64(9), np.uint64(i), cfg, script, rec,
                            payoff_table(int(d.first)), np.zeros(w, dtype=np.uint32),
                            np.zeros(w, dtype=np.int64), False, np.zeros(5, dtype=np.int64),
                            np.zeros((1, 5), dtype=np.int64), 0)
            assert int(r[0]) == plays[j], (i, j)
            _, leader, tricks, led = step(leader, tricks, led, int(plays[j]), trump)
    assert kings > 0
