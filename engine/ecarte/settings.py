"""Écarté settings: every id, default and limit of a whole-deal run, defined once.

The Python boundary takes one frozen :class:`EcarteSettings` (policies, play
models, variants), validated when it is made; the kernels take the plain int64
``cfg`` array that :meth:`EcarteSettings.cfg` builds from it, laid out by
``CFG``. The same object gives the JSON echo of the settings (:meth:`echo`)
and the default task size of a run (:meth:`task_size`).

Ids are :class:`enum.IntEnum` members; numba reads them as constants, so the
kernels compare ``cfg`` entries with the members themselves (``policy ==
ElderPolicy.REGLE``). The name a user types is the member's name in lower case
with hyphens (``ALWAYS_PROPOSE`` → ``always-propose``); ``SCRIPTED`` (decisions
read from a ``script`` array, for cross-checks) and ``TABLE`` (decisions read from
a table by canonical state, carried in the script: :mod:`.decisions.tables`) are not offered
on the command line. ``STRATEGY`` is the computed strategy of five up: the kernels read
it as ``TABLE`` (:meth:`EcarteSettings.cfg` writes ``TABLE``), and the analysis layer puts
the shipped tables in the script (``ecarte_sim.analysis.ecarte.solving.solved.script_for``).

To add a policy: add a member to its enum here, implement it in
:mod:`ecarte_sim.engine.ecarte.decisions.policies` (or a play model in
:mod:`ecarte_sim.engine.ecarte.play.players`) with the sentence of the treatise it
encodes, and test it; the CLI, the echo and the validation follow. A play model is also
one entry of :data:`PLAY_MODELS` (what the help says of it, where it is offered and where
it is a default: :data:`PLAY_USES`), which the command line's choices, the best
response's ids and the claims' lists read (:func:`play_models`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum
from typing import TYPE_CHECKING

from ecarte_sim.engine.ecarte.records import MAX_EXCHANGES
from ecarte_sim.engine.layout import Layout
from ecarte_sim.engine.sizes import DEFAULT_BLOCK, DEFAULT_CHUNK

if TYPE_CHECKING:
    import numpy as np


class ElderPolicy(IntEnum):
    """The elder's choice: play without proposing, or propose (Laws 25–26)."""
    SCRIPTED = 0
    REGLE = 1
    ALWAYS_PLAY = 2
    ALWAYS_PROPOSE = 3
    THRESHOLD = 4
    TABLE = 5
    #: the computed strategy of five up (read as ``TABLE``; module docstring)
    STRATEGY = 6


class DealerPolicy(IntEnum):
    """The dealer's answer to a proposal: accept or refuse (Law 25)."""
    SCRIPTED = 0
    MAXIMS = 1
    REGLE = 2
    ALWAYS_ACCEPT = 3
    ALWAYS_REFUSE = 4
    TABLE = 5
    #: the computed strategy of five up (read as ``TABLE``; module docstring)
    STRATEGY = 6


class Discard(IntEnum):
    """Which cards a player discards on an exchange (Law 27). The rules keep the trumps
    and the plain cards from a rank up (``DISCARD_RULES``, in
    :mod:`ecarte_sim.engine.ecarte.decisions.policies`); ``TABLE`` reads the rule by canonical
    state."""
    SCRIPTED = 0
    TRUMPS_KINGS = 1
    TRUMPS_QUEENS = 2
    TRUMPS_ONLY = 3
    TRUMPS_KNAVES = 4
    TRUMPS_ACES = 5
    FEWEST = 6
    TABLE = 7
    #: the computed strategy's discard tables (read as ``TABLE``; module docstring)
    STRATEGY = 8


#: A first discard left to the discard policy (the ``elder_first_discard`` and
#: ``dealer_first_discard`` entries of ``CFG``; any other value is a ``Discard`` rule).
DISCARD_BY_POLICY = 0


class PlayModel(IntEnum):
    """How a player chooses his cards in the play (Law 43 fixes which are legal)."""
    SCRIPTED = 0
    DD = 1
    HEURISTIC = 2
    PIMC = 3
    #: PIMC whose worlds are drawn from the posterior given the opponent's proposals,
    #: answers and discards under an opponent model (:mod:`.play.inferred_worlds`)
    PIMC_INFERENCE = 4
    #: ``pimc-inference`` whose worlds also read the opponent's announcement of the king
    #: of trumps (Laws 23-24), every hand he may hold when they are few
    #: (:mod:`.play.reading`)
    PIMC_KING = 5


#: The play models that draw PIMC worlds, and those of them that read the proposals.
PIMC_MODELS = (PlayModel.PIMC, PlayModel.PIMC_INFERENCE, PlayModel.PIMC_KING)
INFERRING_MODELS = (PlayModel.PIMC_INFERENCE, PlayModel.PIMC_KING)


#: Where a play model is offered, by question: ``play`` every whole deal (``play``, ``game``,
#: ``simulate``, ``--elder-play``, ``chart --play``); ``solved`` the proposal game solved
#: under it (``strategy``, ``advise``, ``equilibrium``, ``audit``, ``every-decision``,
#: ``versus``); ``claims`` the treatise's claims' experiments; ``exploited`` the exact best
#: response to it (``exploit``, ``exploitability``). A name ending in ``-default`` is where
#: the model is among a question's defaults: ``claims`` tests ``claims-default`` unless
#: told, ``exploit`` answers ``exploit-default``, ``exploitability`` measures
#: ``exploitability-default``.
PLAY_USES = ("play", "solved", "claims", "exploited", "claims-default", "exploit-default",
             "exploitability-default")


@dataclass(frozen=True)
class PlayModelEntry:
    """One play model in the registry (:data:`PLAY_MODELS`): its id, what the help says
    of it, and the questions that offer it (:data:`PLAY_USES`)."""
    model: PlayModel
    text: str
    uses: frozenset[str]

    @property
    def name(self) -> str:
        return name_of(self.model)


#: The play models a user may choose, in id order: adding a play model is one entry here
#: (and its kernel); the command line's choices, help texts and defaults, the best
#: response's ids and the claims' lists read it (:func:`play_models`, :func:`play_help`).
PLAY_MODELS = (
    PlayModelEntry(PlayModel.DD, "both see all cards: measures the cards",
                   frozenset({"play", "solved", "claims", "claims-default"})),
    PlayModelEntry(PlayModel.HEURISTIC, "Hoyle's advice",
                   frozenset({"play", "solved", "claims", "claims-default", "exploited",
                              "exploitability-default"})),
    PlayModelEntry(PlayModel.PIMC, "sampled worlds",
                   frozenset({"play", "solved", "claims", "claims-default", "exploited",
                              "exploit-default", "exploitability-default"})),
    PlayModelEntry(PlayModel.PIMC_INFERENCE,
                   "worlds drawn from what the opponent's proposals, answers and discards "
                   "say of his hand",
                   frozenset({"play", "solved", "claims", "exploited",
                              "exploitability-default"})),
    PlayModelEntry(PlayModel.PIMC_KING,
                   "those worlds also weighed by his announcement of the king of trumps, "
                   "every hand he may hold when they are few",
                   frozenset({"play", "exploited"})),
)


def play_models(use: str = "play") -> tuple[str, ...]:
    """The names of the play models offered where ``use`` (:data:`PLAY_USES`), in id
    order."""
    if use not in PLAY_USES:
        raise ValueError(f"unknown use {use!r}; choose from {', '.join(PLAY_USES)}")
    return tuple(e.name for e in PLAY_MODELS if use in e.uses)


def play_help(use: str = "play") -> str:
    """The play models offered where ``use``, each with what it is, for a help text:
    ``dd (both see all cards: measures the cards), heuristic (Hoyle's advice), ...``."""
    return ", ".join(f"{e.name} ({e.text})" for e in PLAY_MODELS if use in e.uses)


def play_model_id(name: str) -> int:
    """The kernel id of the play model ``name`` (``pimc`` → ``PlayModel.PIMC``)."""
    return int(member(PlayModel, name, "play model"))


class ElderFirst(IntEnum):
    """The elder's first decision (round 0) forced one way: the arms of a paired run."""
    BY_POLICY = 0
    PLAY = 1
    PROPOSE = 2


class DealerFirst(IntEnum):
    """The dealer's first answer (round 0) forced one way: the arms of a paired run."""
    BY_POLICY = 0
    REFUSE = 1
    ACCEPT = 2


def name_of(member: IntEnum) -> str:
    """The name a user types for ``member`` (``ALWAYS_PROPOSE`` → ``always-propose``)."""
    return member.name.lower().replace("_", "-")


def choices(kind: type[IntEnum]) -> list[str]:
    """The names a user may type for ``kind`` (scripted, by-policy and table left out)."""
    return [name_of(m) for m in kind if m.name not in ("SCRIPTED", "BY_POLICY", "TABLE")]


def member(kind: type[IntEnum], value, what: str) -> IntEnum:
    """``value`` (a member, or its typed name; None for a forced first decision means
    none) as a member of ``kind``; ``ValueError`` naming the bad value and the choices
    otherwise."""
    if value is None and "BY_POLICY" in kind.__members__:
        return kind.BY_POLICY
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        for m in kind:
            if name_of(m) == value:
                return m
    raise ValueError(f"unknown {what} {value!r}; choose from {', '.join(choices(kind))}")


#: PIMC worlds per decision: the default and the most (the layout of a deal's random
#: words, :mod:`ecarte_sim.engine.ecarte.play.players`).
DEFAULT_WORLDS = 64
MAX_WORLDS = 4096
#: The worlds of the practice table's and ``cards``' ``pimc-king`` player: past W = 64 more
#: worlds play better, and the gain stops between 1,024 and 4,096 (measured in
#: ``results/card-play/``).
READING_WORLDS = 1024
#: The card players that choose one card from a position (``cards --player``, the practice
#: table's and the coach's chooser, ``card-regret --players``, ``stronger --player``): the
#: play models that infer, and ``alphamu`` (αμ over pimc-inference's worlds, no
#: :class:`PlayModel` of the whole deal), each with the worlds it plays at when none are
#: asked and where it is offered (``cards``, ``chooser``, ``regret``, ``stronger``; a
#: ``-default`` use: among that question's defaults).
CARD_USES = ("cards", "chooser", "regret", "stronger", "cards-default", "regret-default")


@dataclass(frozen=True)
class CardPlayerEntry:
    """One card player in the registry (:data:`CARD_PLAYERS`)."""
    name: str
    worlds: int
    uses: frozenset[str]


CARD_PLAYERS = (
    CardPlayerEntry("pimc-king", READING_WORLDS,
                    frozenset({"cards", "chooser", "regret", "stronger", "cards-default",
                               "regret-default"})),
    CardPlayerEntry("pimc-inference", DEFAULT_WORLDS,
                    frozenset({"cards", "chooser", "regret", "stronger", "regret-default"})),
    CardPlayerEntry("alphamu", DEFAULT_WORLDS, frozenset({"chooser", "stronger"})),
)


def card_players(use: str) -> tuple[str, ...]:
    """The names of the card players offered where ``use`` (:data:`CARD_USES`)."""
    if use not in CARD_USES:
        raise ValueError(f"unknown use {use!r}; choose from {', '.join(CARD_USES)}")
    return tuple(e.name for e in CARD_PLAYERS if use in e.uses)


def card_player_worlds(name: str) -> int:
    """The worlds the card player ``name`` plays at when none are asked."""
    for e in CARD_PLAYERS:
        if e.name == name:
            return e.worlds
    raise ValueError(f"unknown card player {name!r}; choose from "
                     f"{', '.join(e.name for e in CARD_PLAYERS)}")


#: ``threshold`` policy: the strength needed to play (:func:`policies.strength`).
DEFAULT_THRESHOLD = 8
#: Deals per task when a player uses PIMC (~10^4 deals a second on two cores): small
#: enough that a cluster gets many tasks, big enough that a task's overhead stays small
#: (the task size never changes a count).
PIMC_TASK = 1 << 13

#: The kernel's ``cfg`` array (int64): the settings, the score and the forced first
#: decisions of a paired run.
CFG = Layout("Cfg", [
    ("elder_policy", 1), ("threshold", 1), ("max_proposals", 1), ("dealer_policy", 1),
    ("elder_discard", 1), ("dealer_discard", 1), ("elder_play", 1), ("dealer_play", 1),
    ("worlds", 1), ("forced_trump", 1), ("dealer_min_one", 1),
    ("elder_score", 1), ("dealer_score", 1),
    ("target", 1),          # a mark reaching it ends the deal (0: no game)
    ("trick_by_trick", 1),  # 1: dd played card by card (narratives); 0: solved once (fast)
    ("elder_first", 1),     # ElderFirst
    ("dealer_first", 1),    # DealerFirst
    ("elder_first_discard", 1),   # DISCARD_BY_POLICY or a Discard rule, round 0 only
    ("dealer_first_discard", 1),
    ("model_of_elder", 1),  # ElderPolicy the dealer's pimc-inference assumes of the elder
    ("model_of_dealer", 1),  # DealerPolicy the elder's pimc-inference assumes of the dealer
    # A history forced on one player (:class:`Forced`): his decisions of rounds
    # 0 .. n-1 (bit r of *_says: the elder proposed, the dealer accepted) and his discards
    # of the first *_discards exchanges (exact card masks), the policy deciding after
    ("elder_forced_rounds", 1), ("elder_forced_says", 1), ("elder_forced_discards", 1),
    ("elder_thrown", MAX_EXCHANGES),
    ("dealer_forced_rounds", 1), ("dealer_forced_says", 1), ("dealer_forced_discards", 1),
    ("dealer_thrown", MAX_EXCHANGES),
])


@dataclass(frozen=True)
class Forced:
    """A player's history forced on a whole deal: the later decisions' paired arms.

    ``says``: his decisions of rounds 0, 1, ... (True: the elder proposes, the dealer
    accepts); ``thrown``: the exact cards (masks) he discards in exchanges 0, 1, ...
    (at most ``len(says)``: he discards only after a proposal is accepted). The policy
    decides every later round and discard. The kernel takes them as they are: the caller
    gives a legal history (Laws 25-27, 38), as :mod:`..deals.later` builds it."""
    says: tuple[bool, ...] = ()
    thrown: tuple[int, ...] = ()

    def __post_init__(self):
        says = tuple(bool(s) for s in self.says)
        thrown = tuple(int(t) for t in self.thrown)
        if len(says) > MAX_EXCHANGES + 1 or len(thrown) > min(len(says), MAX_EXCHANGES):
            raise ValueError(f"a forced history holds at most {MAX_EXCHANGES + 1} decisions "
                             f"and no more discards than decisions, got {len(says)} and "
                             f"{len(thrown)}")
        for t in thrown:
            if not 0 <= t < 1 << 32:
                raise ValueError(f"a forced discard must be a 32-bit card mask, got {t}")
        object.__setattr__(self, "says", says)
        object.__setattr__(self, "thrown", thrown)


@dataclass(frozen=True)
class EcarteSettings:
    """Policies, play models and variants of a whole-deal run (validated once).

    ``elder_policy``, ``dealer_policy``, ``elder_discard``, ``dealer_discard``,
    ``elder_play``, ``dealer_play`` take enum members or their typed names;
    ``worlds`` PIMC worlds per decision; ``threshold`` the strength the ``threshold``
    policy needs; ``max_proposals`` the most proposals in a deal (0: until the stock
    runs out; 1: the single-exchange variant); ``dealer_min_one`` the variant where a
    dealer who accepts takes at least one card; ``forced_trump`` Law 43's obligation to
    trump when void. ``model_of_elder`` / ``model_of_dealer``: the opponent model of a
    ``pimc-inference`` player, the policy he assumes the elder (the dealer) decides by;
    None: the policy that player actually plays.
    """

    elder_policy: ElderPolicy = ElderPolicy.REGLE
    dealer_policy: DealerPolicy = DealerPolicy.MAXIMS
    elder_discard: Discard = Discard.TRUMPS_KINGS
    dealer_discard: Discard = Discard.TRUMPS_KINGS
    elder_play: PlayModel = PlayModel.DD
    dealer_play: PlayModel = PlayModel.DD
    worlds: int = DEFAULT_WORLDS
    threshold: int = DEFAULT_THRESHOLD
    max_proposals: int = 0
    dealer_min_one: bool = False
    forced_trump: bool = True
    model_of_elder: ElderPolicy | None = None
    model_of_dealer: DealerPolicy | None = None

    def __post_init__(self):
        kinds = {"elder_policy": (ElderPolicy, "elder policy"),
                 "dealer_policy": (DealerPolicy, "dealer policy"),
                 "elder_discard": (Discard, "discard policy"),
                 "dealer_discard": (Discard, "discard policy"),
                 "elder_play": (PlayModel, "play model"),
                 "dealer_play": (PlayModel, "play model")}
        for name, (kind, what) in kinds.items():
            object.__setattr__(self, name, member(kind, getattr(self, name), what))
        for name, kind in (("model_of_elder", ElderPolicy), ("model_of_dealer", DealerPolicy)):
            if getattr(self, name) is not None:
                model = member(kind, getattr(self, name), "opponent model")
                if model in (kind.SCRIPTED, kind.TABLE):
                    raise ValueError(f"an opponent model must be a named policy, not "
                                     f"{name_of(model)} (leave it unset for the policy "
                                     f"played)")
                object.__setattr__(self, name, model)
                if not set(INFERRING_MODELS) & {self.elder_play, self.dealer_play}:
                    raise ValueError("an opponent model needs a pimc-inference player "
                                     "(--play pimc-inference or pimc-king)")
        if not 1 <= int(self.worlds) <= MAX_WORLDS:
            raise ValueError(f"worlds must be in 1..{MAX_WORLDS}, got {self.worlds}")
        if int(self.max_proposals) < 0:
            raise ValueError(f"max_proposals must be >= 0 (0 = no limit), got "
                             f"{self.max_proposals}")
        for name in ("worlds", "threshold", "max_proposals"):
            object.__setattr__(self, name, int(getattr(self, name)))
        for name in ("dealer_min_one", "forced_trump"):
            object.__setattr__(self, name, bool(getattr(self, name)))

    @classmethod
    def build(cls, *, play=PlayModel.DD, elder_play=None, dealer_play=None, discard=None,
              single_exchange: bool = False, **kwargs) -> "EcarteSettings":
        """Settings from keyword arguments as the command line gives them: ``play`` sets
        both players' model unless ``elder_play``/``dealer_play`` is given; ``discard``
        sets both players' discard; ``single_exchange`` is ``max_proposals=1``."""
        if discard is not None:
            kwargs.setdefault("elder_discard", discard)
            kwargs.setdefault("dealer_discard", discard)
        if single_exchange:
            kwargs["max_proposals"] = 1
        return cls(elder_play=elder_play or play, dealer_play=dealer_play or play, **kwargs)

    @property
    def uses_pimc(self) -> bool:
        return bool(set(PIMC_MODELS) & {self.elder_play, self.dealer_play})

    @property
    def uses_strategy(self) -> bool:
        """A decision or a discard is the computed strategy's: the script must carry its
        tables (the analysis layer's ``script_for``)."""
        return any(getattr(self, f).name == "STRATEGY" for f in
                   ("elder_policy", "dealer_policy", "elder_discard", "dealer_discard")) or \
            any(m is not None and m.name == "STRATEGY" for m in
                (self.model_of_elder, self.model_of_dealer))

    @property
    def infers(self) -> bool:
        """A player reads the proposals (``pimc-inference``, ``pimc-king``)."""
        return bool(set(INFERRING_MODELS) & {self.elder_play, self.dealer_play})

    def models(self) -> tuple[ElderPolicy, DealerPolicy]:
        """The opponent models: of the elder and of the dealer (the policies played when
        unset)."""
        return (self.elder_policy if self.model_of_elder is None else self.model_of_elder,
                self.dealer_policy if self.model_of_dealer is None else self.model_of_dealer)

    def task_size(self) -> int:
        """Default deals per task of a run under these settings."""
        return PIMC_TASK if self.uses_pimc else DEFAULT_BLOCK

    def chunk(self) -> int:
        """Default deals per parallel row: small under PIMC, to keep both threads busy."""
        return 256 if self.uses_pimc else DEFAULT_CHUNK

    def cfg(self, *, elder_score: int = 0, dealer_score: int = 0, target: int = 0,
            trick_by_trick: bool = False, elder_first=ElderFirst.BY_POLICY,
            dealer_first=DealerFirst.BY_POLICY, elder_first_discard=None,
            dealer_first_discard=None, elder_forced: Forced | None = None,
            dealer_forced: Forced | None = None) -> np.ndarray:
        """The kernel's ``cfg`` array: these settings, plus the score before the deal
        (``target=5`` stops the deal when a mark reaches five), ``trick_by_trick`` (dd
        played card by card, for a narrative) and the first decisions forced for a
        paired run (``elder_first`` play/propose, ``dealer_first`` refuse/accept,
        ``elder_first_discard``/``dealer_first_discard`` a discard rule for the first
        exchange, None for the policy's; the policy decides the later rounds), or a
        player's whole history forced up to a later decision (``elder_forced``,
        ``dealer_forced``: :class:`Forced`, not with the same player's first-decision
        fields)."""
        if int(target) < 0:
            raise ValueError(f"target must be >= 0 (0 = no game), got {target}")
        for name, score in (("elder score", elder_score), ("dealer score", dealer_score)):
            if int(score) < 0 or (int(target) > 0 and int(score) >= int(target)):
                raise ValueError(f"{name} must be in 0..{max(int(target) - 1, 0)}, got {score}")
        import numpy as np      # here: the command line reads the choices above at start-up
        at = CFG.at
        cfg = np.zeros(CFG.size, dtype=np.int64)
        for f in fields(self):
            if not f.name.startswith("model_of_"):
                cfg[at[f.name.upper()]] = _kernel_id(getattr(self, f.name))
        cfg[at.MODEL_OF_ELDER], cfg[at.MODEL_OF_DEALER] = (_kernel_id(m) for m in
                                                           self.models())
        cfg[at.ELDER_SCORE] = int(elder_score)
        cfg[at.DEALER_SCORE] = int(dealer_score)
        cfg[at.TARGET] = int(target)
        cfg[at.TRICK_BY_TRICK] = int(bool(trick_by_trick))
        cfg[at.ELDER_FIRST] = member(ElderFirst, elder_first, "elder first decision")
        cfg[at.DEALER_FIRST] = member(DealerFirst, dealer_first, "dealer first decision")
        for name, rule in (("ELDER_FIRST_DISCARD", elder_first_discard),
                           ("DEALER_FIRST_DISCARD", dealer_first_discard)):
            if rule is not None:
                rule = member(Discard, rule, "discard rule")
                if rule in (Discard.SCRIPTED, Discard.TABLE):
                    raise ValueError(f"a first discard must be a rule, not {name_of(rule)}")
            cfg[at[name]] = DISCARD_BY_POLICY if rule is None else int(rule)
        for who, forced, first in (("ELDER", elder_forced, cfg[at.ELDER_FIRST]),
                                   ("DEALER", dealer_forced, cfg[at.DEALER_FIRST])):
            if forced is None:
                continue
            if not isinstance(forced, Forced):
                raise ValueError(f"a forced history must be a Forced, not {forced!r}")
            if first or cfg[at[f"{who}_FIRST_DISCARD"]] != DISCARD_BY_POLICY:
                raise ValueError(f"the {who.lower()}'s first decision is forced twice")
            cfg[at[f"{who}_FORCED_ROUNDS"]] = len(forced.says)
            cfg[at[f"{who}_FORCED_SAYS"]] = sum(1 << r for r, s in enumerate(forced.says) if s)
            cfg[at[f"{who}_FORCED_DISCARDS"]] = len(forced.thrown)
            for r, t in enumerate(forced.thrown):
                cfg[at[f"{who}_THROWN"] + r] = t
        return cfg

    def echo(self) -> dict:
        """The settings as JSON and provenance show them (typed names)."""
        discard = (name_of(self.elder_discard) if self.elder_discard == self.dealer_discard
                   else {"elder": name_of(self.elder_discard),
                         "dealer": name_of(self.dealer_discard)})
        return {"elder_policy": name_of(self.elder_policy),
                "dealer_policy": name_of(self.dealer_policy),
                "play": {"elder": name_of(self.elder_play), "dealer": name_of(self.dealer_play)},
                "worlds": self.worlds, "threshold": self.threshold, "discard": discard,
                "max_proposals": self.max_proposals, "dealer_min_one": self.dealer_min_one,
                "forced_trump": self.forced_trump,
                **({"opponent_model": {"of_elder": name_of(self.models()[0]),
                                       "of_dealer": name_of(self.models()[1])}}
                   if self.infers else {})}


def _kernel_id(value) -> int:
    """The ``cfg`` value of a setting: ``STRATEGY`` is read as ``TABLE`` (module
    docstring)."""
    if isinstance(value, IntEnum) and value.name == "STRATEGY":
        return int(type(value).TABLE)
    return int(value)


def make_cfg(*, elder_score: int = 0, dealer_score: int = 0, target: int = 0,
             trick_by_trick: bool = False, elder_first=ElderFirst.BY_POLICY,
             dealer_first=DealerFirst.BY_POLICY, elder_first_discard=None,
             dealer_first_discard=None, elder_forced=None, dealer_forced=None,
             **settings) -> np.ndarray:
    """``EcarteSettings.build(**settings).cfg(...)`` in one call (keywords only)."""
    return EcarteSettings.build(**settings).cfg(
        elder_score=elder_score, dealer_score=dealer_score, target=target,
        trick_by_trick=trick_by_trick, elder_first=elder_first, dealer_first=dealer_first,
        elder_first_discard=elder_first_discard, dealer_first_discard=dealer_first_discard,
        elder_forced=elder_forced, dealer_forced=dealer_forced)
