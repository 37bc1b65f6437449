"""A Piquet deal told in prose: what ``ecarte-sim piquet deal`` prints.

The deal comes as :func:`ecarte_sim.api.piquet.piquet_deal` returns it: the
cards dealt and the events of the plain reference walk
(:func:`ecarte_sim.engine.piquet.reference.play_deal`, whose docstring lists every
event and its keys). :func:`told` turns them into sentences a Piquet player would
say, in the order of the deal (the hands, carte blanche, the exchange, each player's
calls answered good, not good or equal, what he sinks (Law 47), repique and pique when
they come, the play
trick by trick, the last trick, the cards or the capot, the totals), every score
with the law that gives it (Laws 18-24, 46-49, 61-69 of the Portland and Turf
Clubs; ``engine/piquet/rules.md``). :func:`tell_deal` is the text alone.

:func:`told` pairs each line with the events it tells, so that a test can check
that every event is told once and that each score is told with its law; the points
of the play (a card led, a trick won second) are told trick by trick under one
line that gives their law (Law 65).
"""

from __future__ import annotations

from ecarte_sim.engine.cards import PIQUET, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS

__all__ = ["KINDS", "hands_at_play", "scores_by_kind", "tell_deal", "told"]

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve")
#: The rank symbols of the PIQUET deck (7 8 9 T J Q K A) in words.
_RANK_WORDS = dict(zip(PIQUET.ranks, ("seven", "eight", "nine", "ten", "knave", "queen",
                                      "king", "ace")))
_SUIT = dict(zip(SUIT_LETTERS, SUIT_NAMES))
#: Where a repique's hand reached 30 (reference.CATEGORIES).
_REPIQUE_BY = {"carte_blanche": "carte blanche", "point": "point",
               "sequences": "sequences", "sets": "quatorzes and trios"}
#: The parts of a deal's total, in the order of Law 67 and then the bonuses.
KINDS = ("carte blanche", "point", "sequences", "quatorzes and trios", "play", "the cards",
         "capot", "repique", "pique")
_OTHER = {"elder": "younger", "younger": "elder"}


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _rank(card: str) -> str:
    return card[:-1]


def _suit(card: str) -> str:
    return card[-1]


def _card(card: str, pretty: bool) -> str:
    if not pretty:
        return card
    rank = _rank(card)
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[SUIT_LETTERS.index(_suit(card))]


def _cards(text: str, pretty: bool) -> str:
    return " ".join(_card(c, pretty) for c in text.split()) if text else "-"


def _plural(rank: str) -> str:
    return _RANK_WORDS[rank] + "s"


def _sort_key(card: str):
    return SUIT_LETTERS.index(_suit(card)), -PIQUET.ranks.index(_rank(card))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _law(*laws) -> str:
    found = sorted({int(n) for n in laws})
    if len(found) == 1:
        return f"Law {found[0]}"
    return "Laws " + ", ".join(str(n) for n in found)


def _running(ev: dict) -> str:
    return f"Elder {ev['elder_total']}, younger {ev['younger_total']}."


# --------------------------------------------------------------------------- the calls

def _sequence_name(ev: dict) -> str:
    """"quint major in spades", "tierce minor in clubs", "quart to the knave in hearts"."""
    top = ev["top"]
    length, rank = int(ev["length"]), _rank(top)
    if rank == "A":
        what = f"{ev['name']} major"
    elif length in (3, 4) and PIQUET.ranks.index(rank) == length - 1:
        what = f"{ev['name']} minor"           # 9 8 7, 10 9 8 7: the lowest of its length
    else:
        what = f"{ev['name']} to the {_RANK_WORDS[rank]}"
    return f"{what} in {_SUIT[_suit(top)]}"


def _call_name(ev: dict, pretty: bool) -> str:
    kind = ev["kind"]
    if kind == "sequence":
        return f"{_sequence_name(ev)} ({_cards(ev['cards'], pretty)})"
    if kind == "quatorze":
        return f"quatorze of {_plural(ev['rank'])}"
    return f"trio of {_plural(ev['rank'])} ({_cards(ev['cards'], pretty)})"


_SUNK = {"point": "point", "sequences": "sequences", "sets": "quatorzes and trios"}


def _sink_line(ev: dict, pretty: bool) -> str:
    """A holding left uncalled (Law 47): wholly, or a smaller call than held."""
    who, what = _cap(ev["player"]), _SUNK[ev["kind"]]
    law = _law(ev["law"])
    if ev["whole"]:
        it, they = ("it", "it scores nothing and shows") if ev["kind"] == "point" else \
            ("them", "they score nothing and show")
        return (f"{who} sinks his {what} ({_cards(ev['cards'], pretty)}): he does not call "
                f"{it}, so {they} nothing ({law}).")
    return (f"{who} calls less than he holds in his {what}, leaving "
            f"{_cards(ev['cards'], pretty)} uncalled ({law}).")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _point_line(ev: dict, pretty: bool) -> str:
    who, other = ev["player"], _OTHER[ev["player"]]
    cards = ev["cards"].split()
    head = (f"{_cap(who)}'s point: {_word(int(ev['length']))} cards in "
            f"{_SUIT[_suit(cards[0])]} ({_cards(ev['cards'], pretty)}), making {ev['pips']}")
    law = _law(ev["law"])
    if ev["good"]:
        return f"{head} — good, he scores {ev['score']} ({law})."
    if ev["equal"]:
        return f"{head} — equal to {other}'s: neither scores the point ({law})."
    return f"{head} — not good ({law})."


def _group_line(group: list[dict], pretty: bool) -> str:
    """One player's sequences (Law 63), or his quatorzes and trios (Law 64)."""
    first = group[0]
    who, other = first["player"], _OTHER[first["player"]]
    law = _law(*(ev["law"] for ev in group))
    names = [_call_name(ev, pretty) for ev in group]
    what = "sequence" if first["kind"] == "sequence" else "quatorze or trio"
    if first["good"]:
        text = f"{_cap(who)}'s {names[0]} is good"
        if len(group) > 1:
            rest = [f"his {name}" for name in names[1:]]
            total = sum(int(ev["score"]) for ev in group)
            sums = " + ".join(str(ev["score"]) for ev in group)
            return f"{text}; he also counts {_and(rest)}: {sums} = {total} ({law})."
        return f"{text}: he scores {first['score']} ({law})."
    if first["equal"]:
        if len(group) == 1:
            return (f"{_cap(who)}'s {names[0]} is equal to {other}'s best: neither scores "
                    f"any {what} ({law}).")
        return (f"{_cap(who)}'s {_and(names)}: his best is equal to {other}'s, so neither "
                f"scores any {what} ({law}).")
    verb = "is" if len(group) == 1 else "are"
    return f"{_cap(who)}'s {_and(names)} {verb} not good ({law})."


# --------------------------------------------------------------------------- the deal

def hands_at_play(result: dict) -> dict:
    """Each player's twelve cards after the exchange (what he declares and plays), as text
    in the order of the hands dealt (suits S H D C, the ace high)."""
    held = {p: set(result["deal"][p].split()) for p in ("elder", "younger")}
    for ev in result["events"]:
        if ev["event"] == "discard":
            held[ev["player"]] -= set(ev["cards"].split())
        elif ev["event"] == "take_in":
            held[ev["player"]] |= set(ev["cards"].split())
    return {p: " ".join(sorted(cards, key=_sort_key)) for p, cards in held.items()}


def scores_by_kind(events: list[dict]) -> dict:
    """``{"elder": {kind: points}, "younger": {...}}`` over :data:`KINDS`, from the events."""
    out = {"elder": dict.fromkeys(KINDS, 0), "younger": dict.fromkeys(KINDS, 0)}
    for ev in events:
        if not ev["score"]:
            continue
        kind = ev["event"]
        if kind == "declare":
            part = {"point": "point", "sequence": "sequences"}.get(ev["kind"],
                                                                   "quatorzes and trios")
        elif kind in ("lead", "trick", "last_trick"):
            part = "play"
        elif kind == "cards":
            part = "the cards"
        else:
            part = kind.replace("_", " ")
        out[ev["player"]][part] += int(ev["score"])
    return out


def _players_text(play) -> str:
    if isinstance(play, dict):
        return (f"the elder hand played by the {play['elder']} player, the younger by the "
                f"{play['younger']} player")
    return f"both hands played by the {play} player" if play else ""


def _play_header(lead_scoring: str) -> str:
    if lead_scoring == "ten_up":
        return ("The play (Law 65, the older count): a card led scores 1 only if it is a ten "
                "or higher, a trick won by the second player 1 only if won with a ten or "
                "higher, and the last trick 1 more. No trumps; follow suit if you can.")
    return ("The play (Law 65): every card led scores 1, every trick won by the second "
            "player 1, and the last trick 1 more. No trumps; follow suit if you can.")


#: How a pique is reached, by the event's ``at`` (any other: a trick).
_PIQUE_HOW = {"hand": "has 30 in hand", "lead": "reaches 30 with that lead",
              "last_trick": "reaches 30 with the last trick"}


def told(result: dict, pretty: bool = False) -> list[tuple[str, list[dict]]]:
    """The deal as ``(line, events it tells)`` pairs (see the module docstring)."""
    events = result["events"]
    settings = result.get("settings", {})
    lines: list[tuple[str, list[dict]]] = [(text, []) for text in _dealt_lines(result, pretty)]

    def say(text: str, evs: list[dict] | None = None):
        lines.append((text, evs or []))

    i, n = 0, len(events)
    lead = None                 # the lead of the trick in progress, until its trick is told
    lead_told = False           # ... already told on a line of its own
    reply = None
    exchanged = False
    calling = set()             # the players whose calls have begun
    while i < n:
        ev = events[i]
        kind, player = ev["event"], ev["player"]
        if kind == "carte_blanche":
            say(f"{_cap(player)} holds carte blanche, no king, queen or knave "
                f"({_law(18)}), and shows it: he scores {ev['score']} ({_law(ev['law'])}).",
                [ev])
        elif kind == "discard":
            text, told_events = _discard_told(events, i, pretty)
            i += len(told_events) - 1
            say(text, told_events)
            if player == "younger" and not exchanged:
                exchanged = True
                held = hands_at_play(result)
                say(f"Hands for the declarations and the play: elder "
                    f"{_cards(held['elder'], pretty)}; younger "
                    f"{_cards(held['younger'], pretty)}.")
        elif kind in ("declare", "sink"):
            if lead is not None and player not in calling:
                say(f"Before he plays to it, {player} declares.")
            calling.add(player)
            said, i = _calls_told(events, i, pretty)
            lines.extend(said)
            continue
        elif kind == "repique":
            by = _REPIQUE_BY.get(ev["category"], ev["category"])
            say(f"Counting in the order of Law 67, {player} reaches 30 in hand with his {by} "
                f"before {_OTHER[player]} scores anything: repique, he scores {ev['score']} "
                f"more ({_law(ev['law'])}). {_running(ev)}", [ev])
        elif kind == "pique":
            say(f"{_cap(player)} {_PIQUE_HOW.get(ev['at'], 'reaches 30 with that trick')}, "
                f"before younger has reckoned anything: pique, he scores {ev['score']} more "
                f"({_law(ev['law'])}). {_running(ev)}", [ev])
        elif kind == "lead":
            if ev["trick"] == 1:
                say(_play_header(settings.get("lead_scoring", "all")), [])
            lead, lead_told, reply = ev, False, None
        elif kind == "reply":
            reply = ev
        elif kind == "trick":
            say(_trick_line(lead, lead_told, reply, ev, pretty),
                [reply, ev] if lead_told else [lead, reply, ev])
            lead = reply = None
        elif kind == "last_trick":
            say(f"{_cap(player)} wins the last trick: {ev['score']} more "
                f"({_law(ev['law'])}). {_running(ev)}", [ev])
        elif kind in ("cards", "capot"):
            say(_cards_line(ev), [ev])
        else:                                   # an event this module does not know
            say(f"{kind}: {player} scores {ev['score']} ({_law(ev['law'])}).", [ev])
        # a lead followed by something else than its reply (the younger's calls, a pique)
        # is told on its own line, and its trick goes on after them
        if kind == "lead" and i + 1 < n and events[i + 1]["event"] != "reply":
            say(_lead_line(ev, pretty), [ev])
            lead_told = True
        i += 1
    lines.extend((text, []) for text in _scored_lines(result))
    return lines


def _dealt_lines(result: dict, pretty: bool) -> list[str]:
    """Which deal, who plays it, the two hands dealt and the stock."""
    deal = result["deal"]
    where = (f"Deal {result['index']} of seed {result['seed']}" if "index" in result
             else "A deal given card by card")
    who = _players_text(result.get("play"))
    return [f"{where}{', ' + who if who else ''}.",
            f"Elder (the non-dealer) is dealt {_cards(deal['elder'], pretty)}.",
            f"Younger (the dealer) is dealt {_cards(deal['younger'], pretty)}.",
            f"The stock, top card first: {_cards(deal['stock'], pretty)}."]


def _discard_told(events: list[dict], i: int, pretty: bool) -> tuple[str, list[dict]]:
    """The discard at ``events[i]`` and the take-in after it (when there is one) in one
    line, with the events it tells."""
    ev, n = events[i], len(events)
    player = ev["player"]
    take = events[i + 1] if i + 1 < n and events[i + 1]["event"] == "take_in" else None
    count = int(ev["count"])
    text = (f"{_cap(player)} discards {_word(count)}, {_cards(ev['cards'], pretty)} "
            f"({_law(ev['law'])})")
    told_events = [ev]
    if take is not None:
        whence = "the top" if player == "elder" else "the next"
        text += (f", and takes in {whence} {_word(int(take['count']))} of the stock, "
                 f"{_cards(take['cards'], pretty)} ({_law(take['law'])})")
        left = int(take["left"])
        if player == "elder" and count < 5:
            text += f"; he leaves {_word(5 - count)} of his five"
        elif player == "younger" and left:
            text += (f"; {_word(left)} card{'s' if left != 1 else ''} stay"
                     f"{'s' if left == 1 else ''} in the stock, unseen")
        told_events.append(take)
    return text + ".", told_events


def _calls_told(events: list[dict], i: int,
                pretty: bool) -> tuple[list[tuple[str, list[dict]]], int]:
    """A sink at ``events[i]``, or the player's declarations of one law from it (a point
    one line each, a sequence or a set in one line), then what he counts in hand when his
    calls are over; and the index of the next event."""
    ev, n = events[i], len(events)
    player = ev["player"]
    out: list[tuple[str, list[dict]]] = []
    if ev["event"] == "sink":
        out.append((_sink_line(ev, pretty), [ev]))
        i += 1
        if _calls_over(events, i, player):
            total = ev[f"{player}_total"]
            out.append((f"{_cap(player)} counts {total or 'nothing'} in hand.", []))
        return out, i
    j = i + 1
    while (j < n and events[j]["event"] == "declare" and events[j]["player"] == player
           and events[j]["law"] == ev["law"]):
        j += 1
    group = events[i:j]
    if ev["kind"] == "point":
        for one in group:
            out.append((_point_line(one, pretty), [one]))
    else:
        out.append((_group_line(group, pretty), group))
    if _calls_over(events, j, player):
        total = group[-1][f"{player}_total"]
        out.append((f"{_cap(player)} counts {total or 'nothing'} in hand.", []))
    return out, j


def _scored_lines(result: dict) -> list[str]:
    """Each player's score for the deal by kind, and who wins it."""
    events = result["events"]
    out = []
    parts = scores_by_kind(events)
    for who in ("elder", "younger"):
        total = result.get(who, events[-1][f"{who}_total"] if events else 0)
        items = [f"{kind} {points}" for kind, points in parts[who].items() if points]
        out.append(f"{_cap(who)} scores {total}" + (f": {', '.join(items)}." if items else "."))
    e, y = result.get("elder"), result.get("younger")
    if e is not None and y is not None:
        if e == y:
            out.append(f"The deal is tied, {e} all.")
        else:
            winner = "elder" if e > y else "younger"
            out.append(f"{_cap(winner)} wins the deal, {max(e, y)} to {min(e, y)}.")
    return out


def _calls_over(events: list[dict], i: int, player: str) -> bool:
    """Is event ``i`` past ``player``'s calls (his declarations and sinks)?"""
    return (i >= len(events) or events[i]["event"] not in ("declare", "sink")
            or events[i]["player"] != player)


def _lead_line(lead: dict, pretty: bool) -> str:
    scored = f" ({lead['score']})" if lead["score"] else ""
    return f"Trick {lead['trick']}: {lead['player']} leads {_card(lead['cards'], pretty)}{scored}."


def _trick_line(lead: dict, lead_told: bool, reply: dict, trick: dict, pretty: bool) -> str:
    number = trick["number"]
    led, played = lead["cards"], reply["cards"]
    second = reply["player"]
    if _suit(played) != _suit(led):
        plays = f"{second}, having no {_SUIT[_suit(led)]}, plays {_card(played, pretty)}"
    else:
        plays = f"{second} plays {_card(played, pretty)}"
    if trick["winner"] == second:
        scored = f" ({trick['score']})" if trick["score"] else ""
        ending = f" and wins it{scored}."
    else:
        ending = f"; {lead['player']} wins it."
    if lead_told:
        text = f"Trick {number}, continued: {plays}{ending}"
    else:
        scored = f" ({lead['score']})" if lead["score"] else ""
        text = (f"Trick {number}: {lead['player']} leads {_card(led, pretty)}{scored}, "
                f"{plays}{ending}")
    return f"{text} {_running(trick)}"


def _cards_line(ev: dict) -> str:
    tricks = ev["tricks"]
    law = _law(ev["law"])
    if ev["event"] == "capot":
        return (f"{_cap(ev['player'])} takes all twelve tricks: capot, he scores "
                f"{ev['score']} ({law}). {_running(ev)}")
    if ev.get("divided"):
        return (f"The cards are divided, six tricks each: neither scores them ({law}). "
                f"{_running(ev)}")
    who = ev["player"]
    return (f"{_cap(who)} has the cards, {tricks[who]} tricks to {tricks[_OTHER[who]]}: he "
            f"scores {ev['score']} ({law}). {_running(ev)}")


def tell_deal(result: dict, pretty: bool = False) -> list[str]:
    """The deal as lines of prose (``result`` as ``piquet_deal`` returns it)."""
    return [text for text, _ in told(result, pretty)]
