"""What the opponent's first decisions say about his hand: exact posteriors.

Before a card is played, an Écarté player has heard his adversary *say* something: the
elder proposes or plays (Law 25), the dealer accepts or refuses a proposal. Hoyle's
Games Modernized builds its advice on reading that ("A proposes, and is refused. He may
now conclude that Y has two trumps at least"). Given a player's five cards and the
turn-up, the adversary's hand is one of the C(26, 5) = 65,780 hands of the 26 cards he
cannot see, each equally likely before anything is said. An *opponent model* — the
adversary's first decision as a function of his hand (a treatise policy, or a computed
table of ``ecarte-sim strategy``) — keeps the hands on which the model says what was
said. Every one of them is enumerated, so the posterior here is exact: integer counts
over the consistent hands.

* :func:`unseen_hands` — every hand the adversary may hold.
* :func:`parse_history` — a history such as ``propose,refuse``, checked against the
  player's role (the elder speaks first; the dealer answers a proposal only).
* :func:`posterior` — the consistent hands and what they hold: trumps (counts and
  shares), the king of trumps, and by suit the number of cards, the king and the high
  cards (K Q J A).
* :func:`lead_values` — after a refusal, each first lead's chance of the point and
  expected marks over the consistent hands, double dummy after the lead.
* :func:`refusal_posterior` — over every deal, the dealer's trumps after a proposal
  and a refusal.
* :func:`infer` — the same from text (the command's and the public API's entry).
* :func:`read_table` — a computed first-decision table (``strategy --out``'s tables.npz)
  as an opponent model.
* :func:`put_to_a_card` — the seed's "put to a card" example played out by the inferring
  player (``pimc-inference``) over every hand the refusing dealer may hold.

Only the first proposal and its answer are enumerated here; after an exchange the
adversary's hand is no longer a uniform draw given what he said (it depends on what he
threw and drew): that posterior is sampled by the ``pimc-inference`` player
(:mod:`ecarte_sim.engine.ecarte.play.inferred_worlds`), and enumerated, for small cases, by
the plain reference (:func:`ecarte_sim.engine.ecarte.reference.opponent_posterior`).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED, normal_ci
from ecarte_sim.engine.cards import ECARTE, SUIT_LETTERS, SUIT_NAMES, CardError, format_card
from ecarte_sim.engine.ecarte.decisions.tables import decisions
from ecarte_sim.engine.ecarte.laws.history import parse_said
from ecarte_sim.engine.ecarte.laws.score import Score
from ecarte_sim.engine.ecarte.settings import DealerPolicy, ElderPolicy, choices, member

#: The words of a first-round history: the elder's decision, then the dealer's answer.
ELDER_WORDS = ("propose", "play")
DEALER_WORDS = ("accept", "refuse")
#: Écarté rank indices (7 8 9 10 A J Q K) of the king and of the high cards K Q J A.
KING = 7
HIGH = (4, 5, 6, 7)
#: The opponent model of each role when none is named (the treatise's).
DEFAULT_MODEL = {"elder": "regle", "dealer": "maxims"}


def unseen_hands(own: int, turn_up: int) -> np.ndarray:
    """Every five-card hand (uint32 masks, in lexicographic order of the cards) of the 26
    cards that are neither in ``own`` nor the turn-up."""
    return _hands_of([c for c in range(32) if not (own >> c) & 1 and c != turn_up])


def _hands_of(cards: list[int]) -> np.ndarray:
    """Every five-card hand of ``cards`` (uint32 masks, lexicographic)."""
    combos = np.array(list(combinations(cards, 5)), dtype=np.uint32)
    return np.bitwise_or.reduce(np.uint32(1) << combos, axis=1).astype(np.uint32)


def parse_history(text: str, role: str) -> list[str]:
    """The first-round history as words: the elder's ``propose`` or ``play``, then after a
    proposal the dealer's ``accept`` or ``refuse``; ``ValueError`` naming the bad token
    otherwise."""
    words = parse_said(str(text))
    if not words:
        raise ValueError("empty history: give the decisions so far, e.g. propose,refuse")
    if len(words) > 2:
        raise ValueError(f"history token {words[2]!r}: only the first proposal and its "
                         "answer are enumerated exactly (later rounds depend on the "
                         "cards exchanged)")
    if role not in DEFAULT_MODEL:
        raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
    return words


def parse_rounds(text: str, role: str) -> dict:
    """A history of any length, round by round: the elder's ``propose`` or ``play``, the
    dealer's ``accept`` or ``refuse``; after an acceptance the adversary's word carries
    how many cards he threw (``accept:2`` when he is the dealer, ``propose:3`` when he is
    the elder). Returns the words, the adversary's count in each exchange, and how the
    history ends (:class:`~ecarte_sim.engine.ecarte.records.ProposalsEnd`: a proposal not
    yet answered ends it as a refusal would, the elder's proposal being all that is
    known of the last round). ``ValueError`` naming the bad token otherwise."""
    from ecarte_sim.engine.ecarte.records import ProposalsEnd

    if role not in DEFAULT_MODEL:
        raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
    tokens = [w.strip().lower() for w in str(text).replace(" ", ",").split(",") if w.strip()]
    if not tokens:
        raise ValueError("empty history: give the decisions so far, e.g. propose,refuse")
    counted = "dealer" if role == "elder" else "elder"     # whose counts the tokens give
    words, counts, j = [], [], 0
    how = ProposalsEnd.PROPOSAL_LIMIT
    while j < len(tokens):
        word, _, count = tokens[j].partition(":")
        if word not in ELDER_WORDS:
            raise ValueError(f"bad history token {tokens[j]!r}: the elder speaks (propose or "
                             "play)")
        words.append(word)
        if word == "play":
            if j + 1 < len(tokens):
                raise ValueError(f"bad history token {tokens[j + 1]!r}: after play the "
                                 "proposals are over")
            how = ProposalsEnd.ELDER_PLAYED
            break
        elder_count = count
        if j + 1 == len(tokens):
            how = ProposalsEnd.DEALER_REFUSED if role == "dealer" else \
                ProposalsEnd.PROPOSAL_LIMIT
            break
        answer, _, dealer_count = tokens[j + 1].partition(":")
        if answer not in DEALER_WORDS:
            raise ValueError(f"bad history token {tokens[j + 1]!r}: the dealer answers a "
                             "proposal with accept or refuse")
        words.append(answer)
        if answer == "refuse":
            if j + 2 < len(tokens):
                raise ValueError(f"bad history token {tokens[j + 2]!r}: after a refusal the "
                                 "proposals are over")
            how = ProposalsEnd.DEALER_REFUSED
            break
        text_count = dealer_count if counted == "dealer" else elder_count
        bad = tokens[j + 1] if counted == "dealer" else tokens[j]
        if not text_count.isdigit() or not 0 <= int(text_count) <= 5:
            raise ValueError(f"bad history token {bad!r}: after an acceptance say how many "
                             f"cards the {counted} threw (e.g. "
                             f"{'accept:2' if counted == 'dealer' else 'propose:3'})")
        counts.append(int(text_count))
        j += 2
    return {"words": words, "counts": counts, "how": how}


def sampled_posterior(own: int, thrown: list[int], turn_up: int, history: str,
                      role: str = "elder", model: str | None = None, discard=None,
                      samples: int = 1 << 14, seed: int = 0) -> dict:
    """The adversary's hand at the play after any history (:func:`parse_rounds`), sampled
    as the ``pimc-inference`` player samples it (``samples`` draws, each from its own
    stream of deal ``i`` of ``seed``): ``own`` the player's hand now, ``thrown`` the cards
    he threw in each exchange, ``model`` a policy name of the adversary's role, his
    discards by ``discard`` (a rule name; default the settings'). Not exact: the counts
    are over the draws, and draws for which no history fitted (uniform instead) are
    counted apart."""
    from ecarte_sim.engine.ecarte.decisions.policies import empty_script
    from ecarte_sim.engine.ecarte.play.inferred_worlds import posterior_sample
    from ecarte_sim.engine.ecarte.records import PAYOFF, Law49, known_record
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    rounds = parse_rounds(history, role)
    other = "dealer" if role == "elder" else "elder"
    if len(thrown) != len(rounds["counts"]):
        raise ValueError(f"the history has {len(rounds['counts'])} exchange(s) but "
                         f"{len(thrown)} group(s) of thrown cards were given (--thrown)")
    seen = own | (1 << turn_up)
    for group in thrown:
        if group & seen:
            raise CardError(f"thrown card {format_card((group & seen).bit_length() - 1, ECARTE)!r}"
                            " is also held or turned up",
                            format_card((group & seen).bit_length() - 1, ECARTE))
        seen |= group
    if role == "elder" and any(g == 0 for g in thrown):
        raise ValueError("the elder throws at least one card in every exchange (Law 27)")
    name = model or DEFAULT_MODEL[other]
    kind = ElderPolicy if other == "elder" else DealerPolicy
    if name not in choices(kind):
        raise ValueError(f"unknown opponent model {name!r} for the {other}; choose from "
                         f"{', '.join(choices(kind))} (a computed table models only the "
                         "first decision)")
    extra = {} if discard is None else {"discard": discard}
    settings = EcarteSettings.build(**{f"{role}_play": "pimc-inference"}, play="dd",
                                    **{f"model_of_{other}": name}, **extra)
    counts = [(bin(group).count("1"), k) if role == "elder" else (k, bin(group).count("1"))
              for group, k in zip(thrown, rounds["counts"])]
    rec = known_record(turn_up, int(rounds["how"]), Law49.NONE, counts)
    out = np.empty(samples, dtype=np.uint32)
    fell_back = np.zeros(samples, dtype=np.bool_)
    payoff = np.zeros(PAYOFF.size, dtype=np.int64)
    mover = 0 if role == "elder" else 1
    posterior_sample(np.uint64(seed), 0, samples, mover, settings.cfg(), empty_script(), rec,
                     np.uint32(~seen & 0xFFFFFFFF), out, fell_back, payoff)
    kept = out[~fell_back]
    if kept.size == 0:
        raise ValueError(f"no history of the {other} fits {','.join(rounds['words'])!r} "
                         f"under the opponent model {name!r}")
    return {"exact": False, "consistent": int(kept.size), "of": samples,
            "fallback_draws": int(fell_back.sum()), "model": name,
            "history": rounds["words"], "counts": rounds["counts"], "seed": seed,
            **_holdings(kept, turn_up >> 3)}


def _opponent_says(role: str, words: list[str]) -> bool | None:
    """What the adversary said (True = propose for an elder, accept for a dealer), or None
    when he has said nothing yet."""
    if role == "dealer":            # the adversary is the elder: he spoke first
        return words[0] == "propose"
    return None if len(words) < 2 else words[1] == "accept"


def posterior(own: int, turn_up: int, history: str, role: str = "elder",
              model: str | None = None, threshold: int | None = None,
              table: np.ndarray | None = None) -> dict:
    """The adversary's hand given the player's ``own`` cards (mask), the ``turn_up`` card
    and the ``history`` (:func:`parse_history`), the player being the ``role``; the
    adversary decides by ``model`` (a policy name of his role; ``"table"`` with
    ``table``, one row of a computed table). Exact: every unseen hand is weighed 0 or 1.
    Returns what the consistent hands hold and, under ``"_hands"``, the hands themselves
    (masks; :func:`infer` leaves them out). Raises ``ValueError`` naming the token when no
    hand is consistent."""
    words = parse_history(history, role)
    other = "dealer" if role == "elder" else "elder"
    kind = ElderPolicy if other == "elder" else DealerPolicy
    name = model or DEFAULT_MODEL[other]
    if name not in (*choices(kind), "table"):
        raise ValueError(f"unknown opponent model {name!r} for the {other}; choose from "
                         f"{', '.join(choices(kind))}")
    policy = member(kind, name, f"{other}'s opponent model")
    if policy == kind.TABLE and table is None:
        raise ValueError("opponent model 'table' needs a computed table")
    if own & (1 << turn_up):
        raise CardError(f"turn-up {format_card(turn_up, ECARTE)!r} is in the hand",
                        format_card(turn_up, ECARTE))
    hands = unseen_hands(own, turn_up)
    says = _opponent_says(role, words)
    if says is None:
        keep = np.ones(hands.size, dtype=bool)
    else:
        script = None
        if table is not None:
            from ecarte_sim.engine.ecarte.decisions.tables import policy_script
            script = policy_script(**{other: np.asarray(table, dtype=bool)})
        extra = {} if threshold is None else {"threshold": threshold}
        said = decisions(other, policy, hands, np.full(hands.size, turn_up, dtype=np.int64),
                         script, **extra)
        keep = said == says
    consistent = hands[keep]
    if consistent.size == 0:
        token = words[0] if role == "dealer" else words[1]
        raise ValueError(f"history token {token!r} contradicts the hand: no hand of the "
                         f"{other} says it under the opponent model {name!r}")
    return {"exact": True, "consistent": int(consistent.size), "of": int(hands.size),
            "model": name, "history": words, **_holdings(consistent, turn_up >> 3),
            "_hands": consistent}


def infer(hand: str, turn_up: str, history: str, role: str = "elder", *,
          opponent_model: str | None = None, threshold: int | None = None,
          score: str = "0-0", thrown: str | None = None, samples: int = 1 << 14,
          seed: int = 0, discard: str | None = None) -> dict:
    """:func:`posterior` from text: ``hand`` (five cards), ``turn_up`` (a card), the
    ``history`` (e.g. ``"propose,refuse"``); ``opponent_model`` a policy name of the
    adversary's role or the path of a tables.npz (its row at ``score``). A history past
    the first answer (or with ``thrown``, the player's discards: ``"7C 8D; 9S"``, one
    group per exchange) is sampled (:func:`sampled_posterior`, ``samples`` draws of
    ``seed``). What ``ecarte-sim infer --json`` prints, without the provenance."""
    from ecarte_sim.engine.cards import format_hand, parse_card, parse_hand
    from ecarte_sim.engine.ecarte.laws.deal import HAND_SIZE

    mask = int(parse_hand(hand, HAND_SIZE, name="hand"))
    card = parse_card(turn_up, ECARTE)
    x, y = Score.of(score)
    tokens = [w for w in str(history).replace(" ", ",").split(",") if w.strip()]
    if thrown is not None or len(tokens) > 2 or ":" in str(history):
        if opponent_model is not None and str(opponent_model).endswith(".npz"):
            raise ValueError(f"opponent model {opponent_model!r}: a computed table models "
                             "only the first decision; name a policy for a longer history")
        groups = [int(parse_hand(g, None, ECARTE)) if g.strip() else 0
                  for g in (thrown or "").split(";")] if thrown is not None else []
        result = sampled_posterior(mask, groups, card, history, role, opponent_model,
                                   discard, samples, seed)
        return {"hand": format_hand(mask, ECARTE), "turn_up": format_card(card, ECARTE),
                "role": role, **result}
    table, model = None, opponent_model
    if model is not None and str(model).endswith(".npz"):
        table = read_table(model, "dealer" if role == "elder" else "elder", (x, y))
        model = "table"
    result = posterior(mask, card, history, role, model, threshold, table)
    result.pop("_hands")
    if table is not None:
        result["model"] = f"{opponent_model} ({x}-{y})"
    return {"hand": format_hand(mask, ECARTE), "turn_up": format_card(card, ECARTE),
            "role": role, **result}


def lead_values(own: int, turn_ups, history: str = "propose,refuse",
                model: str | None = None) -> dict:
    """The elder's first lead after his proposal was answered: for each card of ``own``,
    over the dealer hands consistent with ``history`` under ``model`` (pooled over the
    given ``turn_ups``, each hand weighed once, as when the turn-up is not stated), the
    share on which he wins the point and his expected marks (Laws 48–49: after a refusal
    the point is worth two to him, a vole two either way), double dummy after the lead.
    Exact: every consistent hand is solved for every lead."""
    from ecarte_sim.engine.ecarte.search.solver import lead_tricks

    words = parse_history(history, "elder")
    refused = words[1:] == ["refuse"]
    if words[:1] != ["propose"] or len(words) < 2:
        raise ValueError("a first lead after an answer: the history is propose,accept or "
                         "propose,refuse (after accept the hands change)")
    if not refused:
        raise ValueError("after an acceptance the players exchange: leads are read after "
                         "a refusal (propose,refuse)")
    cards = [c for c in range(32) if own >> c & 1]
    tricks_by_lead = np.zeros((6, 32), dtype=np.int64)      # tricks x lead card
    consistent = 0
    for turn_up in turn_ups:
        hands = posterior(own, int(turn_up), history, "elder", model)["_hands"]
        out = np.zeros((hands.size, 32), dtype=np.int64)
        lead_tricks(np.uint32(own), hands.astype(np.int64), int(turn_up) >> 3, True, out)
        for c in cards:
            tricks_by_lead[:, c] += np.bincount(out[:, c], minlength=6)
        consistent += hands.size
    # the elder's marks by his tricks after a refusal: the dealer's failure scores two
    marks = np.array([-2, -1, -1, 2, 2, 2], dtype=np.float64)
    leads = {}
    for c in cards:
        n = tricks_by_lead[:, c]
        leads[format_card(c, ECARTE)] = {
            "tricks": n.tolist(), "point": float(n[3:].sum() / n.sum()),
            "marks": float((n * marks).sum() / n.sum())}
    best = max(leads, key=lambda k: (leads[k]["marks"], leads[k]["point"]))
    return {"exact": True, "history": words, "consistent": consistent,
            "turn_ups": [format_card(int(t), ECARTE) for t in turn_ups], "leads": leads,
            "best": best}


#: The seed's "put to a card" example: A's hand and the turn-up, the two hearts he leads
#: and wins with, and the three third leads compared.
PUT_TO_A_CARD = {"hand": "KH JH TH QD JS", "turn_up": "9C", "leads": ("KH", "JH"),
                 "third": ("TH", "QD", "JS")}


def put_to_a_card(worlds: int = 64, seed: int = 0, dealer_play: str = "pimc-inference"
                  ) -> dict:
    """The seed's "put to a card" example played out: "A holds king, knave, ten, of hearts;
    queen of diamonds, and knave of spades (nine of clubs turned up). A proposes, and is
    refused ... A leads king of hearts, which wins; then knave, which wins ... Instead,
    therefore, of playing the third heart he should lead either the diamond or the spade".

    Every dealer hand on which the maxims refuse (exact: each weighed once) is played
    three times: A leads the king and the knave of hearts, then the ten of hearts, the
    queen of diamonds or the knave of spades (forced cards), and plays the rest as the
    inferring player (``pimc-inference``, ``worlds`` worlds, his worlds honouring the
    refusal); the dealer plays ``dealer_play``. Kept: the hands on which both hearts win
    (the example's premise). Per third lead, A's mean marks (his minus the dealer's; the
    refused point counts two, Law 49) and P(point); the paired differences against the
    third heart (the same hands, the same random words), with standard errors and normal
    95% intervals."""
    from ecarte_sim.engine.cards import parse_card, parse_hand
    from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, inference_scratch, play_dealt
    from ecarte_sim.engine.ecarte.decisions.policies import S_FORCED
    from ecarte_sim.engine.ecarte.decisions.policies import empty_script
    from ecarte_sim.engine.ecarte.records import REC
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    spec = PUT_TO_A_CARD
    own = int(parse_hand(spec["hand"], 5, ECARTE))
    turn_up = parse_card(spec["turn_up"], ECARTE)
    hands = posterior(own, turn_up, "propose,refuse", "elder", "maxims")["_hands"]
    cfg = EcarteSettings.build(elder_play="pimc-inference", dealer_play=dealer_play,
                               worlds=worlds).cfg()
    at = REC.at
    first, second = (parse_card(c, ECARTE) for c in spec["leads"])
    thirds = [parse_card(c, ECARTE) for c in spec["third"]]
    perm, draws, pool, payoff, rec = deal_scratch()
    infer = inference_scratch(cfg)
    marks = np.zeros((len(thirds), hands.size))
    point = np.zeros((len(thirds), hands.size), dtype=bool)
    premise = np.zeros(hands.size, dtype=bool)
    for t, third in enumerate(thirds):
        script = empty_script()
        script[S_FORCED:S_FORCED + 3] = [first + 1, second + 1, third + 1]
        # the first two tricks are the same in every arm (the same cards and random
        # words): the later arms play only the hands of the premise
        for i in (range(hands.size) if t == 0 else np.flatnonzero(premise)):
            dealer = int(hands[i])
            rest = [c for c in range(32) if not (own | dealer | 1 << turn_up) >> c & 1]
            perm[:] = [*[c for c in range(32) if own >> c & 1],
                       *[c for c in range(32) if dealer >> c & 1], turn_up, *rest]
            play_dealt(np.uint64(seed), np.uint64(i), cfg, script, rec, perm, draws, pool,
                       payoff, np.uint32(own), np.uint32(dealer), turn_up, infer)
            played = rec[at.PLAY:at.PLAY + 10]
            # both hearts led and won: A leads the first, third and fifth cards
            won = bool(played[0] == first and played[2] == second and played[4] == third)
            if t == 0:
                premise[i] = won
            elif not won:
                raise AssertionError("the first two tricks differ between the arms")
            marks[t, i] = rec[at.MARKS_ELDER] - rec[at.MARKS_DEALER]
            point[t, i] = rec[at.ELDER_TRICKS] >= 3
    kept = int(premise.sum())
    out = {"hand": spec["hand"], "turn_up": spec["turn_up"], "history": "propose,refuse",
           "dealer_model": "maxims", "refusing_hands": int(hands.size), "kept": kept,
           "worlds": worlds, "seed": seed, "dealer_play": dealer_play, "leads": {}}
    for t, third in enumerate(spec["third"]):
        m, p = marks[t, premise], point[t, premise]
        out["leads"][third] = {"marks": float(m.mean()), "point": float(p.mean())}
        if t:
            d = marks[t, premise] - marks[0, premise]
            se = float(d.std(ddof=1) / np.sqrt(kept))
            out["leads"][third]["minus_third_heart"] = {
                "marks": float(d.mean()), "se": se,
                "ci95": normal_ci(float(d.mean()), se, Z95_ROUNDED),
                "hands_differing": int((d != 0).sum())}
    return out


def read_table(path: str, role: str, score=(0, 0)) -> np.ndarray:
    """The ``role``'s computed first-decision table at ``score`` from the tables.npz of
    ``ecarte-sim strategy --out`` (or ``--against equilibrium``); ``ValueError`` naming
    the file when it has none."""
    from ecarte_sim.engine.ecarte.decisions.states import N_STATES
    try:
        with np.load(path, allow_pickle=False) as saved:
            if role not in saved.files:
                raise ValueError(f"{path!r} holds no {role}'s table (it has "
                                 f"{', '.join(k for k in saved.files if k != 'n_states')})")
            packed = saved[role]
    except OSError as exc:
        raise ValueError(f"cannot read the opponent model {path!r}: "
                         f"{exc.strerror or exc}") from None
    bits = np.unpackbits(packed, axis=-1)[..., :N_STATES].astype(bool)
    return bits if bits.ndim == 1 else bits[Score.of(score).row]


def all_hands() -> np.ndarray:
    """Every five-card hand of the 32-card pack (uint32 masks, lexicographic)."""
    return _hands_of(list(range(32)))


def refusal_posterior(elder_model: str = "regle", dealer_model: str = "maxims",
                      threshold: int | None = None) -> dict:
    """Over every deal (each elder hand, each disjoint dealer hand, each turn-up of the
    trump suit among the other 22 cards, all equally likely): the dealer's trump count
    given that the elder proposed and the dealer refused (and, for comparison, given
    only that the elder proposed), exactly, as integer counts of deals. Spades are
    trumps (the suits are symmetric). Neither model may read the turn-up's rank.

    The sum over elder hands disjoint from a dealer hand is inclusion–exclusion over the
    subsets of the dealer hand: for ``f`` over five-card hands,
    ``sum(f(E) for E disjoint from D) = sum((-1)^|S| g(S) for S subset of D)`` with
    ``g(S) = sum(f(E) for E containing S)``; ``g`` is filled from each hand's 32
    subsets, so the whole sum costs 2 x 32 x 201,376 steps, not 201,376 x 80,730."""
    hands = all_hands()
    tcount = _count(hands, 0xFF)
    # a turn-up only to satisfy the decision functions' signature: the lowest spade out
    low = np.array([next(c for c in range(8) if not int(h) >> c & 1) for h in hands],
                   dtype=np.int64)
    extra = {} if threshold is None else {"threshold": threshold}
    proposes = decisions("elder", elder_model, hands, low, **extra)
    accepts = decisions("dealer", dealer_model, hands, low)
    signs, subsets = _subsets(hands)                         # (hands, 32) each
    # g over the subsets S of proposing hands: how many contain S, and their trumps
    keys, where = np.unique(subsets[proposes].ravel(), return_inverse=True)
    g1 = np.bincount(where, minlength=keys.size)
    gt = np.bincount(where, weights=np.repeat(tcount[proposes], 32).astype(np.float64),
                     minlength=keys.size).round().astype(np.int64)
    at = np.searchsorted(keys, subsets)
    found = keys[np.minimum(at, keys.size - 1)] == subsets
    n_e = (signs * np.where(found, g1[np.minimum(at, keys.size - 1)], 0)).sum(axis=1)
    t_e = (signs * np.where(found, gt[np.minimum(at, keys.size - 1)], 0)).sum(axis=1)
    deals = (8 - tcount.astype(np.int64)) * n_e - t_e      # each proposing E, each turn-up
    by_trumps = {"proposed": np.bincount(tcount, weights=deals, minlength=6),
                 "refused": np.bincount(tcount[~accepts], weights=deals[~accepts],
                                        minlength=6)}
    by_trumps = {k: v.round().astype(np.int64) for k, v in by_trumps.items()}
    out = {"elder_model": elder_model, "dealer_model": dealer_model, "exact": True}
    for key, counts in by_trumps.items():
        total = int(counts.sum())
        out[key] = {"deals": total, "trump_counts": counts.tolist(),
                    "two_trumps_or_more": float(counts[2:].sum() / total)}
    return out


def _subsets(hands: np.ndarray):
    """Each five-card hand's 32 subsets (uint32 masks) and their signs (-1)^size."""
    bits = np.zeros((hands.size, 5), dtype=np.uint32)
    rest = hands.astype(np.uint32).copy()
    for i in range(5):
        low = rest & (~rest + np.uint32(1))              # the lowest set bit
        bits[:, i] = low
        rest ^= low
    k = np.arange(32)
    pick = (k[:, None] >> np.arange(5)[None, :]) & 1       # (32, 5)
    subsets = (bits[:, None, :] * pick[None, :, :].astype(np.uint32)).sum(
        axis=2, dtype=np.uint64).astype(np.uint32)
    signs = np.where(pick.sum(axis=1) % 2 == 1, -1, 1).astype(np.int64)[None, :]
    return signs, subsets


def _count(masks: np.ndarray, bits: int) -> np.ndarray:
    """Per mask, the number of set bits of ``masks & bits`` (int64: numpy 1.26's bincount
    refuses the uint64 a sum of uint8 gives)."""
    x = (masks & np.uint32(bits)).view(np.uint8).reshape(-1, 4)
    return np.unpackbits(x, axis=1).sum(axis=1, dtype=np.int64)


def _holdings(hands: np.ndarray, trump: int) -> dict:
    """What the consistent hands hold: integer counts, and shares of the hands."""
    n = hands.size
    trumps = _count(hands, 0xFF << (8 * trump))
    counts = np.bincount(trumps, minlength=6)[:6]
    suits = {}
    for s in range(4):
        cards = _count(hands, 0xFF << (8 * s))
        high = _count(hands, sum(1 << (8 * s + r) for r in HIGH))
        king = int(((hands >> np.uint32(8 * s + KING)) & 1).sum())
        suits[SUIT_LETTERS[s]] = {
            "name": SUIT_NAMES[s], "trump": s == trump,
            "counts": np.bincount(cards, minlength=6)[:6].tolist(),
            "mean_cards": float(cards.mean()), "king_holders": king, "king": king / n,
            "mean_high_cards": float(high.mean())}
    king_trump = suits[SUIT_LETTERS[trump]]["king_holders"]
    return {"trump_counts": counts.tolist(), "trumps": (counts / n).tolist(),
            "two_trumps_or_more": float(counts[2:].sum() / n),
            "king_of_trumps_holders": king_trump, "king_of_trumps": king_trump / n,
            "suits": suits}


__all__ = ["infer", "lead_values", "put_to_a_card", "PUT_TO_A_CARD", "refusal_posterior", "unseen_hands", "parse_history", "posterior", "read_table", "ELDER_WORDS", "DEALER_WORDS",
           "DEFAULT_MODEL"]
