"""The card verdicts (analysis/ecarte/play/card_advice.py, engine/ecarte/play/single.py and
reading.py): the computer's card is the whole-deal ``pimc-inference`` or ``pimc-king``
player's card, card by card, on many deals (the kings marked as the deal marked them); the
double-dummy values are the reference's ``move_values``; bad positions name the token and
the law."""
from __future__ import annotations

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.play import card_advice as cards
from ecarte_sim.engine.cards import CardError, format_card
from ecarte_sim.engine.ecarte import reference
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.laws.position import said_of
from ecarte_sim.engine.ecarte.laws.tricks import ELDER, leader_wins


def positions(d):
    """Each card of a deal's play: (number, mover, mover's hand, adversary's hand,
    leader, elder's tricks, card led or -1)."""
    trump = d.turn_up >> 3
    leader, tricks, led = ELDER, 0, -1
    hands = [int(d.elder_hand), int(d.dealer_hand)]
    for j, c in enumerate(d.play):
        who = leader if j % 2 == 0 else 1 - leader
        yield j, who, hands[who], hands[1 - who], leader, tricks, (led if j % 2 else -1)
        hands[who] &= ~(1 << int(c))
        if j % 2 == 0:
            led = int(c)
        else:
            if not leader_wins(led, int(c), trump):
                leader = who
            if leader == ELDER:
                tricks += 1


def mover_args(d, j, who, own, score):
    role = "elder" if who == ELDER else "dealer"
    groups = [(int(x[0] if who == ELDER else x[2]),
               bin(int(x[2] if who == ELDER else x[0])).count("1")) for x in d.exchanges]
    return dict(hand=int(own), turn_up=int(d.turn_up), role=role, said=said_of(d),
                discards=groups, played=[int(x) for x in d.play[:j]], score=score)


def king_said(d) -> str:
    """Who announced the king of trumps in deal ``d`` (the engine's players always do)."""
    return "elder" if d.king_elder else "dealer" if d.king_dealer else "none"


@pytest.mark.quick
@pytest.mark.parametrize("chooser", ["pimc-inference", "pimc-king"])
@pytest.mark.parametrize("model,score,deals", [("strategy", (0, 0), 200),
                                               ("strategy", (3, 4), 200),
                                               ("treatise", (1, 2), 200)])
def test_computer_card_is_the_whole_deal_players_card(model, score, deals, chooser):
    """Every card of ``deals`` whole deals played by two ``chooser`` players (W = 64):
    computer_card in the same position, same seed and deal, chooses the card played —
    including after exchanges (the history particles grown as in the deal); pimc-king told
    who announced the king, read as the engine's players announce it (always)."""
    cfg, script = cards.settings_for(model, score, 64, play=chooser)
    runner = DealRunner()
    checked = exchanged = 0
    for i in range(deals):
        d = runner.play(11, i, np.array(cfg), np.array(script))
        if d.ended:
            continue
        exchanged += bool(d.exchanges)
        for j, who, own, _, _, _, _ in positions(d):
            got = cards.computer_card(**mover_args(d, j, who, own, score), seed=11, deal=i,
                                      model=model, chooser=chooser, worlds=64,
                                      king=king_said(d), policy=0)
            assert got == format_card(int(d.play[j])), (i, j)
            checked += 1
    # the check reaches exchanged deals on every row (how many depends on how often the
    # shipped strategy proposes and accepts at that score: 39 of 200 at 3-4)
    assert checked > 9 * deals and exchanged >= deals // 10


def test_card_values_best_is_the_computer_card_and_dd_is_the_reference():
    """On positions of whole deals: the verdict's best card is computer_card's; each legal
    card's dd value equals the reference's move_values; the worlds' counts add up."""
    score = (2, 3)
    cfg, script = cards.settings_for("strategy", score, 64)
    runner = DealRunner()
    checked = 0
    for i in range(40):
        d = runner.play(5, i, np.array(cfg), np.array(script))
        if d.ended:
            continue
        for j, who, own, other, leader, tricks, led in positions(d):
            if j % 3:
                continue
            args = mover_args(d, j, who, own, score)
            v = cards.card_values(**args, seed=5, deal=i, opponent=int(other),
                                  chooser="pimc-inference", worlds=64)
            assert v["best"] == format_card(int(d.play[j]))
            e, dl = (own, other) if who == ELDER else (other, own)
            ref = reference.move_values(int(e), int(dl), int(d.turn_up) >> 3, leader, tricks,
                                        None if led < 0 else led)
            assert {r["card"]: r["dd_tricks"] for r in v["cards"]} == \
                {format_card(c): t for c, t in ref.items()}
            for r in v["cards"]:
                assert sum(r["outcomes"].values()) == 64
                assert r["point_ci95"][0] <= r["point"] <= r["point_ci95"][1]
            checked += 1
    assert checked > 50


def test_the_verdict_is_deterministic_and_depends_on_the_seed():
    args = dict(said="propose,refuse", seed=3, deal=9)
    a = cards.card_values("KH JH TH QD JS", "9C", "elder", **args)
    b = cards.card_values("KH JH TH QD JS", "9C", "elder", **args)
    assert a == b
    seeds = {tuple(r["marks"] for r in cards.card_values(
        "KH JH TH QD JS", "9C", "elder", said="propose,refuse", seed=s)["cards"])
        for s in range(4)}
    assert len(seeds) > 1


def test_law_49_doubles_the_marks_after_a_refusal():
    """The same dd line is worth 2 to the elder after a refusal, 1 after an acceptance
    that left him the same cards (Laws 48–49)."""
    refused = cards.card_values("KH JH TH QD JS", "9C", "elder", said="propose,refuse",
                                opponent="KC QC 8S 7D AH")
    by = {r["card"]: r for r in refused["cards"]}
    assert by["JS"]["dd_point"] and by["JS"]["dd_marks"] == 2
    assert not by["TH"]["dd_point"] and by["TH"]["dd_marks"] == -1
    played = cards.card_values("KH JH TH QD JS", "9C", "elder", said="play",
                               opponent="KC QC 8S 7D AH")
    assert {r["card"]: r["dd_marks"] for r in played["cards"]}["TH"] == -2


@pytest.mark.parametrize("kwargs,token", [
    (dict(hand="KH JH TH QD", turn_up="9C", role="elder"), "KH JH TH QD"),
    (dict(hand="KH JH TH QD XS", turn_up="9C", role="elder"), "XS"),
    (dict(hand="KH JH TH QD JS", turn_up="9C", role="elder", said="accept"), "accept"),
    (dict(hand="KH JH TH QD JS", turn_up="9C", role="elder", said="play,propose"), "propose"),
    (dict(hand="KH JH TH QD JS", turn_up="9C", role="elder", said="propose"), "Law 25"),
    (dict(hand="KH JH TH QD JS", turn_up="9C", role="elder", said="propose,accept,play"),
     "discard group"),
    (dict(hand="KH JH TH QD JS", turn_up="9C", role="dealer"), "Law 40"),
    (dict(hand="KH JH TH QD JS", turn_up="9C", role="knave"), "knave"),
    (dict(hand="KH JH TH QD JS", turn_up="KH", role="elder"), "KH"),
    (dict(hand="JH TH QD JS", turn_up="9C", role="elder", played="KH"), "Law 40"),
    (dict(hand="8H 9H TD JC", turn_up="9C", role="dealer", played="KH 7S QD"), "Law 43"),
    (dict(hand="KH JH TH QD", turn_up="9C", role="elder", played="KH"), "KH"),
    (dict(hand="KH JH TH QD JS", turn_up="9C", role="elder", score="5-0"), "5-0"),
    (dict(hand="7H JH TH QD JS", turn_up="9C", role="elder", said="propose,accept,play",
          discards="-:2"), "Law 27"),
])
def test_bad_positions_name_the_token(kwargs, token):
    with pytest.raises((ValueError, CardError), match=token.replace(" ", ".")):
        cards.computer_card(**kwargs)


def test_the_tables_view_of_the_computer_gives_the_same_card():
    """The practice table passes its own view (discards per exchange as (own thrown mask,
    adversary's count), the cards played as (role, card), seed and deal index): the same
    card, as text whose int() is the card's index."""
    from types import SimpleNamespace
    score = (1, 1)
    cfg, script = cards.settings_for("strategy", score, 64)
    runner = DealRunner()
    n = 0
    for i in range(30):
        d = runner.play(2, i, np.array(cfg), np.array(script))
        if d.ended:
            continue
        for j, who, own, _, _, _, _ in positions(d):
            a = mover_args(d, j, who, own, score)
            roles = []
            leader = ELDER
            for k, c in enumerate(d.play[:j]):      # whose card each was
                w = leader if k % 2 == 0 else 1 - leader
                roles.append("elder" if w == ELDER else "dealer")
                if k % 2 and not leader_wins(int(d.play[k - 1]), int(c), d.turn_up >> 3):
                    leader = w
            view = SimpleNamespace(role=a["role"], hand=a["hand"], turn_up=a["turn_up"],
                                   said=tuple(a["said"]), discards=tuple(a["discards"]),
                                   own_discards=0, seen=0,
                                   played=tuple(zip(roles, a["played"])), seed=2, index=i,
                                   score=score)
            card = cards.computer_card(view, worlds=64, chooser="pimc-inference")
            assert card == format_card(int(d.play[j])) and int(card) == int(d.play[j])
            n += 1
    assert n > 200


def test_the_cards_command_prints_the_verdict(cli):
    code, out, _ = cli("cards", "KH JH TH QD JS", "--turn-up", "9C", "--said",
                       "propose,refuse", "--opponent", "KC QC 8S 7D AH", "--json")
    import json
    result = json.loads(out)
    assert code == 0 and out.count("\n") == 1
    expect = cards.card_values("KH JH TH QD JS", "9C", "elder", said="propose,refuse",
                               opponent="KC QC 8S 7D AH")
    assert result["cards"] == expect["cards"] and result["best"] == expect["best"]
    code, out, _ = cli("cards", "KH JH TH QD JS", "--turn-up", "9C", "--said",
                       "propose,refuse")
    assert code == 0 and f"plays {expect['best']}" in out


@pytest.mark.parametrize("args,token", [
    (("KH JH TH QD XS", "--turn-up", "9C"), "XS"),
    (("KH JH TH QD JS", "--turn-up", "9C", "--said", "accept"), "accept"),
    (("8H 9H TD JC", "--turn-up", "9C", "--role", "dealer", "--played", "KH 7S QD"), "Law 43"),
    (("KH JH TH QD JS", "--turn-up", "9C", "--opponent", "KH 7S 8S 9S TS"), "KH"),
    (("KH JH TH QD JS", "--turn-up", "9C", "--discards", "7S"), "7S"),
])
def test_the_cards_command_refuses_bad_input_in_one_line(cli, args, token):
    code, out, err = cli("cards", *args)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("Error: ") and token in err


def test_the_practice_bench_reports_percentiles():
    """The bench's shape (no wall-time assert): every card of the deals timed three ways."""
    from ecarte_sim.apps.bench.throughput import practice_bench
    r = practice_bench(deals=4, seed=1)
    assert r["worlds"] == 64 and r["positions"] >= 30
    for k in ("computer_card", "card_values", "coach_grade"):
        assert 0 < r[k]["median_ms"] <= r[k]["p95_ms"] <= r[k]["max_ms"]
        assert 0 < r[k]["p95_ms_with_a_choice"] <= r[k]["max_ms"]


@pytest.mark.parametrize("model", ["treatise", "strategy"])
def test_the_worlds_honour_what_was_said(model):
    """Every world of a verdict is a hand on which the opponent model says what was said
    (none fell back to uniform here): after the elder played without proposing, the
    dealer's worlds are hands the model plays (with the card led); after a refusal, the
    elder's worlds are hands on which the model refuses."""
    from ecarte_sim.engine.ecarte.decisions.policies import (dealer_accepts, elder_proposes,
                                                             score_slot)
    from ecarte_sim.engine.ecarte.settings import CFG
    cfg, script = cards.settings_for(model, (1, 3), 64)
    at = CFG.at
    slot = score_slot(1, 3)
    turn_up = parse_card_("9C")
    played = cards.parse_position("8H 9H TD JC 7C", "9C", "dealer", played="KH",
                                  score=(1, 3))
    _, _, _, hands, payoff, _, _ = cards.decide_position(played, 4, 2, 64, model, True, True)
    from ecarte_sim.engine.ecarte.records import PAYOFF
    assert payoff[PAYOFF.at.INFER_FALLBACKS] == 0
    king = np.uint32(1 << parse_card_("KH"))
    for h in hands:
        assert not elder_proposes(cfg[at.ELDER_POLICY], cfg[at.THRESHOLD], np.uint32(h) | king,
                                  turn_up >> 3, 0, script, turn_up, slot)
    refused = cards.parse_position("KH JH TH QD JS", "9C", "elder", said="propose,refuse",
                                   score=(1, 3))
    _, _, _, hands, payoff, _, _ = cards.decide_position(refused, 4, 2, 64, model, True, True)
    assert payoff[PAYOFF.at.INFER_FALLBACKS] == 0
    for h in hands:
        assert not dealer_accepts(cfg[at.DEALER_POLICY], np.uint32(h), turn_up >> 3, 0, script,
                                  turn_up, slot)


def parse_card_(text):
    from ecarte_sim.engine.cards import parse_card
    return parse_card(text)


def test_the_inferring_values_estimate_the_exact_posterior():
    """The verdict's P(point) per card against an enumeration: the dealer answering the
    elder's lead after he played without proposing (the treatise's model: Hoyle's list),
    every elder hand that holds the card led and is a jeu de règle weighed once (his hand
    never changed, so the posterior is uniform over them), each reply solved double
    dummy. The sampled shares (W = 4096) lie within four standard errors."""
    from itertools import combinations

    from ecarte_sim.engine.cards import parse_card, parse_hand
    from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule
    from ecarte_sim.engine.ecarte.search.moves import legal_moves
    from ecarte_sim.engine.ecarte.search.solver import value_after
    own = int(parse_hand("8H 9H TD JC 7C"))
    up, led = parse_card("9C"), parse_card("KH")
    trump = up >> 3
    unseen = [c for c in range(32) if not (own >> c) & 1 and c != up and c != led]
    legal = int(legal_moves(np.uint32(own), led, trump, True))
    replies = [c for c in range(32) if legal >> c & 1]
    wins = {c: 0 for c in replies}
    n = 0
    for rest in combinations(unseen, 4):
        elder = (1 << led) | sum(1 << c for c in rest)
        if regle_rule(np.uint32(elder), trump) == 0:
            continue                              # he would have proposed
        n += 1
        for c in replies:
            t = value_after(np.uint32(elder & ~(1 << led)), np.uint32(own), 0, 0, led, trump,
                            True, c)
            wins[c] += t <= 2
    v = cards.card_values("8H 9H TD JC 7C", "9C", "dealer", said="play", played="KH",
                          model="treatise", worlds=4096, seed=8, chooser="pimc-inference")
    assert v["fallback_worlds"] == 0 and n > 100
    for r in v["cards"]:
        p = wins[parse_card(r["card"])] / n
        se = max(np.sqrt(p * (1 - p) / 4096), 1e-3)
        assert abs(r["point"] - p) < 4 * se, (r["card"], r["point"], p)


@pytest.mark.quick
def test_who_announced_the_king_is_checked_and_read():
    """Only its holder announces the king of trumps (Law 25); the adversary's
    announcement puts it in every world of pimc-king's values, his silence (a player who
    always announces) in none, and not told says nothing (as pimc-inference)."""
    with pytest.raises(ValueError, match="Law 25"):
        cards.parse_position("JH AH 9D 8D", "QH", "elder", played="QD 7D", king="elder")
    with pytest.raises(ValueError, match="Law 25"):
        cards.parse_position("KH AH 9D 8D", "QH", "elder", played="QD 7D", king="dealer")
    with pytest.raises(ValueError, match="queen"):
        cards.parse_position("JH AH 9D 8D", "QH", "elder", played="QD 7D", king="queen")
    p = {k: cards.parse_position("JH AH 9D 8D", "QH", "elder", played="QD 7D", king=k)
         for k in ("dealer", "none", None)}
    assert [p[k].adversary_king for k in ("dealer", "none", None)] == [True, False, None]
    king = 1 << parse_card_("KH")
    for k, want in (("dealer", "all"), ("none", "none")):
        _, _, _, hands, _, weights, _ = cards.decide_position(
            p[k], 1, 97, 256, "treatise", True, True, "pimc-king")
        held = [bool(int(h) & king) for h, w in zip(hands, weights) if w]
        assert held and (all(held) if want == "all" else not any(held))
    _, _, _, hands, _, weights, _ = cards.decide_position(p[None], 1, 97, 256, "treatise",
                                                          True, True, "pimc-king")
    _, _, _, plain, _, _, _ = cards.decide_position(p[None], 1, 97, 256, "treatise", True,
                                                    True, "pimc-inference")
    assert (hands == plain).all() and (weights == 1000).all()
