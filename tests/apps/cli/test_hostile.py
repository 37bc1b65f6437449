"""Hostile input for every ``ecarte-sim`` command that takes cards, hands, files, score
states, seeds or counts.

The contract, for every call: either a correct answer (exit 0), or exactly one line on
stderr starting with ``Error:`` and exit code 2 — never a traceback, never a hang, never a
partial or temporary file left where a complete one was expected.

Almost everything runs in-process through ``apps.cli.run`` (the console entry point;
a NUL byte can only be passed this way), under a watchdog so that a hang fails instead of
blocking: a budget of this process's CPU time, not of wall time (a busy machine slows a call
without making it use more CPU), which stops while numba compiles (a cold cache compiles for
minutes, and an exception raised inside a compilation would leave numba half-built in the
worker). A few subprocess calls check the real stderr of ``python -m ecarte_sim.apps.cli``,
under a CPU-time limit of their own (:func:`helpers.cpu_limit`).
Counts are kept tiny (``--deals``/``--parties`` minimums); longer checks are marked slow.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecarte_sim.apps.cli import run
from helpers import BLOCKED, cpu_limit

ELDER = "QH AH 7H KS KD"
DEALER = "KH JH 9H 8H 9C"
EXAMPLE = {"elder_tricks": 2, "moves": {"KS": 2, "QH": 1, "AH": 1, "7H": 1, "KD": 2}}
GOOD_LINE = f"{ELDER} | {DEALER} | TH".encode()

# Piquet deal 3 of seed 0, written out (elder 12, younger 12, talon 8 top first).
P_ELDER = "9S 7S QH 9H KD QD JD TD 8D AC KC TC"
P_YOUNGER = "KS QS JS TS 8S KH JH TH AD 9D QC 9C"
P_TALON = "JC 7H 8H 7C 8C 7D AH AS"
P_CARDS = ["--elder", P_ELDER, "--younger", P_YOUNGER, "--talon", P_TALON]

FAST = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

# --------------------------------------------------------------------------- the harness


class Hang(Exception):
    """Raised by the watchdog inside a call that used its CPU-time budget."""


class Run(NamedTuple):
    code: object          # int exit code, or "exception: <type>" for an escaped exception
    out: str
    err: str
    args: tuple


#: The CPU time a call may use outside numba's compilation before it counts as a hang:
#: the calls here use a few seconds at most (tiny counts), whatever the machine's load.
CPU_BUDGET = 120.0


def _in_numba(frame) -> bool:
    """Whether numba's own Python code is on the stack (a compilation starting)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith(_NUMBA_DIR):
            return True
        frame = frame.f_back
    return False


_NUMBA_DIR = os.path.dirname(numba.__file__)


@contextlib.contextmanager
def _watchdog(cpu_seconds: float):
    """Raise :class:`Hang` in the call once it has used ``cpu_seconds`` of this process's
    CPU time (``ITIMER_PROF``: user and system time of every thread) outside numba's
    compilation. The budget is paused while numba compiles (its compile events), and the
    signal never raises inside a compilation: it waits for the compilation to end."""
    from numba.core import event

    state = {"depth": 0, "left": 0.0, "expired": False}

    def fire(signum, frame):
        if state["depth"]:
            state["expired"] = True          # raise once the compilation is over
            return
        if _in_numba(frame):                 # about to compile, or typing: a moment later
            signal.setitimer(signal.ITIMER_PROF, 0.05)
            return
        raise Hang(f"no answer after {cpu_seconds} s of CPU time (compilation not counted)")

    class Pause(event.Listener):
        def on_start(self, ev):
            if state["depth"] == 0:
                state["left"] = signal.setitimer(signal.ITIMER_PROF, 0)[0]
            state["depth"] += 1

        def on_end(self, ev):
            state["depth"] -= 1
            if state["depth"] == 0:
                signal.setitimer(signal.ITIMER_PROF, 1e-3 if state["expired"]
                                 else max(state["left"], 1e-3))

    old = signal.signal(signal.SIGPROF, fire)
    listener = Pause()
    event.register("numba:compile", listener)
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        event.unregister("numba:compile", listener)
        signal.signal(signal.SIGPROF, old)


def invoke(*args: str, stdin: bytes | None = None, cpu_seconds: float = CPU_BUDGET) -> Run:
    """``ecarte-sim ARGS`` in-process; ``stdin`` (bytes) feeds ``--batch -``.

    Never raises: an exception escaping ``run`` becomes the code ``"exception: T"`` with
    its traceback on ``err`` (what a user would see), and a hang becomes ``"hang"``.
    """
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    threads = numba.get_num_threads()
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    code: object = 0
    try:
        with (contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
              _watchdog(cpu_seconds)):
            run(list(args))
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
    except Hang:
        code = "hang"
    except BaseException as exc:   # noqa: BLE001 - a traceback is what we look for
        code = f"exception: {type(exc).__name__}"
        err.write(traceback.format_exc())
    finally:
        sys.stdin = saved_stdin
        numba.set_num_threads(threads)
    return Run(code, out.getvalue(), err.getvalue(), args)


def _show(r: Run) -> str:
    args = [a if len(a) < 80 else a[:40] + f"...({len(a)} chars)" for a in r.args]
    return f"argv={args!r}\ncode={r.code!r}\nstdout={r.out[:300]!r}\nstderr={r.err[-1500:]}"


def contract(r: Run) -> Run:
    """The contract every call must keep (exit 0, or exit 2 with one 'Error:' line)."""
    assert "Traceback" not in r.out + r.err, _show(r)
    assert r.code in (0, 2), _show(r)
    if r.code == 2:
        lines = r.err.splitlines()
        assert len(lines) == 1 and r.err.endswith("\n"), _show(r)
        assert lines[0].startswith("Error: "), _show(r)
    return r


def refused(r: Run) -> str:
    """A clean refusal: exit 2, nothing on stdout, one 'Error:' line on stderr."""
    contract(r)
    assert r.code == 2, _show(r)
    assert r.out == "", _show(r)
    return r.err.splitlines()[0]


def answered(r: Run) -> dict:
    """Exit 0 with exactly one JSON object on stdout and nothing on stderr."""
    contract(r)
    assert r.code == 0, _show(r)
    assert r.err == "", _show(r)
    assert len(r.out.splitlines()) == 1, _show(r)
    obj = json.loads(r.out)
    assert isinstance(obj, dict)
    return obj


def bare(obj: dict) -> dict:
    """An answer without its provenance (command line, parameters as typed, version)."""
    return {k: v for k, v in obj.items() if k != "provenance"}


def leftovers(directory: Path) -> list[str]:
    """Temporary files a writer left behind (``x.tmp``, ``x.tmp1234``)."""
    if not directory.is_dir():
        return []
    return sorted(p.name for p in directory.rglob("*") if ".tmp" in p.name)


# --------------------------------------------------------------------------- the corpus

#: Strings that are not a card in any notation (each must be refused where a card goes).
NASTY_TOKENS = [
    "", " ", "\t\n ", "K" * 100_000,
    "КS",                  # Cyrillic Ka
    "ΚS",                  # Greek Kappa
    "ＫS", "Ｋ♠", "KＳ",     # fullwidth
    "K♠\ufe0f",            # emoji variation selector
    "\u202eKS",            # right-to-left override
    "KS\u200f",            # right-to-left mark
    "\u200eKS",            # left-to-right mark
    "\ufeffKS",            # byte-order mark
    "K\u0301S",            # combining accent
    "\x00", "KS\x00", "K\x00S",
    "K\nS\n" + "x",        # newline inside an argument
    "🂮",                   # the Unicode playing card king of spades
    "ℌ", "Ⓚ♠", "\udcff",   # script H, circled K, an undecodable argv byte
    "-1", "99999999999999999999999999", "1e9", "nan", "inf", "0x10", "1.5", "0",
    "11S", "1S", "KSS", "K S S",
]

NUMBER_CORPUS = ["-1", "99999999999999999999999999", "1e9", "nan", "inf", "-inf", "0x10",
                 "0b1", "0o7", "1.5", "1.0", "", " ", "\x00", "1\x00", "\x001", "1\n2",
                 "K" * 100_000, "1" * 100_000, "-0", "+3", " 7 ", "1_0", "٣", "３", "𝟕",
                 "\u202e12", "12\u200f", "3\u00a0", "NaN", "1e3", "--1", "0" * 50 + "1"]


def py_int(text: str) -> int | None:
    """What an integer option should accept: Python's own int() reading, else None."""
    try:
        return int(text)
    except ValueError:
        return None


def replace_card(hand: str, index: int, token: str) -> str:
    cards = hand.split()
    cards[index] = token
    return " ".join(cards)


# --------------------------------------------------------------------------- cards: corpus

@pytest.mark.parametrize("token", NASTY_TOKENS, ids=lambda t: repr(t)[:24])
@pytest.mark.parametrize("slot", ["solve-elder", "solve-dealer", "solve-trump",
                                  "classify-hand", "classify-trump", "hand-hand", "hand-trump",
                                  "piquet-elder", "piquet-younger", "piquet-talon",
                                  "piquet-elder-discard", "piquet-younger-discard"])
def test_a_nasty_token_where_a_card_goes_is_refused(slot, token):
    hand_cmd = ["--deals", "100", "--play", "heuristic", "-q", "--json"]
    if slot == "solve-elder":
        args = ["solve", "-t", "S", "--json", "--", replace_card(ELDER, 4, token), DEALER]
    elif slot == "solve-dealer":
        args = ["solve", "-t", "S", "--json", "--", ELDER, replace_card(DEALER, 0, token)]
    elif slot == "solve-trump":
        args = ["solve", f"--trump={token}", "--json", "--", ELDER, DEALER]
    elif slot == "classify-hand":
        args = ["classify", "-t", "H", "--json", "--", replace_card(ELDER, 2, token)]
    elif slot == "classify-trump":
        args = ["classify", f"--trump={token}", "--json", "--", ELDER]
    elif slot == "hand-hand":
        args = ["hand", "-t", "H", *hand_cmd, "--", replace_card(ELDER, 3, token)]
    elif slot == "hand-trump":
        args = ["hand", f"--trump={token}", *hand_cmd, "--", ELDER]
    else:
        opts = {"piquet-elder": "--elder", "piquet-younger": "--younger",
                "piquet-talon": "--talon"}
        cards = dict(zip(P_CARDS[::2], P_CARDS[1::2]))
        args = ["piquet", "deal", "--json"]
        if slot in opts:
            cards[opts[slot]] = replace_card(cards[opts[slot]], 5, token)
        elif slot == "piquet-elder-discard":
            args += [f"--elder-discard={token}"]      # alone: a blank discard is refused too
        else:
            args += [f"--younger-discard={token}"]
        for k, v in cards.items():
            args.append(f"{k}={v}")
    refused(invoke(*args))


@pytest.mark.parametrize("args, token", [
    (["solve", "-t", "S", "--", "QH QH 7H KS KD", DEALER], "QH"),            # within a hand
    (["solve", "-t", "S", "--", "QH qh 7H KS KD", DEALER], "qh"),
    (["solve", "-t", "S", "--", "QH Q♥ 7H KS KD", DEALER], "Q♥"),
    (["solve", "-t", "S", "--", "QH 10H TH KS KD", DEALER], "TH"),
    (["solve", "-t", "S", "--", ELDER, "KH JH 9H 8H KD"], "KD"),             # across hands
    (["solve", "-t", "S", "--", ELDER, ELDER], None),
    (["solve", "-t", "KD", "--", ELDER, DEALER], "KD"),                      # turn-up held
    (["solve", "-t", "9C", "--", ELDER, DEALER], "9C"),
    (["classify", "-t", "H", "--", "KS KS KS KS KS"], "KS"),
    (["classify", "-t", "KS", "--", ELDER], "KS"),
    (["hand", "-t", "H", "--deals", "100", "-q", "--", "QH AH AH KS KD"], "AH"),
    (["hand", "-t", "QH", "--exact", "-q", "--", ELDER], "QH"),
    (["piquet", "deal", "--elder", P_ELDER, "--younger", P_ELDER, "--talon", P_TALON], None),
    (["piquet", "deal", "--elder", P_ELDER, "--younger",
      P_YOUNGER.replace("KS", "9S"), "--talon", P_TALON], "9S"),
    (["piquet", "deal", "--elder", P_ELDER, "--younger", P_YOUNGER,
      "--talon", P_TALON.replace("AS", "AH")], "AH"),
    (["piquet", "deal", *P_CARDS, "--elder-discard", "9S 9S"], "9S"),
    (["piquet", "deal", *P_CARDS, "--elder-discard", "KS"], "KS"),           # not his card
    (["piquet", "deal", *P_CARDS, "--younger-discard", "9S"], "9S"),
    (["piquet", "deal", *P_CARDS, "--elder-discard", "9S 7S QH 9H KD QD"], None),   # six
    (["piquet", "deal", *P_CARDS, "--elder-discard", " "], None),
    (["piquet", "deal", *P_CARDS[:4]], None),                                # no talon
])
def test_duplicates_and_clashes_are_refused(args, token):
    line = refused(invoke(*args))
    if token is not None:
        assert token in line, line


@pytest.mark.quick
@pytest.mark.parametrize("argv", [
    ["solve", ELDER, DEALER],                          # no trump
    ["solve", "--trump", "H", ELDER],                  # one hand
    ["solve", "--trump", "H", ELDER, DEALER, "extra"],
    ["classify"], ["hand"], ["hand", ELDER],
    ["solve", "--trump", "H", "--batch", "-", ELDER],  # --batch and a deal
    ["piquet", "deal", "--elder", P_ELDER],
])
def test_missing_and_extra_arguments(argv):
    refused(invoke(*argv, stdin=b""))


# --------------------------------------------------------------------------- cards: generated

_RANK = {"7": 0, "8": 1, "9": 2, "10": 3, "T": 3, "A": 4, "J": 5, "Q": 6, "K": 7}
_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
         "♤": 0, "♡": 1, "♢": 2, "♧": 3}


def _strict_card(token: str) -> int | None:
    """An independent strict reading: an ASCII rank (any case), then an ASCII suit letter
    (any case) or a suit symbol. Which bit it gets does not matter here, only identity."""
    rank, suit = token[:-1], token[-1:]
    if not rank.isascii() or rank.upper() not in _RANK:
        return None
    suit = suit.upper() if suit.isascii() else suit
    if suit not in _SUIT:
        return None
    return _SUIT[suit] * 8 + _RANK[rank.upper()]


def _strict_hand(text: str, size: int) -> int | None:
    tokens = text.replace(",", " ").split()
    mask = 0
    for token in tokens:
        card = _strict_card(token)
        if card is None or mask >> card & 1:
            return None
        mask |= 1 << card
    return mask if len(tokens) == size else None


_CARD_TEXT = [r + s for r in ("7", "8", "9", "10", "T", "t", "A", "a", "J", "q", "K", "k")
              for s in "SHDCshdc♠♥♦♣"]
TOKEN = st.one_of(st.sampled_from(_CARD_TEXT), st.sampled_from(_CARD_TEXT),
                  st.sampled_from(NASTY_TOKENS[:-5]), st.text(max_size=3))
SEP = st.sampled_from([" ", ",", ", ", "\t", "\n", "\u00a0", "\u3000", "\u200b", "|", ""])


@st.composite
def hand_strings(draw, size: int = 5) -> str:
    n = draw(st.sampled_from([size, size, size, size - 1, size + 1, 0]))
    return "".join(draw(TOKEN) + draw(SEP) for _ in range(max(n, 0)))


@FAST
@given(st.one_of(hand_strings(), st.text()), st.one_of(hand_strings(), st.text()),
       st.one_of(st.sampled_from(["H", "♠", "clubs", "TH", "7D", "8S"]), st.text(max_size=4)))
def test_solve_generated_text(elder, dealer, trump):
    r = contract(invoke("solve", "--json", f"--trump={trump}", "--", elder, dealer))
    e, d = _strict_hand(elder, 5), _strict_hand(dealer, 5)
    if r.code == 0:
        obj = answered(r)
        # whatever was accepted must be a real deal: two disjoint hands of five cards
        assert e is not None and d is not None and not e & d, (elder, dealer, obj)
        assert len(obj["moves"]) == 5 and obj["elder_tricks"] == max(obj["moves"].values())
    else:
        refused(r)


@FAST
@given(st.one_of(hand_strings(), st.text()), st.one_of(st.sampled_from(["h", "KD"]), st.text()))
def test_classify_generated_text(hand, trump):
    r = contract(invoke("classify", "--json", f"--trump={trump}", "--", hand))
    if r.code == 0:
        assert _strict_hand(hand, 5) is not None, (hand, r.out)
        assert set(answered(r)) == {"reading", "jeu_de_regle", "rule", "rule_number",
                                    "rule_name", "words", "reason", "nearest", "provenance"}
    else:
        refused(r)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(hand_strings(), st.text()), st.one_of(st.just("H"), st.text(max_size=4)))
def test_hand_generated_text(hand, trump):
    r = contract(invoke("hand", "--json", "-q", "--deals", "100", "--play", "heuristic",
                        f"--trump={trump}", "--", hand))
    if r.code == 0:
        assert _strict_hand(hand, 5) is not None, (hand, r.out)
        assert answered(r)["play"]["n"] == 100
    else:
        refused(r)


def _piquet_token(card: int) -> str:
    return ["7", "8", "9", "T", "J", "Q", "K", "A"][card & 7] + "SHDC"[card >> 3]


@st.composite
def piquet_deal_texts(draw) -> list[str]:
    """A real deal written out, then perhaps damaged: a look-alike, a duplicate across the
    hands, a missing card, arbitrary text."""
    perm = draw(st.permutations(range(32)))
    parts = [perm[:12], perm[12:24], perm[24:]]
    texts = [[_piquet_token(c) for c in p] for p in parts]
    damage = draw(st.sampled_from(["none", "none", "token", "dup", "drop", "text"]))
    which = draw(st.integers(0, 2))
    if damage == "token":
        texts[which][draw(st.integers(0, len(texts[which]) - 1))] = draw(TOKEN)
    elif damage == "dup":
        texts[which][0] = texts[(which + 1) % 3][0]
    elif damage == "drop":
        texts[which].pop()
    joined = [draw(SEP).join(t) if damage != "text" or i != which else draw(st.text())
              for i, t in enumerate(texts)]
    return joined


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(piquet_deal_texts(), st.one_of(st.none(), st.text(max_size=8), hand_strings(2)))
def test_piquet_deal_generated_text(texts, discard):
    args = ["piquet", "deal", "--json", "--play", "random", f"--elder={texts[0]}",
            f"--younger={texts[1]}", f"--talon={texts[2]}"]
    if discard is not None:
        args.append(f"--elder-discard={discard}")
    r = contract(invoke(*args))
    e, y, t = _strict_hand(texts[0], 12), _strict_hand(texts[1], 12), _strict_hand(texts[2], 8)
    real = None not in (e, y, t) and (e | y | t) == 2**32 - 1
    if r.code == 0:
        obj = answered(r)
        assert real, (texts, obj["deal"])       # nothing short of a real deal is accepted
        deal = obj["deal"]
        cards = (deal["elder"] + " " + deal["younger"] + " " + deal["stock"]).split()
        assert len(cards) == len(set(cards)) == 32, deal
        assert len([e for e in obj["events"] if e["event"] in ("lead", "reply")]) == 24
    else:
        refused(r)
        assert not real or discard is not None, (texts, r.err)


def test_piquet_deal_nul_and_huge_arguments():
    for opt in ("--elder", "--younger", "--talon", "--elder-discard", "--younger-discard"):
        for value in ("\x00", P_ELDER + "\x00", "AS " * 50_000, "", "\n", "A\u2028S"):
            cards = dict(zip(P_CARDS[::2], P_CARDS[1::2]))
            cards[opt] = value
            refused(invoke("piquet", "deal", *[f"{k}={v}" for k, v in cards.items()]))


@pytest.mark.parametrize("take, discard", [("3", "9S 7S QH 9H KD"), ("1", "9S 7S")])
def test_piquet_deal_discard_that_contradicts_elder_take(take, discard):
    """--elder-take N with a given discard of another size: refuse, or take what was asked
    (an answer whose settings say "elder_take 3" while the elder took five is not correct)."""
    r = contract(invoke("piquet", "deal", *P_CARDS, "--json", "--elder-take", take,
                        "--elder-discard", discard))
    if r.code == 0:
        obj = answered(r)
        took = next(e["count"] for e in obj["events"]
                    if e["event"] == "take_in" and e["player"] == "elder")
        assert took == obj["settings"]["elder_take"] == int(take), (take, discard, took)
    else:
        refused(r)


# --------------------------------------------------------------------------- solve --batch

def _expected_lines(data: bytes) -> list[int]:
    """Line numbers that must get a JSON object (not blank, not a comment)."""
    numbers = []
    for n, raw in enumerate(data.split(b"\n"), start=1):
        if n == len(data.split(b"\n")) and raw == b"":
            break
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            numbers.append(n)
            continue
        if n == 1:
            text = text.lstrip("\ufeff")
        if text and not text.startswith("#"):
            numbers.append(n)
    return numbers


def _check_batch(r: Run, data: bytes, good: set[int]) -> list[dict]:
    """Every line answered once, in order; ``good`` lines solved as EXAMPLE; the others
    with an error object; exit 2 (one 'Error:' line) iff any line was bad or no line holds
    a deal (an empty file, only blank and comment lines: refused, not accepted in
    silence)."""
    contract(r)
    objs = [json.loads(line) for line in r.out.splitlines()]
    assert [o["line"] for o in objs] == _expected_lines(data), _show(r)
    bad = False
    for o in objs:
        if o["line"] in good:
            assert {k: v for k, v in bare(o).items() if k != "line"} == EXAMPLE, o
        else:
            assert set(bare(o)) == {"line", "error"}, o
            assert isinstance(o["error"], str) and o["error"], o
            bad = True
    if not objs:
        assert "no deal in" in refused(r), _show(r)
        return objs
    assert r.code == (2 if bad else 0), _show(r)
    if not bad:
        assert r.err == "", _show(r)
    return objs


_RNG = random.Random(2024)
BINARY = bytes(b for b in _RNG.randbytes(400) if b != 0x0A)

BATCH_FILES = {
    "empty": (b"", set()),
    "whitespace-only": (b"   \n\t\n \r\n", set()),
    "comments-only": (b"# a | b | c\n#\n", set()),
    "crlf": (GOOD_LINE + b"\r\n" + GOOD_LINE + b"\r\n", {1, 2}),
    "crlf-no-final-newline": (GOOD_LINE + b"\r\n" + GOOD_LINE, {1, 2}),
    "cr-only": (GOOD_LINE + b"\r" + GOOD_LINE + b"\r", set()),
    "binary-line": (GOOD_LINE + b"\n" + BINARY + b"\n" + GOOD_LINE + b"\n", {1, 3}),
    "invalid-utf8": (b"\xc3\x28 | \xa0\xa1 | \xff\n" + GOOD_LINE + b"\n", {2}),
    "overlong-utf8": (b"\xc0\xaf\xe0\x80\xaf\n", set()),
    "surrogate-utf8": (b"\xed\xa0\x80 | x | H\n", set()),
    "utf16": ("QH AH 7H KS KD | KH JH 9H 8H 9C | TH\n".encode("utf-16"), set()),
    "nul-line": (b"\x00\n" + GOOD_LINE.replace(b"TH", b"T\x00H") + b"\n", set()),
    "nul-only": (b"\x00" * 1000, set()),
    "huge-line": (b"K" * 100_000 + b" | " + b"S" * 100_000 + b" | H\n" + GOOD_LINE, {2}),
    "cyrillic": ("QH AH 7H KS КD | KH JH 9H 8H 9C | TH\n".encode(), set()),
    "fullwidth": ("QH AH 7H KS KD | KH JH 9H 8H 9C | Ｔ♥\n".encode(), set()),
    "rtl-marks": ("\u202eQH AH 7H KS KD | KH JH 9H 8H 9C | TH\n"
                  "QH AH 7H KS KD | KH JH 9H 8H 9C | TH\u200f\n".encode(), set()),
    "dup-within": (b"QH QH 7H KS KD | KH JH 9H 8H 9C | TH\n", set()),
    "dup-across": (b"QH AH 7H KS KD | KH JH 9H 8H KD | TS\n", set()),
    "turn-up-held": (b"QH AH 7H KS KD | KH JH 9H 8H 9C | KH\n", set()),
    "numbers": (b"-1 | 99999999999999999999999999 | nan\n1e9 | inf | 0x10\n", set()),
    "bars": (b"|\n||\n|||\n" + GOOD_LINE + b" |\n", set()),
    "form-feed-and-nel": (GOOD_LINE + b"\x0c\n" + "\u0085".encode() + GOOD_LINE + b"\n",
                          {1, 2}),
    "bom-then-good": (b"\xef\xbb\xbf" + GOOD_LINE + b"\n" + b"\xef\xbb\xbf" + GOOD_LINE,
                      {1}),
    "many-good": (b"\n".join([GOOD_LINE] * 300), set(range(1, 301))),
}


@pytest.mark.parametrize("name", list(BATCH_FILES))
@pytest.mark.parametrize("where", ["file", "stdin"])
def test_batch_corpus(tmp_path, name, where):
    data, good = BATCH_FILES[name]
    if where == "file":
        path = tmp_path / "deals.txt"
        path.write_bytes(data)
        r = invoke("solve", "--batch", str(path))
    else:
        r = invoke("solve", "--batch", "-", stdin=data)
    _check_batch(r, data, good)


@pytest.mark.parametrize("path", ["{tmp}", "{tmp}/missing.txt", "", "-x", "{tmp}/a\x00b",
                                  "/proc/self/nonexistent", "{tmp}/file/below"])
def test_batch_bad_paths(tmp_path, path):
    (tmp_path / "file").write_text("x")
    refused(invoke("solve", f"--batch={path.format(tmp=tmp_path)}"))


LINE = st.one_of(
    st.binary(max_size=40),
    st.sampled_from([GOOD_LINE, b"", b"# c", b"\xff", b"\x00", b"|||", GOOD_LINE + b"\r"]),
    st.text(max_size=30).map(lambda s: s.encode("utf-8", "surrogatepass")),
)


@FAST
@given(st.lists(LINE, max_size=8), st.sampled_from([b"\n", b"\r\n"]), st.booleans())
def test_batch_generated_lines(lines, newline, final):
    lines = [ln.replace(b"\n", b"") for ln in lines]
    data = newline.join(lines) + (newline if final and lines else b"")
    good = {n for n, ln in enumerate(lines, start=1) if ln.strip() == GOOD_LINE}
    r = invoke("solve", "--batch", "-", stdin=data)
    contract(r)
    objs = [json.loads(line) for line in r.out.splitlines()]
    assert [o["line"] for o in objs] == _expected_lines(data), (data, r.out)
    for o in objs:
        if o["line"] in good:
            assert {k: v for k, v in bare(o).items() if k != "line"} == EXAMPLE, o
    any_bad = any("error" in o for o in objs) or not objs
    assert r.code == (2 if any_bad else 0)
    assert len(r.err.splitlines()) == (1 if any_bad else 0), r.err


# --------------------------------------------------------------------------- numbers

@functools.cache
def _canonical(*args: str) -> str:
    return json.dumps(bare(answered(invoke(*args))), sort_keys=True)


NUMBER_TEXT = st.one_of(st.sampled_from(NUMBER_CORPUS), st.integers(-2**70, 2**70).map(str),
                        st.text(max_size=6), st.integers(0, 10**6).map(lambda n: f"{n:_}"))


def _numeric_case(template: list[str], value: str, lo: int, hi: int) -> None:
    """``template`` holds one "{}"; the value is accepted iff Python's int() reads it and it
    lies in [lo, hi], and then the answer equals the one for its plain decimal spelling."""
    args = [a.replace("{}", value) for a in template]
    r = contract(invoke(*args))
    n = py_int(value)
    if n is not None and lo <= n <= hi:
        got = json.dumps(bare(answered(r)), sort_keys=True)
        assert got == _canonical(*[a.replace("{}", str(n)) for a in template]), _show(r)
    else:
        refused(r)


U64, IDX = 2**64 - 1, 2**44 - 1
CHEAP_NUMERIC = {
    "deal --seed": (["deal", "--seed={}", "--index=3", "--json"], 0, U64),
    "deal --index": (["deal", "--seed=3", "--index={}", "--json"], 0, IDX),
    "play --seed": (["play", "--seed={}", "--index=0", "--play=heuristic", "--json"], 0, U64),
    "play --index": (["play", "--seed=1", "--index={}", "--play=heuristic", "--json"], 0, IDX),
    "play --elder-score": (["play", "--seed=1", "--index=2", "--elder-score={}", "--json"],
                           0, 4),
    "play --dealer-score": (["play", "--seed=1", "--index=1", "--dealer-score={}", "--json"],
                            0, 4),
    "game --seed": (["game", "--seed={}", "--play=heuristic", "--json"], 0, U64),
    "simulate --seed": (["simulate", "--deals=3", "--seed={}", "--json", "-q"], 0, U64),
    "simulate --start": (["simulate", "--deals=1", "--start={}", "--json", "-q"], 0, IDX),
    "piquet deal --seed": (["piquet", "deal", "--play=random", "--seed={}", "--json"], 0, U64),
    "piquet deal --index": (["piquet", "deal", "--play=random", "--index={}", "--json"],
                            0, IDX),
    "piquet simulate --seed": (["piquet", "simulate", "--deals=3", "--seed={}", "--json",
                                "-q"], 0, U64),
    "piquet partie --seed": (["piquet", "partie", "--parties=1", "--seed={}", "--json", "-q"],
                             0, U64),
    "piquet partie --start": (["piquet", "partie", "--parties=1", "--start={}", "--json",
                               "-q"], 0, 2**41 - 1),
}


@pytest.mark.parametrize("option", list(CHEAP_NUMERIC))
@pytest.mark.parametrize("value", NUMBER_CORPUS, ids=lambda v: repr(v)[:20])
def test_number_corpus_on_cheap_commands(option, value):
    template, lo, hi = CHEAP_NUMERIC[option]
    _numeric_case(template, value, lo, hi)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(list(CHEAP_NUMERIC)), NUMBER_TEXT)
def test_generated_numbers_on_cheap_commands(option, value):
    template, lo, hi = CHEAP_NUMERIC[option]
    _numeric_case(template, value, lo, hi)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NUMBER_TEXT, NUMBER_TEXT)
def test_generated_score_states(elder, dealer):
    r = contract(invoke("play", "--seed=5", "--index=7", "--play=heuristic", "--json",
                        f"--elder-score={elder}", f"--dealer-score={dealer}"))
    e, d = py_int(elder), py_int(dealer)
    if e is not None and d is not None and 0 <= e <= 4 and 0 <= d <= 4:
        obj = answered(r)
        assert obj["score_before"] == {"elder": e, "dealer": d}
    else:
        refused(r)


#: Values no integer option may accept (int() fails, or far outside every range).
BAD_INTS = ["-1", "99999999999999999999999999", "1e9", "nan", "inf", "0x10", "1.5", "",
            " ", "\x00", "1\x00", "K" * 100_000, "1\n2", "\u202e12", "--1"]

HEAVY = {   # commands that would run long on a valid value: only refusals are tested
    "scores": (["scores", "-q", "--json", "--bootstrap=0", "--play=heuristic"],
               ["--deals", "--seed", "--bootstrap", "--threads", "--worlds"]),
    "hand": (["hand", "-t", "H", "-q", "--json", "--play=heuristic", "--deals=100", "--",
              ELDER], ["--seed", "--deals", "--max-deals", "--threads", "--worlds",
                       "--threshold", "--max-proposals"]),
    "claims": (["claims", "-q", "--json", "--play=heuristic", "--deals=100"],
               ["--seed", "--deals", "--max-deals", "--worlds", "--threads"]),
    "bench": (["bench", "--json", "--no-startup", "--deals=1000", "--reference-deals=10",
               "--pimc-deals=100", "--web-games=2", "--web-finished=0"],
              ["--deals", "--reference-deals", "--pimc-deals", "--seed", "--threads"]),
    "simulate": (["simulate", "-q", "--json", "--deals=3"],
                 ["--deals", "--chunk", "--threads", "--task-size", "--worlds",
                  "--threshold", "--max-proposals"]),
    "play": (["play", "--seed=1", "--index=0", "--json", "--play=pimc"], ["--worlds"]),
    "game": (["game", "--seed=1", "--json"], ["--game", "--worlds"]),
    "piquet deal": (["piquet", "deal", "--json"], ["--worlds", "--elder-take",
                                                    "--younger-take"]),
    "piquet simulate": (["piquet", "simulate", "--deals=3", "-q", "--json"],
                        ["--deals", "--chunk", "--threads", "--task-size", "--worlds",
                         "--elder-take", "--younger-take"]),
    "piquet partie": (["piquet", "partie", "--parties=1", "-q", "--json"],
                      ["--parties", "--chunk", "--threads", "--task-size", "--worlds"]),
    "piquet report": (["piquet", "report", "-q", "--json", "--deals=1000", "--dd-deals=0",
                       "--pimc-deals=0", "--paired-deals=1000", "--parties=100",
                       "--search-deals=0"],
                      ["--seed", "--deals", "--dd-deals", "--pimc-deals", "--paired-deals",
                       "--parties", "--search-deals", "--threads"]),
}


@pytest.mark.parametrize("command, option", [(c, o) for c, (_, opts) in HEAVY.items()
                                             for o in opts])
def test_bad_integers_on_every_count_option(command, option):
    base = HEAVY[command][0]
    for value in BAD_INTS:
        # the option goes before a '--' that ends the options (hand's HAND follows it)
        args = list(base)
        at = args.index("--") if "--" in args else len(args)
        args.insert(at, f"{option}={value}")
        line = refused(invoke(*args))
        assert option in line, (option, value, line)


@pytest.mark.quick
@pytest.mark.parametrize("command", ["simulate", "scores", "hand", "claims", "bench",
                                     "piquet simulate", "piquet partie", "piquet report"])
def test_threads_out_of_range(command):
    base = list(HEAVY[command][0])
    at = base.index("--") if "--" in base else len(base)
    for value in ("0", "-1", str(numba.config.NUMBA_NUM_THREADS + 1), str(2**70)):
        line = refused(invoke(*base[:at], f"--threads={value}", *base[at:]))
        assert "--threads" in line


@pytest.mark.parametrize("command", ["hand", "claims"])
@pytest.mark.parametrize("value", ["nan", "NaN", "-nan", "inf", "-inf", "0", "-1", "1e9",
                                   "0.6", "1e-6", "", "\x00", "0x10", "5%"])
def test_bad_precision_is_refused(command, value):
    """--precision must lie in [1e-5, 0.5]: NaN compares false with both bounds, and a NaN
    target is never reached, so the run goes on to its deal cap (bounded here by
    --max-deals 1000 so that a wrong acceptance fails fast instead of hanging)."""
    base = {"hand": ["hand", "-t", "H", "-q", "--json", "--play=heuristic",
                     "--max-deals=1000", f"--precision={value}", "--", ELDER],
            "claims": ["claims", "-q", "--json", "--play=heuristic", "--max-deals=1000",
                       f"--precision={value}"]}[command]
    line = refused(invoke(*base))
    assert "--precision" in line


# --------------------------------------------------------------------------- --out

OUT_COMMANDS = {
    "scores": (["scores", "--deals=1000", "--bootstrap=0", "--play=heuristic", "-q",
                "--json"], "scores.png"),
    "claims": (["claims", "--deals=100", "--play=heuristic", "-q", "--json"], "game_win.png"),
    "piquet report": (["piquet", "report", "--deals=1000", "--dd-deals=0", "--pimc-deals=0",
                       "--paired-deals=1000", "--parties=100", "--search-deals=0", "-q", "--json"],
                      "totals.png"),
}


@pytest.mark.parametrize("command", list(OUT_COMMANDS))
@pytest.mark.parametrize("kind", ["file", "below-a-file", "proc", "nul", "empty"])
def test_out_that_cannot_be_a_directory(tmp_path, command, kind):
    afile = tmp_path / "afile"
    afile.write_bytes(b"keep me")
    out = {"file": str(afile), "below-a-file": str(afile / "sub"), "proc": "/proc/no-such-dir",
           "nul": str(tmp_path / "o\x00ut"), "empty": ""}[kind]
    before = sorted(p.name for p in tmp_path.iterdir())
    refused(invoke(*OUT_COMMANDS[command][0], f"--out={out}"))
    assert afile.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("command", list(OUT_COMMANDS))
def test_out_with_a_directory_in_place_of_a_report_file(tmp_path, command):
    """A report file's name already taken by a directory: the write must fail cleanly
    (exit 2, one line) and leave no temporary file behind."""
    args, name = OUT_COMMANDS[command]
    out = tmp_path / "out"
    (out / name).mkdir(parents=True)
    r = invoke(*args, f"--out={out}")
    refused(r)
    assert leftovers(out) == [], leftovers(out)


@pytest.mark.parametrize("command", list(OUT_COMMANDS))
def test_a_refused_command_creates_no_out_directory(tmp_path, command):
    out = tmp_path / "new" / "out"
    refused(invoke(*OUT_COMMANDS[command][0], "--threads=0", f"--out={out}"))
    assert not (tmp_path / "new").exists(), sorted(map(str, tmp_path.rglob("*")))


def test_scores_out_writes_complete_files_only(tmp_path):
    out = tmp_path / "out"
    obj = answered(invoke(*OUT_COMMANDS["scores"][0], f"--out={out}"))
    names = {p.name for p in out.iterdir()}
    assert {Path(f).name for f in obj["files"]} <= names
    assert {"scores.csv", "scores.md", "scores.png"} <= names
    assert all((out / n).stat().st_size > 0 for n in names)
    assert leftovers(out) == []
    assert (out / "scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- --run-dir

RUN_COMMANDS = {
    "simulate": ["simulate", "--deals=5", "--task-size=2", "--json", "-q"],
    "piquet simulate": ["piquet", "simulate", "--deals=5", "--task-size=2", "--json", "-q"],
    "piquet partie": ["piquet", "partie", "--parties=5", "--task-size=2", "--json", "-q"],
}


def _corrupt(run: Path, kind: str) -> None:
    manifest = run / "manifest.json"
    # the task of deals [2, 4): task-2-4.npy, or task-<identity>-2-4.npy
    tasks = [p for p in run.iterdir() if p.name.startswith("task-")
             and p.name.endswith("-2-4.npy")]
    assert len(tasks) == 1, sorted(p.name for p in run.iterdir())
    task = tasks[0]
    if kind.startswith("manifest-"):
        manifest.unlink()
        if kind == "manifest-dir":
            manifest.mkdir()
        else:
            manifest.write_bytes({"manifest-list": b"[]", "manifest-null": b"null",
                                  "manifest-number": b"42", "manifest-string": b'"x"',
                                  "manifest-empty": b"", "manifest-binary": b"\xff\xfe\x00",
                                  "manifest-object": b"{}",
                                  "manifest-nan": b'{"seed": NaN}'}[kind])
    elif kind == "task-dir":
        task.unlink()
        task.mkdir()
    elif kind == "task-empty":
        task.write_bytes(b"")
    elif kind == "task-truncated":
        task.write_bytes(task.read_bytes()[:100])
    elif kind == "task-garbage":
        task.write_bytes(b"garbage\n")
    elif kind == "task-wrong-shape":
        np.save(task, np.zeros(3, dtype=np.int64))
    elif kind == "task-float":
        np.save(task, np.zeros(np.load(task).shape, dtype=np.float64))
    elif kind == "stray-tmp":
        task.with_name(task.name.replace("-2-4.", "-4-5.") + ".tmp99").write_bytes(b"half")
    elif kind == "task-missing":
        task.unlink()
    else:
        raise AssertionError(kind)


CORRUPTIONS = ["manifest-list", "manifest-null", "manifest-number", "manifest-string",
               "manifest-empty", "manifest-binary", "manifest-object", "manifest-nan",
               "manifest-dir", "task-dir", "task-empty", "task-truncated", "task-garbage",
               "task-wrong-shape", "task-float", "stray-tmp", "task-missing"]


@pytest.mark.parametrize("command", list(RUN_COMMANDS))
@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_resume_a_damaged_run_directory(tmp_path, command, kind):
    """--resume over a damaged run: the uninterrupted answer, or a one-line refusal; and
    no temporary file left in the run directory."""
    args = RUN_COMMANDS[command]
    plain = bare(answered(invoke(*args)))
    run = tmp_path / "run"
    assert bare(answered(invoke(*args, f"--run-dir={run}"))) == plain
    _corrupt(run, kind)
    r = contract(invoke(*args, f"--run-dir={run}", "--resume"))
    if r.code == 0:
        assert bare(answered(r)) == plain
    else:
        refused(r)
    assert leftovers(run) == [], leftovers(run)


@pytest.mark.parametrize("command", list(RUN_COMMANDS))
@pytest.mark.parametrize("kind", ["file", "below-a-file", "proc", "nul", "not-empty",
                                  "resume-missing", "resume-without-run-dir",
                                  "resume-other-seed"])
def test_bad_run_directories(tmp_path, command, kind):
    args = RUN_COMMANDS[command]
    afile = tmp_path / "afile"
    afile.write_bytes(b"keep me")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    extra = {"file": [f"--run-dir={afile}"], "below-a-file": [f"--run-dir={afile}/run"],
             "proc": ["--run-dir=/proc/no-such-run"],
             "nul": [f"--run-dir={tmp_path}/r\x00un"], "not-empty": [f"--run-dir={busy}"],
             "resume-missing": [f"--run-dir={tmp_path}/none", "--resume"],
             "resume-without-run-dir": ["--resume"],
             "resume-other-seed": [f"--run-dir={tmp_path}/r", "--resume", "--seed=9"]}[kind]
    if kind == "resume-other-seed":
        answered(invoke(*args, f"--run-dir={tmp_path}/r"))
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    refused(invoke(*args, *extra))
    assert afile.read_bytes() == b"keep me" and (busy / "notes.txt").read_text() == "mine"
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


# --------------------------------------------------------------------------- end to end

def _spawn(args: list, stdin: bytes = b"", cpu_seconds: int = 600,
           cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m ecarte_sim.apps.cli ARGS`` in a child process killed once it has
    used ``cpu_seconds`` of CPU time (its numba compilation included): a hang detector that
    does not depend on the machine's load."""
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    return subprocess.run([sys.executable, "-m", "ecarte_sim.apps.cli", *args], input=stdin,
                          capture_output=True, timeout=BLOCKED, env=env, cwd=cwd,
                          preexec_fn=cpu_limit(cpu_seconds), check=False)


def _one_error_line(p: subprocess.CompletedProcess) -> None:
    shown = f"code={p.returncode} stderr={p.stderr[-1500:]!r}"
    assert b"Traceback" not in p.stdout + p.stderr, shown
    assert p.returncode == 2, shown
    assert p.stderr.startswith(b"Error: ") and len(p.stderr.splitlines()) == 1, shown


def test_e2e_hostile_argv():
    for argv in (["solve", "--trump", "Ｋ♠", ELDER, DEALER],
                 ["solve", "--trump", "H", "\u202e" + ELDER, DEALER],
                 ["classify", "--trump", "H", "QH\nAH\n7H\nKS\nКD"],
                 ["deal", "--seed", "99999999999999999999999999", "--index", "0"],
                 ["piquet", "deal", "--elder", "A" * 100_000, "--younger", P_YOUNGER,
                  "--talon", P_TALON]):
        p = _spawn(argv)
        _one_error_line(p)
        assert p.stdout == b""


def test_e2e_hostile_batch_file_and_stdin(tmp_path):
    data = (GOOD_LINE + b"\r\n" + BINARY + b"\r\n" + b"\xc3\x28\n" + b"\x00\n\n"
            + b"K" * 100_000 + b"\n")
    path = tmp_path / "deals.txt"
    path.write_bytes(data)
    for p in (_spawn(["solve", "--batch", str(path)]),
              _spawn(["solve", "--batch", "-"], stdin=data)):
        _one_error_line(p)
        objs = [json.loads(line) for line in p.stdout.decode().splitlines()]
        assert [o["line"] for o in objs] == [1, 2, 3, 4, 6]
        assert {k: v for k, v in bare(objs[0]).items() if k != "line"} == EXAMPLE


def test_e2e_resume_with_a_manifest_that_is_not_an_object(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text("[]")
    _one_error_line(_spawn(["simulate", "--deals", "5", "--run-dir", str(run), "--resume",
                            "--json", "-q"]))


def test_e2e_scores_out_collision_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "out"
    (out / "scores.png").mkdir(parents=True)
    p = _spawn(["scores", "--deals", "1000", "--bootstrap", "0", "--play", "heuristic",
                "-q", "--json", "--out", str(out)])
    _one_error_line(p)
    assert leftovers(out) == []


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["hand", ELDER, "--trump", "H", "--precision", "nan", "-q", "--json"],
    ["claims", "--precision", "nan", "--play", "dd", "-q", "--json"],
])
def test_e2e_nan_precision_is_refused_at_once(argv):
    """Without a --max-deals cap a NaN precision runs to the default cap (2^24/2^25 deals):
    it must be refused before any deal is played."""
    p = _spawn(argv, cpu_seconds=60)
    assert p.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), \
        f"{argv} still running after 60 s of CPU time"
    _one_error_line(p)


# --------------------------------------------------------------------------- the watchdog

def _burn(cpu_seconds: float) -> None:
    end = time.process_time() + cpu_seconds
    while time.process_time() < end:
        pass


@pytest.mark.quick
def test_the_watchdog_counts_cpu_time_outside_compilation_only():
    """A call that spins past its CPU budget is a hang; CPU time spent inside numba's
    compilation (its compile event) is not counted, and the watchdog never raises inside
    one — it raises once the compilation is over if the budget was spent before it."""
    from numba.core import event

    with pytest.raises(Hang):
        with _watchdog(0.2):
            _burn(2.0)
    with _watchdog(0.2):
        with event.trigger_event("numba:compile", data={"dispatcher": None}):
            _burn(0.6)                 # three budgets, compiling: not a hang
        _burn(0.05)
    with pytest.raises(Hang):
        with _watchdog(0.2):
            _burn(0.15)
            with event.trigger_event("numba:compile", data={"dispatcher": None}):
                _burn(0.1)
            _burn(0.2)                 # the rest of the budget is used after it
