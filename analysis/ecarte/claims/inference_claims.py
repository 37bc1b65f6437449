"""The claims of Hoyle's Games Modernized that are about inference, with their verdict
rules, fixed here before any run (the rules of :mod:`ecarte_sim.analysis.ecarte.claims.decisions`).

The treatise's dealer decides by his maxims and its elder by Hoyle's list, so the opponent
model is the treatise's own. Each claim has readings, each measured one way:

``refused-two-trumps``  "A proposes, and is refused. He may now conclude that Y has two
    trumps at least." The dealer's trumps after Hoyle's list proposes and the maxims
    refuse: over every deal (exact, :func:`inference.refusal_posterior`), and for the
    example's own hand (K J 10 of hearts, Q♦, J♠, 9♣ turned; every hand the dealer may
    hold, :func:`inference.posterior`). Readings: *likely* (``at_least(0.5)``) and
    *certain* (``at_least(1.0)``).
``strong-suits``        "The probabilities are that Y is strong in hearts and clubs, or
    holds two trumps": A holds Q J of spades, A♥, 7♣ and J♦ (trumps), the turn-up not
    stated (every diamond he does not hold, each hand weighed once). Readings: *two
    trumps likely* (``at_least(0.5)``); *stronger in hearts and in clubs than in spades*
    (the dealer's expected high cards, K Q J A: supported if both exceed the spades',
    contradicted otherwise; exact, so never inconclusive).
``queen-of-spades``     "The queen of spades in this case should, of course, be led": each
    first lead solved double dummy after it over every hand consistent with the refusal
    (:func:`inference.lead_values`; the inferring player's own evaluation with every
    world, which flatters the dealer, who plays as if he saw A's cards). Supported if the
    lead with the highest expected marks is the queen of spades or its equal, the knave;
    contradicted otherwise.
``put-to-a-card``       "Instead, therefore, of playing the third heart he should lead
    either the diamond or the spade": the example played out
    (:func:`inference.put_to_a_card`): A leads K♥, J♥ and, on the hands where both win,
    each third lead; the rest played by the inferring player (``pimc-inference``)
    against an inferring dealer. Readings: *the diamond* and *the spade* each against the
    third heart, paired, ``positive``.
"""

from __future__ import annotations

from ecarte_sim.analysis.ecarte.claims.decisions import SOURCE, at_least, positive
from ecarte_sim.engine.cards import ECARTE, parse_card, parse_hand

Q_REFUSED = ("A holds king, knave, ten, of hearts; queen of diamonds, and knave of spades "
             "(nine of clubs turned up). A proposes, and is refused. He may now conclude that "
             "Y has two trumps at least.")
Q_STRONG = ("Suppose A, the non-dealer, hold queen, knave of spades, ace of hearts, seven of "
            "clubs, and knave of diamonds (trumps). The probabilities are that Y is strong in "
            "hearts and clubs, or holds two trumps.")
Q_QUEEN = "The queen of spades in this case should, of course, be led"
Q_PUT = ("Instead, therefore, of playing the third heart he should lead either the diamond or "
         "the spade, and thus avoid being \"put to a card.\"")
#: The examples' hands.
REFUSED_HAND, REFUSED_TURN_UP = "KH JH TH QD JS", "9C"
STRONG_HAND, STRONG_TRUMP = "QS JS AH 7C JD", 2
#: What each verdict rule means, for the report.
RULES = {"likely": "supported if the probability is at least 1/2, contradicted if below",
         "certain": "supported if the probability is 1, contradicted if below",
         "stronger": "supported if the dealer's expected high cards (K Q J A) in hearts and "
                     "in clubs both exceed those in spades, contradicted otherwise",
         "best-lead": "supported if the lead with the highest expected marks is the queen "
                      "of spades or the knave (its equal), contradicted otherwise",
         "positive": "supported if the 95% interval of the paired difference lies above 0, "
                     "contradicted if below, inconclusive otherwise"}


def _row(cid, quote, reading, rule, estimate, ci95, n, verdict, **extra) -> dict:
    return {"id": cid, "quote": quote, "source": SOURCE, "reading": reading, "rule": rule,
            "rule_text": RULES[rule], "estimate": estimate, "ci95": list(ci95), "n": n,
            "verdict": verdict, **extra}


def inference_claims(worlds: int = 64, seed: int = 0, progress=None) -> list[dict]:
    """Every inference claim of the module docstring, measured and judged."""
    from ecarte_sim.analysis.ecarte.advice import inference as I

    say = progress or (lambda what: None)
    rows = []
    say("every deal: the dealer's trumps after a proposal and a refusal")
    over = I.refusal_posterior()["refused"]
    p = over["two_trumps_or_more"]
    for reading, rule, target in (("likely", "likely", 0.5), ("certain", "certain", 1.0)):
        rows.append(_row("refused-two-trumps", Q_REFUSED,
                         f"{reading}, over every deal (Hoyle's list proposes, the maxims "
                         "refuse)", rule, p, (p, p), over["deals"],
                         at_least(target)(p, p), exact=True))
    own = int(parse_hand(REFUSED_HAND, 5, ECARTE))
    post = I.posterior(own, parse_card(REFUSED_TURN_UP, ECARTE), "propose,refuse", "elder",
                       "maxims")
    p = post["two_trumps_or_more"]
    rows.append(_row("refused-two-trumps", Q_REFUSED,
                     "likely, for the example's hand (K J 10 of hearts, Q♦, J♠; 9♣ turned)",
                     "likely", p, (p, p), post["consistent"], at_least(0.5)(p, p),
                     exact=True))
    say("the queen-of-spades example: every hand, every turn-up")
    own = int(parse_hand(STRONG_HAND, 5, ECARTE))
    turn_ups = [8 * STRONG_TRUMP + r for r in range(8) if not own >> (8 * STRONG_TRUMP + r) & 1]
    hands, trumps2, high = 0, 0.0, {}
    for t in turn_ups:
        post = I.posterior(own, t, "propose,refuse", "elder", "maxims")
        n = post["consistent"]
        hands += n
        trumps2 += post["two_trumps_or_more"] * n
        for letter, suit in post["suits"].items():
            high[letter] = high.get(letter, 0.0) + suit["mean_high_cards"] * n
    p = trumps2 / hands
    high = {k: v / hands for k, v in high.items()}
    rows.append(_row("strong-suits", Q_STRONG, "two trumps or more, likely", "likely", p,
                     (p, p), hands, at_least(0.5)(p, p), exact=True))
    stronger = high["H"] > high["S"] and high["C"] > high["S"]
    rows.append(_row("strong-suits", Q_STRONG,
                     "stronger in hearts and in clubs than in spades (expected K Q J A)",
                     "stronger", high["H"] - high["S"], (high["H"] - high["S"],) * 2, hands,
                     "supported" if stronger else "contradicted", exact=True,
                     high_cards=high))
    leads = I.lead_values(own, turn_ups, "propose,refuse", "maxims")
    best = leads["best"]
    queen = leads["leads"]["QS"]["marks"]
    rows.append(_row("queen-of-spades", Q_QUEEN,
                     "the queen of spades (or the knave, its equal) is the best first lead "
                     "(expected marks, double dummy after the lead)", "best-lead", queen,
                     (queen, queen), leads["consistent"],
                     "supported" if best in ("QS", "JS") else "contradicted", exact=True,
                     best=best, leads={k: v["marks"] for k, v in leads["leads"].items()}))
    say("the put-to-a-card example, played out")
    put = I.put_to_a_card(worlds=worlds, seed=seed)
    for card, name in (("QD", "the diamond"), ("JS", "the spade")):
        d = put["leads"][card]["minus_third_heart"]
        rows.append(_row("put-to-a-card", Q_PUT,
                         f"{name} rather than the third heart (A's marks, paired)",
                         "positive", d["marks"], d["ci95"], put["kept"],
                         positive()(*d["ci95"]), exact=False, worlds=worlds, seed=seed,
                         marks={k: v["marks"] for k, v in put["leads"].items()}))
    return rows


__all__ = ["inference_claims", "RULES"]
