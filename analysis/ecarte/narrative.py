"""A whole deal (and a game) told as text, or as JSON-ready data."""

from __future__ import annotations

from ecarte_sim.engine.cards import ECARTE, SUIT_NAMES, format_card, format_hand
from ecarte_sim.engine.ecarte.game import Game
from ecarte_sim.engine.ecarte.tricks import leader_wins
from ecarte_sim.engine.ecarte.records import Law49, ProposalsEnd
from ecarte_sim.engine.ecarte.runner import WholeDeal
from ecarte_sim.engine.ecarte.settings import name_of


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


def deal_data(d: WholeDeal) -> dict:
    """Structured record of a whole deal (cards in canonical ASCII)."""
    return {
        "elder": format_hand(d.elder0), "dealer": format_hand(d.dealer0),
        "turn_up": format_card(d.turn_up), "trump": SUIT_NAMES[d.turn_up >> 3],
        "king_turned": bool(d.king_turned),
        "exchanges": [{"elder_discards": format_hand(e), "elder_draws": format_hand(ed),
                       "dealer_discards": _hand(x, False), "dealer_draws": _hand(xd, False)}
                      for e, ed, x, xd in d.exchanges],
        "proposals_ended": name_of(ProposalsEnd(d.how_ended)) if d.how_ended >= 0 else None,
        "law_49": name_of(Law49(d.first)),
        "hands_at_play": {"elder": format_hand(d.elder_hand), "dealer": format_hand(d.dealer_hand)},
        "king_in_hand": "elder" if d.king_elder else "dealer" if d.king_dealer else None,
        "ended_game_before_play": bool(d.ended),
        "tricks": [{**t, "led": format_card(t["led"]), "reply": format_card(t["reply"])}
                   for t in tricks_of(d)],
        "elder_tricks": d.elder_tricks if d.elder_tricks >= 0 else None,
        "points": {"elder": d.points_elder, "dealer": d.points_dealer},
        "marks": {"elder": d.marks_elder, "dealer": d.marks_dealer},
    }


def tell_deal(d: WholeDeal, pretty: bool = False, names: tuple[str, str] = ("elder", "dealer")
              ) -> list[str]:
    """The deal as lines of prose."""
    e_name, d_name = names
    card = (lambda c: format_card(c, ECARTE, pretty))
    e_role = "" if e_name == "elder" else " (elder)"
    d_role = "" if d_name == "dealer" else " (dealer)"
    lines = [f"{e_name}{e_role} holds {_hand(d.elder0, pretty)}; "
             f"{d_name}{d_role} holds {_hand(d.dealer0, pretty)}.",
             f"Turn-up {card(d.turn_up)}: {SUIT_NAMES[d.turn_up >> 3]} are trumps."]
    if d.king_turned:
        lines.append(f"{d_name} turned up the king and marks 1 (Law 22).")
        if d.how_ended < 0:
            lines.append(f"That mark reaches five: {d_name} wins the game before a card is "
                         "played.")
            return lines
    for r, (e, ed, x, xd) in enumerate(d.exchanges):
        lines.append(f"{e_name} proposes; {d_name} accepts. {e_name} discards "
                     f"{_hand(e, pretty)} and draws {_hand(ed, pretty)}; {d_name} "
                     + (f"discards {_hand(x, pretty)} and draws {_hand(xd, pretty)}."
                        if x else "takes no card."))
    how = name_of(ProposalsEnd(d.how_ended))
    if how == "elder-played":
        lines.append(f"{e_name} plays" + (" without proposing (Law 49: he gives 2 if he loses "
                                          "the point)." if d.first == 1 else "."))
    elif how == "dealer-refused":
        lines.append(f"{e_name} proposes; {d_name} refuses" +
                     (" (Law 49: he gives 2 if he loses the point)." if d.first == 2 else "."))
    elif how == "stock-exhausted":
        lines.append("The stock is exhausted (Law 38): the hands are played as they stand.")
    else:
        lines.append("No further proposal is allowed: the hands are played.")
    if d.exchanges:
        lines.append(f"Hands for the play: {e_name} {_hand(d.elder_hand, pretty)}; "
                     f"{d_name} {_hand(d.dealer_hand, pretty)}.")
    if d.king_elder or d.king_dealer:
        who = e_name if d.king_elder else d_name
        lines.append(f"{who} announces the king of trumps and marks 1 (Laws 23, 47).")
    if d.ended:
        lines.append("That mark reaches five: the game is over before a card is played.")
        return lines
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
    if d.points_elder:
        what = "the vole" if d.points_elder == 2 and (et == 5 or d.outcome == 3) else "the point"
        lines.append(f"{e_name} wins {what} and marks {d.points_elder}.")
    else:
        what = "the vole" if d.points_dealer == 2 and (et == 0 or d.outcome == 0) else "the point"
        lines.append(f"{d_name} wins {what} and marks {d.points_dealer}.")
    lines.append(f"Marks this deal: {e_name} {d.marks_elder}, {d_name} {d.marks_dealer}.")
    return lines


def _outcome_text(d: WholeDeal) -> str:
    return ("dealer vole", "dealer point", "elder point", "elder vole")[d.outcome]


def game_data(g: Game) -> dict:
    return {"seed": g.seed, "game": g.game, "winner": g.winner, "score": g.score,
            "law_46_value": g.value,
            "deals": [{"index": gd.index, "dealer": gd.dealer,
                       "elder": "B" if gd.dealer == "A" else "A",
                       "score_before": gd.score_before, "score_after": gd.score_after,
                       **deal_data(gd.deal)} for gd in g.deals]}


def tell_game(g: Game, pretty: bool = False, verbose: bool = False) -> list[str]:
    lines = [f"Game {g.game} of seed {g.seed}: five up, the deal alternating."]
    for n, gd in enumerate(g.deals, 1):
        elder = "B" if gd.dealer == "A" else "A"
        before = f"{gd.score_before['A']}-{gd.score_before['B']}"
        after = f"{gd.score_after['A']}-{gd.score_after['B']}"
        lines.append(f"Deal {n} (index {gd.index}), {gd.dealer} deals, A-B {before}:")
        body = tell_deal(gd.deal, pretty, names=(elder, gd.dealer))
        lines.extend("  " + line for line in (body if verbose else body[-1:]))
        lines.append(f"  score A-B {after}")
    lines.append(f"{g.winner} wins {g.score['A']}-{g.score['B']} "
                 f"(Law 46 by agreement: a {('single', 'double', 'treble')[g.value - 1]}).")
    return lines
