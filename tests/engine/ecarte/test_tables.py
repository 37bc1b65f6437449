"""The table policy: decisions read from a table by canonical state (and score)."""

from dataclasses import asdict
from itertools import combinations

import numpy as np
import pytest

from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.decisions import states as S
from ecarte_sim.engine.ecarte.decisions import tables as T
from ecarte_sim.engine.ecarte.decisions.policies import SCORE_SLOTS
from ecarte_sim.engine.ecarte.settings import Discard, make_cfg
from whole_helpers import kernel_script, random_script

ELDER_POLICIES = ("regle", "always-play", "always-propose", "threshold")
DEALER_POLICIES = ("maxims", "regle", "always-accept", "always-refuse")


@pytest.fixture(scope="module")
def every_pair():
    """All 32 x C(31, 5) (hand, turn-up) pairs."""
    hands = np.array([sum(1 << c for c in cards) for cards in combinations(range(32), 5)],
                     dtype=np.int64)
    pairs = [(hands[(hands >> t) & 1 == 0], t) for t in range(32)]
    return (np.concatenate([h for h, _ in pairs]).astype(np.uint32),
            np.concatenate([np.full(len(h), t) for h, t in pairs]))


@pytest.mark.parametrize("role,policy", [("elder", p) for p in ELDER_POLICIES]
                         + [("dealer", p) for p in DEALER_POLICIES])
def test_treatise_table_decides_as_the_policy_on_every_pair(every_pair, role, policy):
    hands, turn_ups = every_pair
    table = T.treatise_table(role, policy)
    script = T.policy_script(**{role: table})
    by_table = T.decisions(role, "table", hands, turn_ups, script)
    assert np.array_equal(by_table, T.decisions(role, policy, hands, turn_ups))
    assert np.array_equal(by_table, table[S.states_of(hands, turn_ups)])


@pytest.mark.quick
def test_tables_pack_and_unpack():
    rng = np.random.default_rng(3)
    elder = rng.random((SCORE_SLOTS, S.N_STATES)) < 0.5
    dealer = rng.random(S.N_STATES) < 0.3
    script = T.policy_script(elder, dealer)
    assert np.array_equal(T.table_rows(script, "elder"), elder)
    assert np.array_equal(T.table_rows(script, "dealer"),
                          np.broadcast_to(dealer, (SCORE_SLOTS, S.N_STATES)))
    with pytest.raises(ValueError, match="shape"):
        T.policy_script(elder[:3])
    with pytest.raises(ValueError, match="bool"):
        T.policy_script(elder.astype(np.int8))


def test_discard_tables_pack_and_unpack():
    """Four bits a state, one row or 25, beside decision tables of the other shape; a
    value that is no discard rule is refused, whatever the table's shape."""
    from ecarte_sim.engine.ecarte.decisions.policies import DISCARD_RULES
    rng = np.random.default_rng(4)
    rules = np.array([int(r) for r in DISCARD_RULES])
    by_score = rng.choice(rules, size=(SCORE_SLOTS, S.N_STATES))
    one = rng.choice(rules, size=S.N_STATES).astype(np.uint8)
    elder = rng.random(S.N_STATES) < 0.5
    script = T.policy_script(elder, None, elder_discard=one, dealer_discard=by_score)
    assert np.array_equal(T.discard_rows(script, "elder"),
                          np.broadcast_to(one, (SCORE_SLOTS, S.N_STATES)))
    assert np.array_equal(T.discard_rows(script, "dealer"), by_score)
    assert np.array_equal(T.table_rows(script, "elder"),
                          np.broadcast_to(elder, (SCORE_SLOTS, S.N_STATES)))
    assert not T.table_rows(script, "dealer").any()
    for bad in (np.full(S.N_STATES, 99), np.full(7, -1)):
        with pytest.raises(ValueError, match="not a discard rule"):
            T.policy_script(elder_discard=bad)


@pytest.mark.parametrize("play", ["dd", "heuristic"])
def test_treatise_as_a_table_plays_every_deal_the_same(play):
    """Deal for deal, every field of the record: Hoyle's list and the dealer's maxims
    against the same two policies read from their tables."""
    script = T.policy_script(T.treatise_table("elder", "regle"),
                             T.treatise_table("dealer", "maxims"))
    treatise = make_cfg(play=play, elder_policy="regle", dealer_policy="maxims")
    table = make_cfg(play=play, elder_policy="table", dealer_policy="table")
    runner = DealRunner()
    for index in range(1500):
        assert runner.play(11, index, treatise) == runner.play(11, index, table, script)
    assert np.array_equal(whole_counts(11, 0, 40_000, treatise),
                          whole_counts(11, 0, 40_000, table, script))


def _table_script(deal, elder_rows, dealer_rows, slot, scripted):
    """The reference's script for a deal played by tables: each round's decision read
    from the tables on the hand of that round (hands rebuilt from the exchanges)."""
    elder, dealer = deal.elder0, deal.dealer0
    propose, accept = [], []
    for x in range(len(deal.exchanges) + 1):
        propose.append(int(elder_rows[slot, S.canonical_index(elder, deal.turn_up)]))
        accept.append(int(dealer_rows[slot, S.canonical_index(dealer, deal.turn_up)]))
        if x < len(deal.exchanges):
            e_out, e_in, d_out, d_in = deal.exchanges[x]
            elder, dealer = (elder ^ e_out) | e_in, (dealer ^ d_out) | d_in
    pad = 24 - len(propose)
    return R.Script(tuple(propose) + (0,) * pad, scripted.elder_discard,
                    tuple(accept) + (0,) * pad, scripted.dealer_discard, scripted.priority)


def test_random_tables_by_score_match_the_reference():
    """Random by-score tables, random scripted discards and card order, random scores:
    the kernel reading its tables plays what the plain reference plays when given each
    round's table decision (hand by hand, round by round)."""
    rng = np.random.default_rng(8)
    elder_rows = rng.random((SCORE_SLOTS, S.N_STATES)) < 0.7
    dealer_rows = rng.random((SCORE_SLOTS, S.N_STATES)) < 0.6
    runner = DealRunner()
    exchanges = []
    for index in range(300):
        scripted = random_script(rng)
        e_score, d_score = (int(x) for x in rng.integers(0, 5, 2))
        script = T.policy_script(elder_rows, dealer_rows, kernel_script(scripted))
        cfg = make_cfg(elder_policy="table", dealer_policy="table", elder_discard="scripted",
                       dealer_discard="scripted", play="scripted", trick_by_trick=True,
                       elder_score=e_score, dealer_score=d_score)
        kernel = runner.play(5, index, cfg, script)
        slow = R.whole_deal(5, index, _table_script(kernel, elder_rows, dealer_rows,
                                                    5 * e_score + d_score, scripted),
                            elder_score=e_score, dealer_score=d_score)
        slow = asdict(slow)
        assert {k: v for k, v in asdict(kernel).items() if k in slow} == slow, index
        exchanges.append(len(kernel.exchanges))
    # later rounds were read: many deals had one exchange or more, some several
    assert sum(x >= 1 for x in exchanges) > 100 and sum(x >= 2 for x in exchanges) > 20


#: Each discard rule as plain Python: the plain ranks (Écarté order 7 8 9 10 A J Q K =
#: 0..7) it keeps besides the trumps.
RULE_KEEPS = {"trumps-only": set(), "trumps-kings": {7}, "trumps-queens": {6, 7},
              "trumps-knaves": {5, 6, 7}, "trumps-aces": {4, 5, 6, 7},
              "fewest": set(range(8))}
RULE_IDS = {name: int(Discard[name.upper().replace("-", "_")]) for name in RULE_KEEPS}


def _plain_rule_discard(rule_id: int, hand: int, trump: int) -> int:
    """The cards a rule throws, from the hand's cards one by one (no kernel code)."""
    name = next(n for n, i in RULE_IDS.items() if i == rule_id)
    return sum(1 << c for c in range(32) if hand >> c & 1 and c >> 3 != trump
               and c & 7 not in RULE_KEEPS[name])


def test_discard_table_and_forced_first_discard_match_the_reference():
    """Random by-score decision and discard tables, random forced first discards,
    random scores and card order: the kernel plays what the plain reference plays when
    given, round by round, the cards each rule throws from that round's hand."""
    rng = np.random.default_rng(12)
    rules = np.array(sorted(RULE_IDS.values()))
    elder_rows = rng.random((SCORE_SLOTS, S.N_STATES)) < 0.8
    dealer_rows = rng.random((SCORE_SLOTS, S.N_STATES)) < 0.7
    elder_discard = rules[rng.integers(0, rules.size, (SCORE_SLOTS, S.N_STATES))]
    dealer_discard = rules[rng.integers(0, rules.size, (SCORE_SLOTS, S.N_STATES))]
    script = T.policy_script(elder_rows, dealer_rows, None, elder_discard, dealer_discard)
    runner = DealRunner()
    exchanges = 0
    for index in range(300):
        e_score, d_score = (int(x) for x in rng.integers(0, 5, 2))
        first = [None if rng.random() < 0.5 else Discard(int(rng.choice(rules)))
                 for _ in range(2)]
        cfg = make_cfg(elder_policy="table", dealer_policy="table", elder_discard="table",
                       dealer_discard="table", play="dd", trick_by_trick=True,
                       elder_score=e_score, dealer_score=d_score,
                       elder_first_discard=first[0], dealer_first_discard=first[1])
        kernel = runner.play(6, index, cfg, script)
        slot = 5 * e_score + d_score
        trump = kernel.turn_up >> 3
        elder, dealer = kernel.elder0, kernel.dealer0
        propose, accept, e_masks, d_masks = [], [], [], []
        for x in range(len(kernel.exchanges) + 1):
            propose.append(int(elder_rows[slot, S.canonical_index(elder, kernel.turn_up)]))
            accept.append(int(dealer_rows[slot, S.canonical_index(dealer, kernel.turn_up)]))
            e_rule = int(first[0]) if x == 0 and first[0] is not None else \
                int(elder_discard[slot, S.canonical_index(elder, kernel.turn_up)])
            d_rule = int(first[1]) if x == 0 and first[1] is not None else \
                int(dealer_discard[slot, S.canonical_index(dealer, kernel.turn_up)])
            e_masks.append(_plain_rule_discard(e_rule, elder, trump))
            d_masks.append(_plain_rule_discard(d_rule, dealer, trump))
            if x < len(kernel.exchanges):
                e_out, e_in, d_out, d_in = kernel.exchanges[x]
                elder, dealer = (elder ^ e_out) | e_in, (dealer ^ d_out) | d_in
        pad = 24 - len(propose)
        ref_script = R.Script(tuple(propose) + (0,) * pad, tuple(e_masks) + (0,) * pad,
                              tuple(accept) + (0,) * pad, tuple(d_masks) + (0,) * pad,
                              tuple(range(32)))
        slow = asdict(R.whole_deal(6, index, ref_script, elder_score=e_score,
                                   dealer_score=d_score, play_model="dd"))
        assert {k: v for k, v in asdict(kernel).items() if k in slow} == slow, index
        exchanges += len(kernel.exchanges)
    assert exchanges > 300


@pytest.mark.parametrize("rule", sorted(RULE_KEEPS))
def test_a_discard_table_of_one_rule_plays_as_the_rule(rule):
    table = np.full(S.N_STATES, RULE_IDS[rule], dtype=np.int64)
    script = T.policy_script(elder_discard=table, dealer_discard=table)
    by_rule = make_cfg(elder_discard=rule, dealer_discard=rule, elder_policy="always-propose")
    by_table = make_cfg(elder_discard="table", dealer_discard="table",
                        elder_policy="always-propose")
    runner = DealRunner()
    for index in range(300):
        assert runner.play(13, index, by_rule) == runner.play(13, index, by_table, script)
