"""Why each decision of a whole deal was made: the rule, maxim, threshold or law behind it,
in the treatise's words (*Hoyle's Games Modernized*, "Écarté"; the Club Code laws it
quotes; the *Rules of Ecarté* for the single-exchange agreement).

Every reason is computed with the engine's own policy functions
(:mod:`ecarte_sim.engine.ecarte.decisions.policies`, :mod:`ecarte_sim.engine.ecarte.decisions.regle`), on the
hand the player held at that moment (rebuilt from the deal record), so a reason cannot
name a rule that did not make the decision: :func:`deal_reasons` replays the deal's
decisions and marks any the policy would not have made (``basis == "unexplained"``: the
deal was played under other settings or a script).

A :class:`Reason` is a clause without a subject ("a jeu de règle: three trumps ..."), so
the narrative can say "B plays without proposing: <reason>"; ``as_dict`` is its JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ecarte_sim.engine.cards import N_CARDS, format_card, format_hand
from ecarte_sim.engine.ecarte.deals.runner import WholeDeal
from ecarte_sim.engine.ecarte.decisions.policies import (MAXIM_ACCEPTS, MAXIM_CASES, SCRIPT_LEN,
                                                         dealer_accepts, elder_proposes,
                                                         rule_discard, maxim_case, strength,
                                                         weakest)
from ecarte_sim.engine.ecarte.decisions.regle import explain
from ecarte_sim.engine.ecarte.laws.deal import TURN_UP_POSITION
from ecarte_sim.engine.ecarte.records import Law49, ProposalsEnd
from ecarte_sim.engine.ecarte.settings import (DealerFirst, DealerPolicy, Discard, EcarteSettings,
                                               ElderFirst, ElderPolicy, member, name_of)

#: The stock at the start of the proposals (the 21 cards under the turn-up).
STOCK = N_CARDS - TURN_UP_POSITION - 1
_SCRIPT = np.zeros(SCRIPT_LEN, dtype=np.int64)   # no script: every policy its own
_KINGS, _QUEENS, _KNAVES, _ACES = 0x80808080, 0x40404040, 0x20202020, 0x10101010

#: The dealer's maxims (Hoyle's Games Modernized), by :data:`MAXIM_CASES` name: Hoyle's
#: words, and a short name for the second time the same maxim speaks in a deal.
MAXIM_WORDS = {
    "three-trumps-with-king": (
        "With three trumps, refuse, unless the king of trumps is one of the three, when "
        "there is a great chance that the cards taken in may enable the vole to be won.",
        "the maxim of three trumps with the king"),
    "three-trumps-no-king": (
        "With three trumps, refuse, unless the king of trumps is one of the three",
        "the maxim of three trumps without the king"),
    "one-trump-guarded-courts": (
        "But with one trump, two queens guarded, or a king and queen guarded, refuse.",
        "the maxim of one trump and guarded queens"),
    "one-trump-one-king-low": (
        "With only one trump and one king, no matter what the other suits may be, if not "
        "having a card higher than a ten, accept.",
        "the maxim of one trump and one king"),
    "two-to-discard": (
        "As a general rule, refuse if only two cards can be discarded. A king or a trump "
        "should not be discarded in the first instance.",
        "the general rule: refuse if only two cards can be discarded"),
}
#: Hoyle on the jeux de règle, for the dealer: "hands which ought to be played without
#: 'proposing' or 'accepting.'"
REGLE_WORDS = "hands which ought to be played without \u201cproposing\u201d or \u201caccepting\u201d"
#: The discard rule of each discard policy: what is kept, and the words behind it.
DISCARD_KEEPS = {
    Discard.TRUMPS_KINGS: ("trumps or kings", "a trump or a king", "neither a trump nor a king",
                           "\u201cA king or a trump should not be discarded in the first "
                           "instance\u201d"),
    Discard.TRUMPS_QUEENS: ("trumps, kings or queens", "a trump, a king or a queen",
                            "neither a trump, a king nor a queen",
                            "discard policy trumps-queens: keep trumps, kings and queens"),
    Discard.TRUMPS_ONLY: ("trumps", "a trump", "not a trump",
                          "discard policy trumps-only: keep only trumps"),
    Discard.TRUMPS_KNAVES: ("trumps, kings, queens or knaves", "a trump or a court card",
                            "neither a trump nor a court card",
                            "discard policy trumps-knaves: keep trumps, kings, queens and "
                            "knaves"),
    Discard.TRUMPS_ACES: ("trumps, court cards or aces", "a trump, a court card or an ace",
                          "neither a trump, a court card nor an ace",
                          "discard policy trumps-aces: keep trumps, kings, queens, knaves "
                          "and aces"),
    Discard.FEWEST: ("kept", "a card he keeps", "not kept",
                     "discard policy fewest: keep all five, or throw only the weakest"),
}
LAW_38 = ("the non-dealer is entitled to exchange as many as he asked for, or, if there "
          "are not enough, as many as there are left, and the dealer must play his hand")
LAW_46 = ("the game may count a treble if the adversary has not scored; a double if he has "
          "scored one or two; a single if he has scored three or four")
LAW_49_PLAYED = ("If the non-dealer play without proposing, and fail to win the point, his "
                 "adversary is entitled to mark two.")
LAW_49_REFUSED = ("If the dealer refuse the first proposal, and fail to win the point, the "
                  "non-dealer is entitled to mark two.")
LAW_49_ONLY_FIRST = "These scores apply only to the first proposal or refusal in a hand"
SECOND_DISCARD = "Sometimes a second discard is allowed, but that must be by previous agreement."
PROPOSING_TOO_MUCH = ("Inexperienced players, as a rule, are too apt to propose, and to continue "
                      "proposing till the pack is exhausted.")
_WORDS = ("no", "one", "two", "three", "four", "five")


#: Why the computed strategy decided, in the first round and in the later ones.
_STRATEGY_WORDS = ("the computed strategy of five up: its table for this hand and turn-up at "
                   "this score (solved by best responses, audited hand by hand)",
                   "the computed strategy of five up: its table for the rounds after the "
                   "first exchange (Law 49 doubles nothing there), read on this hand at this "
                   "score")


def _q(text: str) -> str:
    return f"\u201c{text}\u201d"


def _n(count: int, noun: str) -> str:
    word = _WORDS[count] if count < len(_WORDS) else str(count)
    return f"{word} {noun}{'' if count == 1 else 's'}"


def _weakest(n: int) -> str:
    return "the weakest" if n == 1 else f"the {_WORDS[n]} weakest"


def _remain(n: int) -> str:
    return "one remains" if n == 1 else f"{_WORDS[n]} remain"


def _cards(mask: int) -> str:
    return format_hand(int(mask)) if mask else "-"


@dataclass(frozen=True)
class Reason:
    """One decision and why: ``decision`` (play, propose, accept, refuse, discard, no-card,
    must-play), ``basis`` (what decided: jeu-de-regle, not-jeu-de-regle, threshold,
    always-play, always-propose, maxim, regle, always-accept, always-refuse, discard-rule,
    law-27, law-38, dealer-min-one, forced, scripted, proposal-limit, unexplained),
    ``text`` the reason in words (no subject), ``short`` the same when it was given
    before in the deal, ``detail`` what it names (rule, maxim, strength, law ...)."""

    decision: str
    basis: str
    text: str
    short: str = ""
    detail: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        """What the reason names (the same key twice in a deal: ``short`` the second
        time)."""
        return f"{self.basis}:{self.detail.get('maxim') or self.detail.get('rule') or ''}"

    def as_dict(self) -> dict:
        return {"decision": self.decision, "basis": self.basis, "reason": self.text,
                **self.detail}


# --------------------------------------------------------------------------- the elder

def strength_parts(hand: int, trump: int) -> list[tuple[int, int]]:
    """(card, points) of the ``threshold`` policy's strength count, card by card (their
    sum is :func:`~ecarte_sim.engine.ecarte.decisions.policies.strength`)."""
    parts = []
    for c in sorted(range(N_CARDS), key=lambda c: (c >> 3, -(c & 7))):  # S H D C, high first
        if not hand >> c & 1:
            continue
        bit, suit = 1 << c, c >> 3
        if suit == trump:
            pts = 3 + (1 if bit & (_KINGS | _QUEENS) else 0)
        elif bit & _KINGS:
            pts = 2
        elif bit & _QUEENS:
            pts = 1
        elif bit & _KNAVES and hand & (0xFF << (8 * suit)) & (_KINGS | _QUEENS):
            pts = 1
        else:
            pts = 0
        if pts:
            parts.append((c, pts))
    return parts


def _nearest_text(why: dict, brief: bool) -> str:
    n = why["nearest"]
    by = "one card" if n["short_by"] == 1 else f"{_WORDS[n['short_by']]} cards"
    x = n["exchange"]
    text = (f"nearest is rule {n['rule_id']}, {n['rule_name']}, missed by {by}: "
            f"{n['missing']}")
    if not brief:
        text += f" ({x['out']} out, {x['in']} in would make it)"
    return text


def elder_decision(settings: EcarteSettings, hand: int, trump: int, rnd: int,
                   forced: ElderFirst = ElderFirst.BY_POLICY, exclude: int = 0) -> Reason:
    """The elder's play-or-propose on ``hand`` in round ``rnd``, and why (the decision is
    the kernel's: :func:`elder_proposes`)."""
    forced = member(ElderFirst, forced, "elder first decision")
    if rnd == 0 and forced != ElderFirst.BY_POLICY:
        arm = name_of(forced)
        decision = "propose" if forced == ElderFirst.PROPOSE else "play"
        return Reason(decision, "forced", f"forced to {arm} (the {arm!r} arm of a paired "
                      "experiment fixes the first decision; the policy decides later ones)",
                      detail={"forced": arm})
    policy = settings.elder_policy
    pname = name_of(policy)
    if policy == ElderPolicy.STRATEGY:
        return Reason(pname, pname, _STRATEGY_WORDS[rnd > 0], detail={"policy": pname})
    if policy in (ElderPolicy.SCRIPTED, ElderPolicy.TABLE):
        return Reason(pname, pname, f"decided by a {pname}, not by a rule of the treatise",
                      detail={"policy": pname})
    proposes = bool(elder_proposes(int(policy), settings.threshold, np.uint32(hand), trump,
                                   rnd, _SCRIPT, 0, 0))
    decision = "propose" if proposes else "play"
    if policy == ElderPolicy.REGLE:
        why = explain(hand, trump, exclude, person="he")
        if why["rule"]:
            return Reason(decision, "jeu-de-regle",
                          f"a jeu de règle by Hoyle's list, rule {why['rule_id']}, "
                          f"{why['reason']} ({_q(why['words'])})",
                          f"a jeu de règle, rule {why['rule_id']}, {why['reason']}",
                          {"policy": pname, "rule": why["rule"],
                           "rule_name": why["rule_name"]})
        near = why["nearest"]
        return Reason(decision, "not-jeu-de-regle",
                      f"not a jeu de règle by Hoyle's list; {_nearest_text(why, False)}",
                      f"not a jeu de règle; {_nearest_text(why, True)}",
                      {"policy": pname, "rule": None, "nearest": near["rule"],
                       "nearest_name": near["rule_name"], "short_by": near["short_by"],
                       "missing": near["missing"]})
    if policy == ElderPolicy.THRESHOLD:
        s = int(strength(np.uint32(hand), trump))
        parts = ", ".join(f"{format_card(c)} {p}" for c, p in strength_parts(hand, trump))
        cmp = f"below the threshold {settings.threshold}" if proposes else \
            f"at least the threshold {settings.threshold}"
        text = (f"strength {s} ({parts or 'nothing counts'}) is {cmp} (threshold policy: "
                "a trump 3, the king or queen of trumps 1 more, a plain king 2, a plain "
                "queen 1, a knave with its king or queen 1)")
        return Reason(decision, "threshold", text, f"strength {s} ({parts or 'nothing'}) is "
                      f"{cmp}", {"policy": pname, "strength": s,
                                 "threshold": settings.threshold})
    if policy == ElderPolicy.ALWAYS_PLAY:
        return Reason(decision, "always-play", "policy always-play: he never proposes",
                      detail={"policy": pname})
    return Reason(decision, "always-propose", "policy always-propose: he proposes while the "
                  f"stock allows ({_q(PROPOSING_TOO_MUCH)})", "policy always-propose",
                  {"policy": pname})


# --------------------------------------------------------------------------- the dealer

def _maxim_detail(case: str, hand: int, trump: int) -> str:
    """What in the dealer's hand makes maxim ``case`` speak."""
    suit = 0xFF << (8 * trump)
    trumps, plain = hand & suit, hand & ~suit & 0xFFFFFFFF
    n = bin(trumps).count("1")
    if case in ("three-trumps-with-king", "three-trumps-no-king"):
        how = "with" if case.endswith("with-king") else "without"
        return f"he holds {_n(n, 'trump')} ({_cards(trumps)}), {how} the king"
    if case == "one-trump-guarded-courts":
        guarded = [plain & (0xFF << (8 * s)) for s in range(4)
                   if plain & (0xFF << (8 * s)) & _QUEENS
                   and bin(plain & (0xFF << (8 * s))).count("1") >= 2]
        queens = " and ".join(f"the queen guarded in {_cards(g)}" for g in guarded)
        if len(guarded) >= 2:
            return f"one trump ({_cards(trumps)}), two queens guarded ({queens})"
        return (f"one trump ({_cards(trumps)}), a king ({_cards(plain & _KINGS)}) and "
                f"{queens}")
    if case == "one-trump-one-king-low":
        return (f"one trump ({_cards(trumps)}) and one king ({_cards(plain & _KINGS)}), "
                "no other card above a ten")
    if case == "two-to-discard":
        loose = plain & ~_KINGS
        count = bin(loose).count("1")
        if count == 0:
            return "no card can be discarded: every card he holds is a trump or a king"
        return (f"only {_n(count, 'card')} ({_cards(loose)}) can be discarded, the rest "
                "being trumps or kings")
    raise ValueError(case)


def dealer_decision(settings: EcarteSettings, hand: int, trump: int, rnd: int,
                    forced: DealerFirst = DealerFirst.BY_POLICY) -> Reason:
    """The dealer's accept-or-refuse on ``hand`` in round ``rnd``, and why (the decision
    is the kernel's: :func:`dealer_accepts`; the maxim the kernel's :func:`maxim_case`)."""
    forced = member(DealerFirst, forced, "dealer first decision")
    if rnd == 0 and forced != DealerFirst.BY_POLICY:
        arm = name_of(forced)
        return Reason("accept" if forced == DealerFirst.ACCEPT else "refuse", "forced",
                      f"forced to {arm} (the {arm!r} arm of a paired experiment fixes the "
                      "first answer; the policy decides later ones)", detail={"forced": arm})
    policy = settings.dealer_policy
    pname = name_of(policy)
    if policy == DealerPolicy.STRATEGY:
        return Reason(pname, pname, _STRATEGY_WORDS[rnd > 0], detail={"policy": pname})
    if policy in (DealerPolicy.SCRIPTED, DealerPolicy.TABLE):
        return Reason(pname, pname, f"decided by a {pname}, not by a rule of the treatise",
                      detail={"policy": pname})
    accepts = bool(dealer_accepts(int(policy), np.uint32(hand), trump, rnd, _SCRIPT, 0, 0))
    decision = "accept" if accepts else "refuse"
    if policy == DealerPolicy.MAXIMS:
        case = MAXIM_CASES[int(maxim_case(np.uint32(hand), trump)) - 1]
        assert MAXIM_ACCEPTS[MAXIM_CASES.index(case)] == accepts
        if case in MAXIM_WORDS:
            words, name = MAXIM_WORDS[case]
            what = _maxim_detail(case, hand, trump)
            return Reason(decision, "maxim", f"{what} ({_q(words)})", f"{what} ({name})",
                          {"policy": pname, "maxim": case})
        why = explain(hand, trump, 0, person="he")
        if why["rule"]:
            return Reason(decision, "maxim",
                          f"the maxims are silent, and his hand is a jeu de règle (rule "
                          f"{why['rule_id']}, {why['rule_name']}), one of the "
                          f"{_q(REGLE_WORDS)}",
                          f"the maxims are silent; a jeu de règle (rule {why['rule_id']}, "
                          f"{why['rule_name']})",
                          {"policy": pname, "maxim": case, "rule": why["rule"]})
        return Reason(decision, "maxim", "the maxims are silent, and his hand is no jeu de "
                      "règle (where Hoyle says nothing, this simulator's dealer accepts)",
                      "the maxims are silent, no jeu de règle",
                      {"policy": pname, "maxim": case})
    if policy == DealerPolicy.REGLE:
        why = explain(hand, trump, 0, person="he")
        if why["rule"]:
            return Reason(decision, "regle", f"a jeu de règle (rule {why['rule_id']}, "
                          f"{why['rule_name']}), one of the {_q(REGLE_WORDS)} (policy regle)",
                          f"a jeu de règle (rule {why['rule_id']}, {why['rule_name']})",
                          {"policy": pname, "rule": why["rule"]})
        return Reason(decision, "regle", "his hand is no jeu de règle (policy regle: refuse "
                      "only with one)", "no jeu de règle (policy regle)",
                      {"policy": pname, "rule": None})
    return Reason(decision, pname, f"policy {pname}", detail={"policy": pname})


# --------------------------------------------------------------------------- the discards

def _rule_of(policy: Discard) -> tuple[str, str, str, str]:
    return DISCARD_KEEPS.get(policy, ("cards it keeps", "a card it keeps",
                                      "what the script names", "a scripted discard"))


def elder_discard(settings: EcarteSettings, hand: int, trump: int, left: int) -> Reason:
    """The elder's discard on ``hand`` with ``left`` cards in the stock (at least one), as
    the kernel makes it, and why; ``detail["out"]`` the cards (canonical text)."""
    policy = settings.elder_discard
    keeps, _, neither, words = _rule_of(policy)
    if policy == Discard.STRATEGY:
        return Reason("discard", name_of(policy), "as the computed strategy of five up "
                      "throws from this hand (its discard table)", detail={"out": None})
    if policy in (Discard.SCRIPTED, Discard.TABLE):
        return Reason("discard", name_of(policy), f"as the {name_of(policy)} says",
                      detail={"out": None})
    chosen = int(rule_discard(int(policy), np.uint32(hand), trump))
    detail = {"policy": name_of(policy)}
    if chosen == 0:
        out = int(weakest(np.uint32(hand), 1, trump))
        text = (f"his weakest card, as all five are {keeps} and the elder must discard at "
                "least one (Law 27; to propose is \u201casking for fresh cards\u201d)")
        return Reason("discard", "law-27", text, "his weakest card (Law 27: at least one)",
                      {**detail, "out": _cards(out), "law": 27})
    if bin(chosen).count("1") > left:
        out = int(weakest(np.uint32(chosen), left, trump))
        text = (f"{_weakest(left)} of the {_WORDS[bin(chosen).count('1')]} cards that are "
                f"{neither} ({words}), as the stock holds only {_WORDS[left]} (Law 38: "
                f"{_q(LAW_38)})")
        return Reason("discard", "law-38", text, f"{_weakest(left)}: the stock holds only "
                      f"{_WORDS[left]} (Law 38)", {**detail, "out": _cards(out), "law": 38})
    text = f"every card that is {neither} ({words})"
    return Reason("discard", "discard-rule", text, f"every card that is {neither}",
                  {**detail, "out": _cards(chosen)})


def dealer_discard(settings: EcarteSettings, hand: int, trump: int, left: int) -> Reason:
    """The dealer's discard on ``hand`` with ``left`` cards in the stock after the
    elder's draw, as the kernel makes it, and why (``decision`` no-card when he takes
    none)."""
    policy = settings.dealer_discard
    keeps, one, neither, words = _rule_of(policy)
    if policy == Discard.STRATEGY:
        return Reason("discard", name_of(policy), "as the computed strategy of five up "
                      "throws from this hand (its discard table)", detail={"out": None})
    if policy in (Discard.SCRIPTED, Discard.TABLE):
        return Reason("discard", name_of(policy), f"as the {name_of(policy)} says",
                      detail={"out": None})
    chosen = int(rule_discard(int(policy), np.uint32(hand), trump))
    detail = {"policy": name_of(policy)}
    if chosen == 0 and settings.dealer_min_one and left > 0:
        out = int(weakest(np.uint32(hand), 1, trump))
        return Reason("discard", "dealer-min-one",
                      f"his weakest card, as all five are {keeps} and by agreement (variant "
                      "--dealer-min-one) the dealer who accepts takes at least one",
                      "his weakest card (variant --dealer-min-one)",
                      {**detail, "out": _cards(out)})
    if chosen == 0:
        return Reason("no-card", "discard-rule", f"every card he holds is {one} ({words})",
                      f"every card he holds is {one}",
                      {**detail, "out": "-"})
    if left == 0:
        return Reason("no-card", "law-38", f"the stock is exhausted (Law 38: {_q(LAW_38)})",
                      "the stock is exhausted (Law 38)", {**detail, "out": "-", "law": 38})
    if bin(chosen).count("1") > left:
        out = int(weakest(np.uint32(chosen), left, trump))
        return Reason("discard", "law-38",
                      f"{_weakest(left)} of the {_WORDS[bin(chosen).count('1')]} cards that "
                      f"are {neither} ({words}), as only {_remain(left)} in the stock (Law 38: "
                      f"{_q(LAW_38)})", f"{_weakest(left)}: only {_remain(left)} (Law 38)",
                      {**detail, "out": _cards(out), "law": 38})
    return Reason("discard", "discard-rule", f"every card that is {neither} ({words})",
                  f"every card that is {neither}", {**detail, "out": _cards(chosen)})


# --------------------------------------------------------------------------- a whole deal

@dataclass
class DealReasons:
    """The reasons of one deal: per exchange (``rounds``) the elder's proposal, the
    dealer's acceptance and both discards; how the proposals ended (``end``: the elder's
    last decision, the dealer's refusal, or the stock or the agreement); Law 49; the
    point; and ``agrees`` (every policy reason gives the decision the record holds)."""

    rounds: list = field(default_factory=list)
    end: dict = field(default_factory=dict)
    law_49: str | None = None
    point: str | None = None
    agrees: bool = True

    def decisions(self) -> list[Reason]:
        out = [r for rnd in self.rounds for r in rnd.values()]
        return out + [r for r in self.end.values() if isinstance(r, Reason)]


def _checked(reason: Reason, recorded: str, out: str | None = None) -> tuple[Reason, bool]:
    """``reason``, or an ``unexplained`` one when it does not give what was recorded."""
    if reason.basis in ("scripted", "table", "strategy"):
        return Reason(recorded, reason.basis, reason.text, detail=reason.detail), True
    made = reason.decision if reason.decision != "no-card" else "discard"
    rec_made = recorded if recorded != "no-card" else "discard"
    same = made == rec_made and (out is None or reason.detail.get("out") == out)
    if same:
        return reason, True
    return Reason(recorded, "unexplained", "not what the policy says: the deal was played "
                  "under other settings or a script", detail={"policy_says": reason.as_dict()}
                  ), False


def deal_reasons(d: WholeDeal, settings: EcarteSettings | None = None, *,
                 elder_first=ElderFirst.BY_POLICY, dealer_first=DealerFirst.BY_POLICY
                 ) -> DealReasons:
    """Replay the decisions of deal ``d`` (played under ``settings``, with the first
    decisions forced as given) and give the reason of each."""
    settings = settings or EcarteSettings()
    trump = d.turn_up >> 3
    turn_up = 1 << d.turn_up
    out = DealReasons()
    if d.how_ended < 0:   # the turned-up king ended the game before any proposal
        return out
    elder, dealer, used = int(d.elder0), int(d.dealer0), 0
    ok = True
    for rnd, (e_out, e_in, x_out, x_in) in enumerate(d.exchanges):
        left = STOCK - used
        step = {}
        step["elder"], good = _checked(
            elder_decision(settings, elder, trump, rnd, elder_first, turn_up), "propose")
        ok &= good
        step["dealer"], good = _checked(
            dealer_decision(settings, dealer, trump, rnd, dealer_first), "accept")
        ok &= good
        step["elder_discard"], good = _checked(
            elder_discard(settings, elder, trump, left), "discard", _cards(e_out))
        ok &= good
        left -= bin(int(e_in)).count("1")
        step["dealer_discard"], good = _checked(
            dealer_discard(settings, dealer, trump, left), "no-card" if not x_out else "discard",
            _cards(x_out))
        ok &= good
        elder = (elder ^ int(e_out)) | int(e_in)
        dealer = (dealer ^ int(x_out)) | int(x_in)
        used += bin(int(e_in)).count("1") + bin(int(x_in)).count("1")
        out.rounds.append(step)
    rnd = len(d.exchanges)
    how = ProposalsEnd(d.how_ended)
    if how == ProposalsEnd.ELDER_PLAYED:
        out.end["elder"], good = _checked(
            elder_decision(settings, elder, trump, rnd, elder_first, turn_up), "play")
        ok &= good
    elif how == ProposalsEnd.DEALER_REFUSED:
        out.end["elder"], good = _checked(
            elder_decision(settings, elder, trump, rnd, elder_first, turn_up), "propose")
        ok &= good
        out.end["dealer"], good = _checked(
            dealer_decision(settings, dealer, trump, rnd, dealer_first), "refuse")
        ok &= good
    elif how == ProposalsEnd.STOCK_EXHAUSTED:
        out.end["stock"] = Reason("must-play", "law-38", "the stock is exhausted, so no "
                                  "proposal can be made and the hands are played as they "
                                  "stand (Law 38)", detail={"law": 38})
    else:
        n = settings.max_proposals
        words = (f"; as the Rules of Ecarté put it, {_q(SECOND_DISCARD)}" if n == 1 else "")
        out.end["limit"] = Reason("must-play", "proposal-limit",
                                  f"by agreement, no more than {_n(n, 'proposal')} in a deal "
                                  f"(--max-proposals {n}){words}",
                                  detail={"max_proposals": n})
    out.agrees = ok
    first = Law49(d.first)
    if first == Law49.PLAYED_WITHOUT_PROPOSING:
        out.law_49 = f"{law_49_effect(d, first)}: {_q(LAW_49_PLAYED)}"
    elif first == Law49.REFUSED_FIRST:
        out.law_49 = f"{law_49_effect(d, first)}: {_q(LAW_49_REFUSED)}"
    elif rnd > 0 and how in (ProposalsEnd.ELDER_PLAYED, ProposalsEnd.DEALER_REFUSED):
        out.law_49 = (f"No Law 49 penalty after an exchange ({_q(LAW_49_ONLY_FIRST)})")
    out.point = point_reason(d)
    return out


def law_49_effect(d: WholeDeal, first: Law49) -> str:
    """What Law 49 did in this deal: "Law 49 doubles the point" only when the side it
    names lost the point (not by the vole, which marks two anyway); otherwise it "would
    double" it (issue 43: said only when it doubled)."""
    offender_is_elder = first == Law49.PLAYED_WITHOUT_PROPOSING
    who = "the elder" if offender_is_elder else "the dealer"
    if d.ended:
        return f"Law 49 would double the point had {who} lost it (the deal was not played)"
    elder_won = d.points_elder > 0
    t = d.elder_tricks
    vole = (t in (0, 5)) if t >= 0 else d.outcome in (0, 3)
    if elder_won != offender_is_elder:
        if vole:
            return (f"Law 49 would double the point; {who} lost the vole, which marks two "
                    f"anyway (Law 48)")
        return f"Law 49 doubles the point: {who} lost it"
    return f"Law 49 would double the point had {who} lost it; {who} won it"


def point_reason(d: WholeDeal, names: tuple[str, str] = ("the elder", "the dealer")
                 ) -> str | None:
    """What the winner of the play wins and marks, and by which law (Laws 48-49), as the
    words after "X wins": "the point with three tricks and marks 2: ..."; None when
    there was no play."""
    if d.ended:
        return None
    elder_won = d.points_elder > 0
    pts = d.points_elder if elder_won else d.points_dealer
    t = d.elder_tricks
    tricks = None if t < 0 else (t if elder_won else 5 - t)
    vole = tricks == 5 if tricks is not None else d.outcome in (0, 3)
    if vole:
        return ("the vole, all five tricks, and marks 2 (Law 48: \u201ca player winning the "
                "vole is entitled to mark two\u201d)")
    won = f"with {_WORDS[tricks]} tricks" if tricks is not None else ""
    if pts == 2:
        loser = names[1] if elder_won else names[0]
        did = ("played without proposing" if d.first == Law49.PLAYED_WITHOUT_PROPOSING
               else "refused the first proposal")
        return (f"the point {won} and marks 2: {loser} {did} and failed to win the point "
                "(Law 49)").replace("  ", " ")
    return (f"the point {won} and marks 1 (Law 48: \u201cA player winning the point is "
            "entitled to mark one\u201d)").replace("  ", " ")


def law_46(winner: str, loser: str, loser_score: int, value: int) -> str:
    """Why a game counts a treble, double or single (Law 46, by agreement)."""
    name = ("single", "double", "treble")[value - 1]
    had = "had not scored" if loser_score == 0 else f"had scored {_WORDS[loser_score]}"
    return (f"a {name} by Law 46's agreement, since {loser} {had} "
            f"({_q(LAW_46)})")
