"""The Piquet double-dummy solver against a brute-force enumerator, the pure-Python
reference (ecarte_sim.engine.piquet.reference_play), hand-computed endings, and itself."""

import numba
import numpy as np
import pytest

from ecarte_sim.engine.cards import PIQUET, parse_card, parse_hand
from ecarte_sim.engine.piquet import reference_play as reference
from ecarte_sim.engine.piquet import solver
from ecarte_sim.engine.piquet.settings import LeadScoring, Seat

ALL, TEN_UP = int(LeadScoring.ALL), int(LeadScoring.TEN_UP)


@numba.njit
def brute(elder, younger, leader, tricks_e, tricks_y, led, rule):
    """Plain minimax over every legal card, no memo, no pruning: the elder's play points
    minus the younger's from here, plus the cards at the end (a numba function without
    ``cache=True``, which is safe for recursion)."""
    if led < 0 and elder == 0 and younger == 0:
        if tricks_e == 12:
            return 40
        if tricks_y == 12:
            return -40
        if tricks_e > 6:
            return 10
        if tricks_y > 6:
            return -10
        return 0
    mover = leader if led < 0 else 1 - leader
    hand = elder if mover == 0 else younger
    if led >= 0 and hand & (255 << (led - led % 8)) != 0:
        hand = hand & (255 << (led - led % 8))          # must follow suit
    best = -1000 if mover == 0 else 1000
    for c in range(32):
        if (hand >> c) & 1 == 0:
            continue
        e = elder ^ (1 << c) if mover == 0 else elder
        y = younger ^ (1 << c) if mover == 1 else younger
        if led < 0:
            v = brute(e, y, leader, tricks_e, tricks_y, c, rule)
        else:
            wins = c // 8 == led // 8 and c > led         # a higher card of the suit led
            winner = mover if wins else leader
            pts_e = 0
            pts_y = 0
            if rule == 0 or led % 8 >= 3:                 # the lead
                if leader == 0:
                    pts_e += 1
                else:
                    pts_y += 1
            if wins and (rule == 0 or c % 8 >= 3):        # winning second
                if mover == 0:
                    pts_e += 1
                else:
                    pts_y += 1
            if e == 0 and y == 0:                         # the last trick
                if winner == 0:
                    pts_e += 1
                else:
                    pts_y += 1
            v = pts_e - pts_y + brute(e, y, winner, tricks_e + (1 if winner == 0 else 0),
                                      tricks_y + (1 if winner == 1 else 0), -1, rule)
        if mover == 0:
            best = max(best, v)
        else:
            best = min(best, v)
    return best


@pytest.fixture(scope="session")
def scratch():
    """Warm the kernels once; a table and a workspace for the tests that share them."""
    table = solver.new_table(16)
    ws = solver.new_workspace()
    out = np.zeros(32, dtype=np.int64)
    solver.solve(np.uint32(1), np.uint32(2), True, 11, -1, ALL, table, ws)
    solver.move_values(np.uint32(1), np.uint32(2), True, 11, -1, ALL, table, ws, out)
    brute(1, 2, 0, 11, 0, -1, 0)
    return table, ws


def random_position(rng, n, mid_trick=None):
    """Random hands for ``n`` tricks to play: (elder, younger, elder_leads, elder_tricks,
    led). With a card led, the leader has already played it (one card fewer)."""
    cards = rng.permutation(32)
    e = int(sum(1 << int(c) for c in cards[:n]))
    y = int(sum(1 << int(c) for c in cards[n:2 * n]))
    elder_leads = bool(rng.integers(2))
    k = int(rng.integers(0, 12 - n + 1))
    if mid_trick is None:
        mid_trick = rng.random() < 0.3
    led = -1
    if mid_trick:
        hand = e if elder_leads else y
        led = int(rng.choice([c for c in range(32) if hand >> c & 1]))
        if elder_leads:
            e ^= 1 << led
        else:
            y ^= 1 << led
    return e, y, elder_leads, k, led


def solve(pos, rule, table, ws):
    e, y, elder_leads, k, led = pos
    return int(solver.solve(np.uint32(e), np.uint32(y), elder_leads, k, led, rule, table, ws))


def move_values(pos, rule, table, ws):
    e, y, elder_leads, k, led = pos
    out = np.zeros(32, dtype=np.int64)
    legal = int(solver.move_values(np.uint32(e), np.uint32(y), elder_leads, k, led, rule,
                                   table, ws, out))
    assert all((out[c] == solver.NOT_LEGAL) != bool(legal >> c & 1) for c in range(32))
    return {c: int(out[c]) for c in range(32) if legal >> c & 1}


def brute_value(pos, rule):
    e, y, elder_leads, k, led = pos
    n = (y if elder_leads else e).bit_count() if led >= 0 else e.bit_count()
    return int(brute(e, y, 0 if elder_leads else 1, k, 12 - n - k, led, rule))


def reference_args(pos, rule):
    e, y, elder_leads, k, led = pos
    return e, y, Seat.ELDER if elder_leads else Seat.YOUNGER, k, \
        (None if led < 0 else led), rule


def child(pos, card, rule):
    """(the position once the player to move has played ``card``, the points of the trick
    it completes, from the elder's side: Law 65 as the reference counts it, or 0)."""
    e, y, elder_leads, k, led = pos
    if elder_leads == (led < 0):   # the elder moves
        e ^= 1 << card
    else:
        y ^= 1 << card
    if led < 0:
        return (e, y, elder_leads, k, card), 0
    leader = Seat.ELDER if elder_leads else Seat.YOUNGER
    pts, winner = reference.trick_points(led, card, leader, e == 0 and y == 0, rule)
    return (e, y, winner == Seat.ELDER, k + (winner == Seat.ELDER), -1), pts


def _compare_brute(seed, count):
    rng = np.random.default_rng(seed)
    table = solver.new_table(12)
    ws = solver.new_workspace()
    bad = []
    for i in range(count):
        pos = random_position(rng, int(rng.integers(1, 7)))
        rule = i % 2
        want = brute_value(pos, rule)
        got = solve(pos, rule, table, ws)
        if got != want:
            bad.append((pos, rule, got, want))
    return bad


def test_equals_brute_force_on_2000_small_endings(scratch):
    """1 to 6 cards each, any leader, any consistent trick count, sometimes mid-trick,
    both lead rules; one small shared table (collisions, replacements)."""
    assert _compare_brute(20260101, 2000) == []


def test_move_values_equal_brute_force_children(scratch):
    rng = np.random.default_rng(5)
    table, ws = scratch
    for i in range(300):
        pos = random_position(rng, int(rng.integers(1, 6)))
        rule = i % 2
        e, y, elder_leads, _, led = pos
        mover_is_elder = elder_leads == (led < 0)
        values = move_values(pos, rule, table, ws)
        hand = e if mover_is_elder else y
        legal = [c for c in range(32) if hand >> c & 1]
        if led >= 0 and any(c // 8 == led // 8 for c in legal):
            legal = [c for c in legal if c // 8 == led // 8]
        assert sorted(values) == legal
        for c, v in values.items():
            ch, pts = child(pos, c, rule)
            assert v == pts + brute_value(ch, rule), (pos, rule, c)


def test_equals_reference_on_200_eight_card_endings(scratch):
    rng = np.random.default_rng(8)
    table, ws = scratch
    bad = []
    for i in range(200):
        pos = random_position(rng, 8)
        rule = i % 2
        args = reference_args(pos, rule)
        want = reference.value(*args)
        got = solve(pos, rule, table, ws)
        # move values too, on a few (the reference's memo is still warm)
        if i < 40 and move_values(pos, rule, table, ws) != reference.move_values(*args):
            bad.append(("moves", pos, rule))
        reference.trick_value.cache_clear()
        if got != want:
            bad.append((pos, rule, got, want))
    assert bad == []


def test_move_values_consistent_with_solve(scratch):
    """The best move's value is solve's value, and each move's value is the solve of the
    position after it (a fresh table each time)."""
    rng = np.random.default_rng(11)
    table, ws = scratch
    for i in range(120):
        pos = random_position(rng, int(rng.integers(2, 11)))
        rule = i % 2
        values = move_values(pos, rule, table, ws)
        elder_leads, led = pos[2], pos[4]
        mover_is_elder = elder_leads == (led < 0)
        best = max(values.values()) if mover_is_elder else min(values.values())
        assert best == solve(pos, rule, solver.new_table(10), solver.new_workspace())
        for c, v in values.items():
            ch, pts = child(pos, c, rule)
            fresh = solve(ch, rule, solver.new_table(10), solver.new_workspace())
            assert v == pts + fresh, (pos, rule, c)


def test_12_card_games_played_out_score_their_value(scratch):
    """Full 12-card deals played out, each side choosing among its best moves at random
    (move_values), the points counted trick by trick with the reference's Law 65 and the
    cards with Law 66 at the end: the total is the deal's value, and at every step the
    mover's best move value is the value of the position."""
    rng = np.random.default_rng(15)
    table, ws = scratch
    for i in range(40):
        rule = i % 2
        e, y, _, _, _ = random_position(rng, 12, mid_trick=False)
        elder_leads, k, led = True, 0, -1
        want = solve((e, y, True, 0, -1), rule, table, ws)
        total = 0
        while e or y:
            pos = (e, y, elder_leads, k, led)
            values = move_values(pos, rule, table, ws)
            mover_is_elder = elder_leads == (led < 0)
            best = max(values.values()) if mover_is_elder else min(values.values())
            assert best == solve(pos, rule, table, ws)
            assert total + best == want           # optimal play keeps the value
            c = int(rng.choice([c for c, v in values.items() if v == best]))
            if mover_is_elder:
                e ^= 1 << c
            else:
                y ^= 1 << c
            if led < 0:
                led = c
                continue
            leader = Seat.ELDER if elder_leads else Seat.YOUNGER
            pts, winner = reference.trick_points(led, c, leader, e == 0 and y == 0, rule)
            total += pts
            k += winner == Seat.ELDER
            elder_leads = winner == Seat.ELDER
            led = -1
        total += reference.cards_bonus(k)
        assert total == want, (i, rule)


def test_table_reuse_is_exact(scratch):
    """One table across positions of every size, both rules, all trick counts, vs a fresh
    table each time; a tiny shared table too (constant replacement)."""
    rng = np.random.default_rng(12)
    shared = solver.new_table(16)
    tiny = solver.new_table(4)
    ws = solver.new_workspace()
    for i in range(300):
        pos = random_position(rng, int(rng.integers(3, 13)), mid_trick=rng.random() < 0.2)
        rule = int(rng.integers(2))
        fresh = solve(pos, rule, solver.new_table(14), ws)
        assert solve(pos, rule, shared, ws) == fresh, (pos, rule)
        assert solve(pos, rule, tiny, ws) == fresh, (pos, rule)
        assert solve(pos, rule, shared, ws) == fresh, (pos, rule)   # now from the table


def test_fail_soft_windows_are_correct_bounds(scratch):
    rng = np.random.default_rng(13)
    table, ws = scratch
    for i in range(300):
        e, y, elder_leads, k, led = random_position(rng, int(rng.integers(3, 10)))
        rule = i % 2
        ldr = 0 if elder_leads else 1
        exact = solver.search(np.uint32(e), np.uint32(y), ldr, k, led, rule, -1000, 1000,
                              solver.new_table(10), ws)
        alpha = int(rng.integers(-60, 60))
        beta = alpha + int(rng.integers(1, 12))
        v = solver.search(np.uint32(e), np.uint32(y), ldr, k, led, rule, alpha, beta, table, ws)
        if v <= alpha:
            assert exact <= v
        elif v >= beta:
            assert exact >= v
        else:
            assert exact == v


def test_batch_is_bit_identical_for_1_and_2_threads(scratch):
    rng = np.random.default_rng(14)
    count = 40
    pos = [random_position(rng, int(rng.integers(6, 13)), mid_trick=False) for _ in range(count)]
    e = np.array([p[0] for p in pos], dtype=np.uint32)
    y = np.array([p[1] for p in pos], dtype=np.uint32)
    leads = np.array([p[2] for p in pos], dtype=np.int64)
    k = np.array([p[3] for p in pos], dtype=np.int64)
    led = np.full(count, -1, dtype=np.int64)
    before = numba.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            for rule in (ALL, TEN_UP):
                out = np.zeros(count, dtype=np.int64)
                nodes = np.zeros(count, dtype=np.int64)
                solver.solve_batch(e, y, leads, k, led, rule, solver.new_tables(4, 12),
                                   solver.new_workspaces(4), out, nodes)
                results.append((out, nodes))
    finally:
        numba.set_num_threads(before)
    for (a, na), (b, nb) in zip(results[:2], results[2:]):
        assert np.array_equal(a, b) and np.array_equal(na, nb)
    table, ws = scratch
    for rule in (ALL, TEN_UP):
        assert list(results[rule][0]) == [solve(p, rule, table, ws) for p in pos]
    assert (results[0][1] > 0).all()


# ---------------------------------------------------------------------------
# Endings worked out by hand.
# ---------------------------------------------------------------------------

def hand(text):
    return int(parse_hand(text, deck=PIQUET))


def card(text):
    return parse_card(text, deck=PIQUET)


def test_elder_capot_with_every_master(scratch):
    # Elder holds all eight spades and A K Q J of hearts; younger has no spade and only
    # the 10 9 8 7 of hearts, so every card the elder leads wins: he leads all 12 tricks.
    # "all":    12 leads + 1 last trick + 40 capot = 53.
    # "ten_up": leads from the ten up: spades T J Q K A (5) + hearts A K Q J (4) = 9,
    #           + 1 last + 40 = 50 (the 9 8 7 of spades score nothing).
    table, ws = scratch
    e = hand("AS KS QS JS TS 9S 8S 7S AH KH QH JH")
    y = hand("TH 9H 8H 7H AD KD QD JD TD 9D 8D 7D")
    assert solve((e, y, True, 0, -1), ALL, table, ws) == 53
    assert solve((e, y, True, 0, -1), TEN_UP, table, ws) == 50
    assert reference.cards_bonus(12) == 40


def test_younger_capot_with_every_master(scratch):
    # Elder: 10 9 8 7 of spades, hearts, diamonds; younger: A K Q J of the same suits.
    # Whatever the elder leads, younger follows higher and wins; then younger leads 11
    # tricks, each won, the elder following below.
    # "all": trick 1 = elder's lead +1, younger's win +1 -> 0; then -11, last -1, capot
    #        -40: -52.
    # "ten_up": the elder leads a ten (+1) and younger wins with a court card (+1) -> 0;
    #        younger's 11 leads are all J or higher -> -11; last -1; -40: -52.
    table, ws = scratch
    e = hand("TS 9S 8S 7S TH 9H 8H 7H TD 9D 8D 7D")
    y = hand("AS KS QS JS AH KH QH JH AD KD QD JD")
    assert solve((e, y, True, 0, -1), ALL, table, ws) == -52
    assert solve((e, y, True, 0, -1), TEN_UP, table, ws) == -52
    values = move_values((e, y, True, 0, -1), TEN_UP, table, ws)
    # leading a 7, 8 or 9 scores nothing for the lead: one point worse
    assert values[card("TS")] == -52 and values[card("7S")] == -53


def test_capot_that_cannot_be_forced(scratch):
    # Nine tricks played, all won by the elder; elder to lead A K of spades and 7 of
    # hearts; younger holds Q of spades, 8 of hearts, 9 of clubs.
    # A (Q falls, +1), K (younger keeps his 8 of hearts, throws the 9 of clubs, +1),
    # 7 of hearts led (+1) and won by the 8 (+1 younger) with the last trick (+1):
    # play 1, the elder 11 tricks: +10 -> 11. (Leading the 7 of hearts first: the
    # younger wins it and leads the 9 of clubs, the elder throws a spade and ends with
    # 10 tricks and 0 play points -> 10.) Under "ten_up" the first line is again 11.
    table, ws = scratch
    pos = (hand("AS KS 7H"), hand("QS 8H 9C"), True, 9, -1)
    assert solve(pos, ALL, table, ws) == 11
    assert solve(pos, TEN_UP, table, ws) == 11
    values = move_values(pos, ALL, table, ws)
    assert values == {card("AS"): 11, card("KS"): 11, card("7H"): 10}


def test_capot_made_on_the_last_tricks(scratch):
    # Ten tricks to the elder; elder A of spades and 7 of hearts, younger K of spades and
    # 8 of clubs: both elder cards win whatever the order (younger has no heart).
    # "all": 1 + 1 + 1 (last) + 40 = 43. "ten_up": A scores, 7 does not: 1 + 1 + 40 = 42.
    table, ws = scratch
    pos = (hand("AS 7H"), hand("KS 8C"), True, 10, -1)
    assert solve(pos, ALL, table, ws) == 43
    assert solve(pos, TEN_UP, table, ws) == 42
    # The same cards with the younger to lead. K of spades led: the ace wins (lead +1 to
    # the younger, win +1 to the elder: 0), then the 7 of hearts wins (+1) with the last
    # (+1), capot: 42. The 8 of clubs led: the elder throws the 7 of hearts, the younger
    # wins (-1), leads the K, the ace wins (0) and the last (+1): 0, eleven tricks +10:
    # 10. (Throwing the ace instead loses both tricks: -3 + 10 = 7.) The younger leads
    # the 8 of clubs: 10.
    assert solve((hand("AS 7H"), hand("KS 8C"), False, 10, -1), ALL, table, ws) == 10


def test_ten_up_nine_and_ten_are_not_equivalent(scratch):
    # Younger has led the knave of spades and keeps the 7 of spades; elder holds the 10
    # and 9 of spades. Five tricks to the elder so far.
    # "ten_up": J led -1. Elder plays the 9 (loses), then wins the younger's 7 with the
    # 10 (+1) and the last trick (+1): total +1, six tricks each, no cards bonus -> 1.
    # Playing the 10 under the J instead: the 7 is won by the 9, which scores nothing:
    # -1 + 0 + 1 = 0.
    # "all": -1 (lead) + 0, then younger's lead -1, elder wins +1, last +1 -> 0 either way.
    table, ws = scratch
    pos = (hand("TS 9S"), hand("7S"), False, 5, card("JS"))
    assert move_values(pos, TEN_UP, table, ws) == {card("TS"): 0, card("9S"): 1}
    assert move_values(pos, ALL, table, ws) == {card("TS"): 0, card("9S"): 0}
    assert solve(pos, TEN_UP, table, ws) == 1


@pytest.mark.quick
def test_ten_up_last_trick(scratch):
    # One trick left, eleven played, six to the elder. Elder leads the 9 of spades,
    # younger holds the 10. "all": lead +1, younger wins +1 and the last +1 -> -1, six
    # tricks each -> -1. "ten_up": a nine scores no lead, the ten's win and the last
    # score -> -2.
    table, ws = scratch
    pos = (hand("9S"), hand("TS"), True, 6, -1)
    assert solve(pos, ALL, table, ws) == -1
    assert solve(pos, TEN_UP, table, ws) == -2
    assert solve((0, 0, True, 6, -1), ALL, table, ws) == 0
    assert solve((0, 0, True, 12, -1), ALL, table, ws) == 40
    assert solve((0, 0, False, 0, -1), TEN_UP, table, ws) == -40


@pytest.mark.quick
def test_plain_python_ints_and_clubs(scratch):
    # The first hand-built ending again with clubs for spades (bits 24-31: a mask above
    # 2**31) and plain Python ints, as a caller outside numpy would pass them.
    table, ws = scratch
    e = hand("AC KC QC JC TC 9C 8C 7C AH KH QH JH")
    y = hand("TH 9H 8H 7H AD KD QD JD TD 9D 8D 7D")
    assert e >= 1 << 31
    assert solver.solve(e, y, True, 0, -1, ALL, table, ws) == 53
    assert solver.solve(e, y, 1, 0, -1, TEN_UP, table, ws) == 50


@pytest.mark.quick
def test_check_position():
    assert solver.check_position(hand("AS"), hand("KS"), True, 11) == 1
    assert solver.check_position(0, 0, False, 12) == 0
    # younger has led the J of spades and holds one card, the elder two
    assert solver.check_position(hand("AS KS"), hand("QS"), False, 3, card("JS")) == 2
    bad = [
        (hand("AS KS"), hand("KS QS"), True, 0, -1),        # a card in both hands
        (hand("AS KS"), hand("QS"), True, 0, -1),           # unequal at a boundary
        (hand("AS KS"), hand("QS"), True, 0, card("JS")),   # the leader holds more
        (hand("AS KS"), hand("QS"), False, 3, card("AS")),  # the card led is in a hand
        (hand("AS"), hand("KS"), True, 12, -1),             # 12 tricks won, 11 played
        (hand("AS"), hand("KS"), True, -1, -1),
        (1 << 32, hand("KS"), True, 0, -1),
        (hand("AS"), hand("KS"), True, 0, -2),
    ]
    for args in bad:
        with pytest.raises(ValueError):
            solver.check_position(*args)
    with pytest.raises(ValueError):
        solver.check_position((1 << 13) - 1, (1 << 26) - (1 << 13), True, 0)  # 13 cards


# ---------------------------------------------------------------------------
# Long cross-checks.
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_equals_brute_force_on_50000_small_endings(scratch):
    assert _compare_brute(7, 50_000) == []


@pytest.mark.slow
def test_equals_reference_on_1000_eight_and_20_ten_card_endings(scratch):
    rng = np.random.default_rng(99)
    table, ws = scratch
    for i in range(1020):
        pos = random_position(rng, 8 if i < 1000 else 10)
        rule = i % 2
        args = reference_args(pos, rule)
        assert solve(pos, rule, table, ws) == reference.value(*args), (pos, rule)
        assert move_values(pos, rule, table, ws) == reference.move_values(*args), (pos, rule)
        reference.trick_value.cache_clear()
