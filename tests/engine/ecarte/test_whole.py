"""The whole-deal kernel against the plain reference, under the same scripted decisions;
the policies on concrete hands; bit-identity for any thread count with every policy."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from ecarte_sim.engine.cards import parse_hand, parse_suit
from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.decisions import policies as P
from ecarte_sim.engine.ecarte.records import ProposalsEnd
from ecarte_sim.engine.ecarte.settings import make_cfg
from whole_helpers import kernel_script, random_script

FIELDS = ("elder0", "dealer0", "turn_up", "king_turned", "ended", "first", "exchanges",
          "elder_hand", "dealer_hand", "king_elder", "king_dealer", "play", "elder_tricks",
          "points_elder", "points_dealer", "marks_elder", "marks_dealer")


def random_variant(rng: np.random.Generator) -> dict:
    target = int(rng.choice([0, 5]))
    return {"forced_trump": bool(rng.random() < 0.8),
            "max_proposals": int(rng.choice([0, 0, 1, 2, 3])),
            "dealer_min_one": bool(rng.random() < 0.3),
            "elder_score": int(rng.integers(0, 5)) if target else 0,
            "dealer_score": int(rng.integers(0, 5)) if target else 0,
            "target": target}


def compare(seed: int, start: int, stop: int, play_model: str, rng_seed: int):
    """Both implementations over deals [start, stop); returns (mismatches, branch counts)."""
    rng = np.random.default_rng(rng_seed)
    runner = DealRunner()
    bad, seen = [], Counter()
    for i in range(start, stop):
        script = random_script(rng)
        variant = random_variant(rng)
        cfg = make_cfg(elder_policy="scripted", dealer_policy="scripted",
                       elder_discard="scripted", dealer_discard="scripted", play=play_model,
                       trick_by_trick=True, **variant)
        fast = runner.play(seed, i, cfg, kernel_script(script))
        slow = R.whole_deal(seed, i, script, play_model=play_model, **variant)
        if any(getattr(fast, f) != getattr(slow, f) for f in FIELDS):
            bad.append((i, variant, fast, slow))
        seen["refused first"] += slow.first == R.REFUSED_FIRST
        seen["played without proposing"] += slow.first == R.PLAYED_WITHOUT_PROPOSING
        seen["accepted then refused"] += len(slow.exchanges) > 0 and fast.how_ended == 1
        seen["stock exhausted"] += fast.how_ended == ProposalsEnd.STOCK_EXHAUSTED
        seen["king drawn"] += (slow.king_elder or slow.king_dealer) and bool(
            (slow.elder_hand | slow.dealer_hand) & ~(slow.elder0 | slow.dealer0)
            & (1 << (8 * (slow.turn_up >> 3) + 7)))
        seen["ended by a king"] += slow.ended
        seen["law 38 cut"] += any(bin(e).count("1") < bin(script.elder_discard[r] &
                                                           (slow.elder0 | (1 << 32) - 1)).count("1")
                                  for r, (e, _, _, _) in enumerate(slow.exchanges))
    return bad, seen


BRANCHES = {"refused first", "played without proposing", "accepted then refused",
            "stock exhausted", "king drawn", "ended by a king"}


def test_kernel_equals_reference_on_20000_scripted_deals():
    bad, seen = compare(2026, 0, 20_000, "scripted", 1)
    assert bad == [], bad[:3]
    assert all(seen[b] > 20 for b in BRANCHES), seen


def test_kernel_equals_reference_with_double_dummy_play():
    bad, seen = compare(77, 0, 600, "dd", 2)
    assert bad == [], bad[:3]


@pytest.mark.slow
def test_kernel_equals_reference_on_500000_scripted_deals():
    bad, seen = compare(555, 0, 500_000, "scripted", 3)
    assert bad == [], bad[:3]
    assert all(seen[b] > 1000 for b in BRANCHES), seen


# --------------------------------------------------------------------------- policies

def _h(text):
    return int(parse_hand(text))


@pytest.mark.quick
@pytest.mark.parametrize("hand, trump, accept, why", [
    ("KH 9H 7H 8S 9D", "H", True, "three trumps with the king: accept (hope of the vole)"),
    ("QH 9H 7H KS KD", "H", False, "three trumps without the king: refuse"),
    ("7H KS 9S 8D TC", "H", True, "one trump, one king, nothing above a ten: accept"),
    ("7H KS AS 8D TC", "H", True, "one trump, one king but an ace: maxims silent, "
                                  "not a jeu de règle: accept (default)"),
    ("7H KS QS JS 8D", "H", False, "one trump, K Q J of a suit: a king and a queen "
                                   "guarded: refuse"),
    ("9S 8H 7D 7C KS", "S", True, "two trumps (the K and 9): not three; four discardable "
                                  "and no jeu de règle: accept"),
    ("7H QS 9S QD 8D", "H", False, "one trump, two queens guarded: refuse"),
    ("7H KS QD 8D 9C", "H", False, "one trump, a king and a queen guarded: refuse"),
    ("8S KH KD KC 7D", "S", False, "only two cards can be discarded: refuse"),
    ("8S 9H TD 7C AC", "S", True, "one trump and rubbish: accept"),
])
def test_dealer_maxims(hand, trump, accept, why):
    got = bool(P.maxims_accept(np.uint32(_h(hand)), parse_suit(trump)))
    assert got == accept, why


@pytest.mark.parametrize("hand, trump, discard", [
    ("KH 9H 7S 8S KD", "H", "7S 8S"),
    ("QS JS 8H 9D TC", "C", "QS JS 8H 9D"),
    ("KS KH KD KC 7S", "S", ""),
])
def test_default_discard_keeps_trumps_and_kings(hand, trump, discard):
    got = P.discard_choice(1, np.uint32(_h(hand)), parse_suit(trump), 0,
                           np.zeros(P.SCRIPT_LEN, dtype=np.int64), P.S_ELDER_DISCARD, 0, 0)
    assert int(got) == (_h(discard) if discard else 0)


@pytest.mark.parametrize("rule, discard", [
    ("trumps-only", "KS QS JD AD 7C"),
    ("trumps-kings", "QS JD AD 7C"),
    ("trumps-queens", "JD AD 7C"),
    ("trumps-knaves", "AD 7C"),
    ("trumps-aces", "7C"),
    ("fewest", ""),
])
def test_discard_rules_keep_trumps_and_plain_cards_from_a_rank_up(rule, discard):
    from ecarte_sim.engine.ecarte.settings import Discard, member
    hand = _h("KS QS JD AD 7C")
    for trumps in ("", "8H", "8H 7H"):
        full = hand | (_h(trumps) if trumps else 0)
        got = P.rule_discard(int(member(Discard, rule, "discard")), np.uint32(full), 1)
        assert int(got) == (_h(discard) if discard else 0)


@pytest.mark.quick
def test_strength_examples_from_the_docstring():
    assert P.strength(np.uint32(_h("7H 8H 9H 7S 8D")), 1) == 9
    assert P.strength(np.uint32(_h("7H 8H KS 7D 8C")), 1) == 8
    assert P.strength(np.uint32(_h("7H KS QS 9S KD")), 1) == 8


@pytest.mark.quick
def test_weakest_order():
    # plain 7s first, plain kings last among plain cards, trumps after
    hand = _h("7S KD 7H AC 8H")
    assert int(P.weakest(np.uint32(hand), 2, 1)) == _h("7S AC")


# --------------------------------------------------------------------------- identity

def _counts_json(threads: int, play: str, chunk: int) -> str:
    code = ("import json,sys; from ecarte_sim.engine.ecarte.settings import make_cfg; from ecarte_sim.engine.ecarte.deals.counts import whole_counts;"
            f"c = whole_counts(9, 1000, 1000 + {1500 if play == 'pimc' else 40000}, "
            f"make_cfg(elder_policy='{{e}}', dealer_policy='{{d}}', play='{play}', worlds=16), "
            f"chunk={chunk}); print(json.dumps(c.tolist()))")
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    outs = []
    for e, d in (("regle", "maxims"), ("threshold", "regle"),
                 ("always-propose", "always-accept"), ("always-play", "always-refuse")):
        out = subprocess.run([sys.executable, "-c", code.format(e=e, d=d)], env=env,
                             check=True, capture_output=True, text=True)
        outs.append(out.stdout)
    return "".join(outs)


@pytest.mark.parametrize("play", ["dd", "heuristic", "pimc"])
def test_bit_identical_for_one_and_two_threads(play):
    one = _counts_json(1, play, 4096)
    two = _counts_json(2, play, 97)
    assert one == two
    assert len(one.splitlines()) == 4


def test_common_random_numbers_same_deal_for_every_policy():
    runner = DealRunner()
    a = runner.play(5, 42, make_cfg(elder_policy="always-play"))
    b = runner.play(5, 42, make_cfg(elder_policy="always-propose", play="heuristic"))
    assert (a.elder0, a.dealer0, a.turn_up) == (b.elder0, b.dealer0, b.turn_up)


@pytest.mark.quick
def test_counts_add_up():
    n = 20_000
    c = whole_counts(3, 0, n, make_cfg())
    assert c[:16].sum() == n and c[20:23].sum() == n
    assert c[16:20].sum() + c[24] == n


# --------------------------------------------------------------------------- game to five

def test_games_alternate_the_deal_and_end_at_five():
    from ecarte_sim.engine.ecarte.deals.game import play_game
    cfg = make_cfg(play="heuristic")
    runner = DealRunner()
    by_turned_king = by_king_in_hand = 0
    for g in range(150):
        game = play_game(8, g, cfg, runner)
        dealers = [gd.dealer for gd in game.deals]
        assert dealers[0] == "AB"[g % 2]
        assert all(a != b for a, b in zip(dealers, dealers[1:]))
        for gd in game.deals[:-1]:
            assert max(gd.score_after.values()) < 5
        last = game.deals[-1]
        assert game.score[game.winner] >= 5 and max(last.score_before.values()) < 5
        loser = game.score["B" if game.winner == "A" else "A"]
        assert loser < 5 and game.value == (3 if loser == 0 else 2 if loser <= 2 else 1)
        d = last.deal
        if d.ended and d.king_turned:
            # "a turned king at 4 wins before any card is played"
            by_turned_king += 1
            assert game.winner == last.dealer and last.score_before[last.dealer] == 4
            assert d.play == () and d.exchanges == () and d.marks_dealer == 1
        if d.ended and (d.king_elder or d.king_dealer):
            by_king_in_hand += 1
            assert d.play == ()
    assert by_turned_king > 0 and by_king_in_hand > 0
