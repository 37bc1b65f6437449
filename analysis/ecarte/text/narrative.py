"""A whole deal (and a game) told as text, or as JSON-ready data."""

from __future__ import annotations

from ecarte_sim.analysis.ecarte.text.reasons import (DealReasons, Reason, deal_reasons, law_46,
                                                     point_reason)
from ecarte_sim.engine.cards import ECARTE, SUIT_NAMES, format_card, format_hand
from ecarte_sim.engine.ecarte.deals.game import Game
from ecarte_sim.engine.ecarte.deals.runner import WholeDeal
from ecarte_sim.engine.ecarte.laws.tricks import leader_wins
from ecarte_sim.engine.ecarte.records import Law49, ProposalsEnd
from ecarte_sim.engine.ecarte.settings import DealerFirst, EcarteSettings, ElderFirst, name_of


def _hand(mask: int, pretty: bool) -> str:
    return format_hand(mask, ECARTE, pretty) if mask else "-"


def tricks_of(d: WholeDeal) -> list[dict]:
    """The play as tricks: leader, cards (indices), winner."""
    out, leader = [], "elder"
    for t in range(len(d.play) // 2):
        led, reply = d.play[2 * t], d.play[2 * t + 1]
        winner = leader if leader_wins(led, reply, d.turn_up >> 3) else (
            "dealer" if leader == "elder" else "elder")
        out.append({"leader": leader, "led": led, "reply": reply, "winner": winner})
        leader = winner
    return out


def _final(why: DealReasons) -> dict:
    return {k: (r.as_dict() if isinstance(r, Reason) else r) for k, r in why.end.items()}


def deal_data(d: WholeDeal, settings: EcarteSettings | None = None, *,
              elder_first=ElderFirst.BY_POLICY, dealer_first=DealerFirst.BY_POLICY) -> dict:
    """Structured record of a whole deal (cards in canonical ASCII), with the reason of
    every decision (:mod:`ecarte_sim.analysis.ecarte.text.reasons`) under ``settings`` (the
    settings the deal was played under; default the defaults): each exchange's
    ``reasons`` (elder, dealer, elder_discard, dealer_discard), ``final_decision`` (how
    the proposals ended and why), ``law_49_reason`` and ``point_reason``."""
    why = deal_reasons(d, settings, elder_first=elder_first, dealer_first=dealer_first)
    return {
        "elder": format_hand(d.elder0), "dealer": format_hand(d.dealer0),
        "turn_up": format_card(d.turn_up), "trump": SUIT_NAMES[d.turn_up >> 3],
        "king_turned": bool(d.king_turned),
        "exchanges": [{"elder_discards": format_hand(e), "elder_draws": format_hand(ed),
                       "dealer_discards": _hand(x, False), "dealer_draws": _hand(xd, False),
                       "reasons": {k: r.as_dict() for k, r in step.items()}}
                      for (e, ed, x, xd), step in zip(d.exchanges, why.rounds)],
        "proposals_ended": name_of(ProposalsEnd(d.how_ended)) if d.how_ended >= 0 else None,
        "final_decision": _final(why) if d.how_ended >= 0 else None,
        "law_49": name_of(Law49(d.first)),
        "law_49_reason": why.law_49,
        "hands_at_play": {"elder": format_hand(d.elder_hand), "dealer": format_hand(d.dealer_hand)},
        "king_in_hand": "elder" if d.king_elder else "dealer" if d.king_dealer else None,
        "ended_game_before_play": bool(d.ended),
        "tricks": [{**t, "led": format_card(t["led"]), "reply": format_card(t["reply"])}
                   for t in tricks_of(d)],
        "elder_tricks": d.elder_tricks if d.elder_tricks >= 0 else None,
        "points": {"elder": d.points_elder, "dealer": d.points_dealer},
        "point_reason": None if why.point is None else
        f"the {'elder' if d.points_elder else 'dealer'} wins {why.point}",
        "marks": {"elder": d.marks_elder, "dealer": d.marks_dealer},
        "reasons_agree": why.agrees,
    }


class _Said:
    """A reason in full the first time it is given in a deal, short after that."""

    def __init__(self):
        self.seen: set[str] = set()

    def __call__(self, r: Reason) -> str:
        if r.key in self.seen and r.short:
            return r.short
        self.seen.add(r.key)
        return r.text


def tell_deal(d: WholeDeal, pretty: bool = False, names: tuple[str, str] = ("elder", "dealer"),
              settings: EcarteSettings | None = None, *, order: tuple[str, str] | None = None,
              brief: bool = False, elder_first=ElderFirst.BY_POLICY,
              dealer_first=DealerFirst.BY_POLICY) -> list[str]:
    """The deal as lines of prose, every decision with its reason (under ``settings``,
    the settings the deal was played under). ``names`` are the elder's and the dealer's;
    ``order`` the order both are named in when they are named together (default: the
    elder first); ``brief`` keeps only how the proposals ended, the point and the marks."""
    e_label, d_label = names
    order = order or names
    # in prose a role is "the elder", a player's name is his name
    e_name = "the elder" if e_label == "elder" else e_label
    d_name = "the dealer" if d_label == "dealer" else d_label
    e_cap = e_name[0].upper() + e_name[1:]
    card = (lambda c: format_card(c, ECARTE, pretty))
    hand = (lambda m: _hand(m, pretty))
    why = deal_reasons(d, settings, elder_first=elder_first, dealer_first=dealer_first)
    said = _Said()
    e_role = "" if e_label == "elder" else " (elder)"
    d_role = "" if d_label == "dealer" else " (dealer)"
    held = {e_label: f"{e_name}{e_role} holds {hand(d.elder0)}",
            d_label: f"{d_name}{d_role} holds {hand(d.dealer0)}"}
    both = (lambda of: f"{order[0]} {of[order[0]]}, {order[1]} {of[order[1]]}")
    lines = [f"{held[order[0]]}; {held[order[1]]}.",
             f"Turn-up {card(d.turn_up)}: {SUIT_NAMES[d.turn_up >> 3]} are trumps."]
    if d.king_turned:
        lines.append(f"{d_name} turned up the king and marks 1 (Law 22: \u201cIf a king be "
                     "turned up, the dealer is entitled to mark it\u201d).")
        if d.how_ended < 0:
            lines.append(f"That mark reaches five: {d_name} wins the game before a card is "
                         "played.")
            lines.append(f"Marks this deal: "
                         f"{both({e_label: d.marks_elder, d_label: d.marks_dealer})}.")
            lines = lines[-3:] if brief else lines
            return [line[0].upper() + line[1:] for line in lines]
    kept = lines[2:] if brief else []   # the turned king, in a brief telling
    for r, ((e, ed, x, xd), step) in enumerate(zip(d.exchanges, why.rounds), 1):
        lines.append(f"Proposal {r}. {e_cap} proposes: {said(step['elder'])}.")
        lines.append(f"{d_name} accepts: {said(step['dealer'])}.")
        lines.append(f"{e_name} discards {hand(e)} and draws {hand(ed)}: "
                     f"{said(step['elder_discard'])}.")
        if x:
            lines.append(f"{d_name} discards {hand(x)} and draws {hand(xd)}: "
                         f"{said(step['dealer_discard'])}.")
        else:
            lines.append(f"{d_name} takes no card: {said(step['dealer_discard'])}.")
    start = len(lines)
    how = ProposalsEnd(d.how_ended)
    n = len(d.exchanges) + 1
    if brief and d.exchanges:
        kept.append(f"{_count(n - 1, 'proposal')} accepted and cards exchanged (each "
                    "decision told with its reason in full: -v).")
    if how == ProposalsEnd.ELDER_PLAYED:
        verb = "plays without proposing" if n == 1 else "proposes no more and plays"
        lines.append(f"{e_name} {verb}: {said(why.end['elder'])}.")
    elif how == ProposalsEnd.DEALER_REFUSED:
        lines.append(f"Proposal {n}. {e_cap} proposes: {said(why.end['elder'])}.")
        lines.append(f"{d_name} refuses: {said(why.end['dealer'])}.")
    else:
        reason = why.end.get("stock") or why.end.get("limit")
        lines.append(_sentence(f"{e_name} must play: {reason.text}"))
    if why.law_49:
        lines.append(_sentence(why.law_49))
    if d.exchanges and not brief:
        at_play = {e_label: hand(d.elder_hand), d_label: hand(d.dealer_hand)}
        lines.append(f"Hands for the play: {order[0]} {at_play[order[0]]}; "
                     f"{order[1]} {at_play[order[1]]}.")
    if d.king_elder or d.king_dealer:
        who = e_name if d.king_elder else d_name
        lines.append(f"{who} announces the king of trumps and marks 1 (Laws 23, 47: "
                     "\u201cA player ... holding the king of trumps in his hand, is entitled "
                     "to mark one\u201d).")
    if d.ended:
        lines.append("That mark reaches five: the game is over before a card is played.")
        lines.append(f"Marks this deal: "
                     f"{both({e_label: d.marks_elder, d_label: d.marks_dealer})}.")
        lines = kept + lines[start:] if brief else lines
        return [line[0].upper() + line[1:] for line in lines]
    if not brief:
        for t, trick in enumerate(tricks_of(d), 1):
            lead = e_name if trick["leader"] == "elder" else d_name
            win = e_name if trick["winner"] == "elder" else d_name
            lines.append(f"Trick {t}: {lead} leads {card(trick['led'])}, "
                         f"{card(trick['reply'])} to it; {win} wins.")
        if not d.play:
            lines.append(f"Played double dummy: the elder's result is {_outcome_text(d)}.")
        et = d.elder_tricks
        if et >= 0:
            lines.append(f"{e_name} takes {et} trick{'s' if et != 1 else ''}.")
    winner = e_name if d.points_elder else d_name
    lines.append(f"{winner} wins {point_reason(d, (e_name, d_name))}.")
    lines.append(f"Marks this deal: "
                 f"{both({e_label: d.marks_elder, d_label: d.marks_dealer})}.")
    lines = kept + lines[start:] if brief else lines
    return [line[0].upper() + line[1:] for line in lines]


def _sentence(text: str) -> str:
    """``text`` ended with a full stop (not a second one after a quoted sentence)."""
    return text if text.endswith((".", ".\u201d")) else text + "."


def _count(n: int, noun: str) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return f"{words[n] if n < len(words) else n} {noun}{'' if n == 1 else 's'}".capitalize()


def _outcome_text(d: WholeDeal) -> str:
    return ("dealer vole", "dealer point", "elder point", "elder vole")[d.outcome]


def game_data(g: Game, settings: EcarteSettings | None = None) -> dict:
    """A game as data: every deal's :func:`deal_data` (reasons under ``settings``), and
    why the game counts what it counts (``law_46_reason``)."""
    return {"seed": g.seed, "game": g.game, "winner": g.winner, "score": g.score,
            "law_46_value": g.value, "law_46_reason": _law_46(g),
            "deals": [{"index": gd.index, "dealer": gd.dealer,
                       "elder": "B" if gd.dealer == "A" else "A",
                       "score_before": gd.score_before, "score_after": gd.score_after,
                       **deal_data(gd.deal, settings)} for gd in g.deals]}


def _law_46(g: Game) -> str:
    loser = "B" if g.winner == "A" else "A"
    return law_46(g.winner, loser, g.score[loser], g.value)


def tell_game(g: Game, pretty: bool = False, verbose: bool = False,
              settings: EcarteSettings | None = None) -> list[str]:
    """The game as lines: each deal (in full with ``verbose``, else how its proposals
    ended, the point and the marks), the score A-B after it, and the Law 46 value.
    Games and deals are counted from 1, each with its index (from 0) beside it: game
    index ``g`` (``--game g``) is told as game ``g + 1``."""
    lines = [f"Game {g.game + 1} (game index {g.game}) of seed {g.seed}: five up, the deal "
             "alternating; scores are given A first."]
    for n, gd in enumerate(g.deals, 1):
        elder = "B" if gd.dealer == "A" else "A"
        before = f"{gd.score_before['A']}-{gd.score_before['B']}"
        after = f"{gd.score_after['A']}-{gd.score_after['B']}"
        lines.append(f"Deal {n} (index {gd.index}), {gd.dealer} deals, {elder} is elder; "
                     f"score A-B {before}:")
        body = tell_deal(gd.deal, pretty, names=(elder, gd.dealer), settings=settings,
                         order=("A", "B"), brief=not verbose)
        lines.extend("  " + line for line in body)
        lines.append(f"  score A-B {after}")
    lines.append(f"{g.winner} wins the game, A-B {g.score['A']}-{g.score['B']}: "
                 f"{_law_46(g)}.")
    return lines
