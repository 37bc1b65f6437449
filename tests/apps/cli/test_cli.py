"""The ``ecarte-sim`` command line (apps/cli.py): contracts and hostile input.

Almost everything runs in-process through ``apps.cli.run`` (the console
entry point), catching ``SystemExit`` (the ``cli`` fixture of conftest.py); a few
subprocess tests prove the same end to end. The rule for every bad input: exit code 2,
nothing on stdout, exactly one line on stderr starting with ``Error:``, never a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numba
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecarte_sim.apps.bench.throughput import PAIRED_RUNS
from ecarte_sim.engine.cards import cards_of, format_card, parse_hand
from helpers import BLOCKED, Run, json_only, names, one_line_error

ELDER = "QH AH 7H KS KD"
DEALER = "KH JH 9H 8H 9C"
EXAMPLE = {"elder_tricks": 2, "moves": {"KS": 2, "QH": 1, "AH": 1, "7H": 1, "KD": 2}}

ALL_CARDS = {r + s for r in "789TAJQK" for s in "SHDC"}

# The cli fixture (capsys) is function-scoped but drained before every call, so sharing it is safe.
FIXTURE_OK = settings(max_examples=120, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture,
                                             HealthCheck.too_slow])


# --------------------------------------------------------------------------- helpers

def solve_json(cli, elder: str, dealer: str, trump: str, *extra: str) -> dict:
    return json_only(cli("solve", "--json", f"--trump={trump}", *extra, "--", elder, dealer))


def check_solution(obj: dict, elder_text: str) -> None:
    assert set(obj) == {"elder_tricks", "moves"}
    moves = obj["moves"]
    # keys: the elder's cards, canonical ASCII (T for ten), canonical order
    assert list(moves) == [format_card(c) for c in cards_of(int(parse_hand(elder_text)))]
    assert all(type(v) is int and 0 <= v <= 5 for v in moves.values())
    assert type(obj["elder_tricks"]) is int
    assert obj["elder_tricks"] == max(moves.values())


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


# --------------------------------------------------------------------------- help / misc

@pytest.mark.quick
@pytest.mark.parametrize("args", [["--help"], ["-h"], ["solve", "--help"], ["deal", "--help"],
                                  ["simulate", "--help"], ["bench", "--help"], ["solve", "-h"],
                                  ["classify", "--help"], ["play", "--help"],
                                  ["game", "--help"], ["scores", "--help"]])
def test_every_command_has_help(cli, args):
    r = cli(*args)
    assert r.code == 0 and r.err == ""
    assert r.out.startswith("Usage: ecarte-sim")


# --------------------------------------------------------------------------- lazy start-up

#: What a command's start-up should not pay for unless it computes something.
HEAVY = ("numba", "numpy", "pandas", "scipy", "matplotlib")


def _fresh_run(*args: str) -> subprocess.CompletedProcess:
    """``run(ARGS)`` in a new interpreter; its stderr ends with a line naming the heavy
    libraries and the command modules it had imported."""
    code = ("import sys\nfrom ecarte_sim.apps.cli import run\n"
            f"code = 0\ntry:\n    run({list(args)!r})\nexcept SystemExit as exc:\n"
            "    code = exc.code\n"
            f"print('loaded:', *[m for m in {HEAVY!r} if m in sys.modules], "
            "*sorted(m.rsplit('.', 1)[1] for m in sys.modules "
            "if m.startswith('ecarte_sim.apps.cli.')), file=sys.stderr)\n"
            "sys.exit(code)")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=BLOCKED)


def _loaded(r: subprocess.CompletedProcess) -> set[str]:
    last = r.stderr.splitlines()[-1]
    assert last.startswith("loaded:"), r.stderr
    return set(last.split()[1:])


def test_help_lists_every_command_without_numpy_or_numba():
    """``ecarte-sim --help`` imports every command's module for its short help, and no
    command module imports numpy, numba, pandas or matplotlib at its top."""
    from ecarte_sim.apps.cli import COMMANDS
    r = _fresh_run("--help")
    assert r.returncode == 0 and len(r.stderr.splitlines()) == 1, r.stderr
    loaded = _loaded(r)
    assert not loaded & set(HEAVY), loaded
    listed = r.stdout.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted(COMMANDS)
    assert all(len(line.split()) > 1 for line in listed)      # each with its short help
    assert {"piquet", "piquet_search"}.isdisjoint(loaded)       # the group alone


def test_a_command_loads_its_own_module_only():
    r = _fresh_run("advise", "--help")
    assert r.returncode == 0 and r.stdout.startswith("Usage: ecarte-sim advise")
    assert _loaded(r) == {"common", "strategy"}
    r = _fresh_run("piquet", "--help")
    assert r.returncode == 0 and "discard-search" in r.stdout
    assert {"piquet_group", "piquet", "piquet_search"} <= _loaded(r)


def test_advise_from_the_table_loads_no_numba():
    """``advise --no-values`` reads the shipped table: numpy for the data, no kernels."""
    r = _fresh_run("advise", "KS JC 9H 7S KC", "--trump", "TC", "--score", "2-4",
                   "--no-values")
    assert r.returncode == 0 and r.stdout.startswith("KS 7S 9H KC JC (elder)"), r.stderr
    loaded = _loaded(r)
    assert "numpy" in loaded and not loaded & {"numba", "pandas", "scipy", "matplotlib"}


@pytest.mark.parametrize("args, hint", [(["adv"], "Did you mean 'advise'?"),
                                        (["piquet", "dael"], "Did you mean 'deal'?")])
def test_a_misspelt_command_is_suggested_before_any_is_loaded(args, hint):
    r = _fresh_run(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"Error: No such command '{args[-1]}'. {hint}")


def test_the_command_map_names_each_command_where_it_is_defined():
    """:data:`COMMANDS` (and the piquet group's) against the modules' own ``COMMANDS``:
    every command of every module is named, under its module, and nothing else."""
    import importlib
    import pkgutil

    import ecarte_sim.apps.cli as package
    from ecarte_sim.apps.cli import COMMANDS
    from ecarte_sim.apps.cli.piquet_group import PIQUET_COMMANDS
    where = [(name, module) for table in (COMMANDS, PIQUET_COMMANDS)
             for name, module in table.items()]
    defined = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name == "__main__":         # runs the command line
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        defined += [(c.name, info.name) for c in getattr(module, "COMMANDS", ())]
    assert sorted(where) == sorted(defined)


@pytest.mark.quick
def test_version(cli):
    r = cli("--version")
    assert r.code == 0 and "ecarte-sim" in r.out


@pytest.mark.quick
@pytest.mark.parametrize("args, token", [
    ([], None),                                   # no command at all
    (["nosuch"], "nosuch"),
    (["solve", "--nosuch"], "--nosuch"),
    (["solve", ELDER, DEALER, "-t", "H", "extra"], "extra"),
    (["solve", ELDER, DEALER, "-t", "H", "a\nb"], "a\nb"),
    (["solve", ELDER, DEALER, "-t", "H", "x\u2028y"], "x\u2028y"),
    (["deal", "--seed", "1", "--index", "0", "--bogus\nopt"], "--bogus\nopt"),
    (["sol\rve"], "sol\rve"),
    (["deal"], None),
    (["solve", "--trump"], None),
])
def test_usage_errors_are_one_line(cli, args, token):
    line = one_line_error(cli(*args))
    if token is not None:
        assert names(line, token), line


@pytest.mark.quick
@pytest.mark.parametrize("args, says", [
    (["simulate", "--deals", "1e6"], "'1e6' is not written as a whole number: write 1000000"),
    (["scores", "--deals", "2.5e3"], "'2.5e3' is not written as a whole number: write 2500"),
    (["simulate", "--deals", "1.5"], "'1.5' is not a whole number: write one in digits, e.g. 1 "
                                     "(1<=x<="),
    (["play", "--seed", "1", "--index", "2", "--threshold", "1e3"],
     "'1e3' is not written as a whole number, and it is out of range: write one in digits, "
     "e.g. 8 (0<=x<=100)"),
    (["simulate", "--deals", "10", "--threads", "two"], "'two' is not a whole number: write "
                                                        "one in digits"),
    (["hand", ELDER, "--trump", "H", "--precision", "abc"],
     "'abc' is not a number: write one in digits, e.g. 0.005 (1e-05<=x<=0.5)"),
])
def test_a_number_that_cannot_be_read_says_what_to_write(cli, args, says):
    """Not click's "'1e6' is not a valid integer range", which names a type: the mistake,
    and what to write instead."""
    line = one_line_error(cli(*args))
    assert says in line, line
    assert "not a valid" not in line


@pytest.mark.quick
@pytest.mark.parametrize("command", [["hand", ELDER, "--trump", "H"], ["claims"]])
@pytest.mark.parametrize("precision", ["0.01", "0.005"])       # the default, written out too
def test_deals_and_precision_exclude_each_other(cli, command, precision):
    """--deals N runs exactly N deals: a --precision given with it was ignored in silence."""
    line = one_line_error(cli(*command, "--deals", "100", "--precision", precision))
    assert "--deals and --precision exclude each other" in line, line


# --------------------------------------------------------------------------- solve

@pytest.mark.quick
def test_solve_seed_example(cli):
    obj = solve_json(cli, ELDER, DEALER, "TH")
    assert obj == EXAMPLE
    check_solution(obj, ELDER)
    # the documented spelling, options before the arguments
    r = cli("solve", ELDER, DEALER, "--trump", "TH", "--json")
    assert json_only(r) == EXAMPLE


@pytest.mark.parametrize("trump", ["TH", "10H", "th", "10♥", "H", "h", "♥", "♡", "hearts",
                                   "HEARTS", "  Hearts ", "\tH\n", "7D", "Q♦", "JC", "8S"])
def test_solve_trump_spellings_agree(cli, trump):
    expected = solve_json(cli, ELDER, DEALER, {"7D": "D", "Q♦": "D", "JC": "C",
                                                  "8S": "S"}.get(trump, "H"))
    assert solve_json(cli, ELDER, DEALER, trump) == expected


@pytest.mark.parametrize("elder, dealer", [
    ("qh ah 7h ks kd", "kh jh 9h 8h 9c"),
    ("QH,AH,7H,KS,KD", "KH, JH, 9H, 8H, 9C"),
    ("Q♥ A♥ 7♥ K♠ K♦", "K♡ J♡ 9♡ 8♡ 9♧"),
    ("  KD KS 7H AH QH  ", "9C\t8H\t9H\tJH\tKH"),
])
def test_solve_hand_notations_agree(cli, elder, dealer):
    assert solve_json(cli, elder, dealer, "TH") == EXAMPLE


def test_solve_text_output_matches_json(cli):
    r = cli("solve", ELDER, DEALER, "-t", "TH")
    assert r.code == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0].startswith("elder takes 2 tricks")
    leads = {ln.split()[1]: int(ln.split()[-1]) for ln in lines[1:]}
    assert leads == EXAMPLE["moves"]


def test_solve_forced_trump_variant_is_a_valid_solution(cli):
    obj = solve_json(cli, ELDER, DEALER, "TH", "--no-forced-trump")
    check_solution(obj, ELDER)


def test_solve_agrees_with_the_independent_reference(cli):
    """deal JSON -> solve JSON, checked against the plain-Python reference."""
    from ecarte_sim.engine.ecarte import reference
    for index in range(6):
        d = json_only(cli("deal", "--seed", "2024", "--index", str(index), "--json"))
        obj = solve_json(cli, d["elder"], d["dealer"], d["turn_up"])
        check_solution(obj, d["elder"])
        ref = reference.deal(2024, index)
        want = reference.move_values(ref.elder, ref.dealer, ref.turn_up >> 3)
        assert obj["moves"] == {format_card(c): v for c, v in want.items()}


NASTY_HANDS = [
    ("   ", "elder"), ("\t\n", "elder"),
    ("K" * 100_000, "K" * 100_000),
    ("KS " * 40_000, "KS"),
    ("QH AH 7H KS КD", "КD"),          # Cyrillic Ka
    ("ＱH AH 7H KS KD", "ＱH"),         # fullwidth Q
    ("QH AH 7H KS KＤ", "KＤ"),
    ("QH AH 7H KS KD\x00", "KD\x00"),
    ("QH\u200bAH 7H KS KD", "QH\u200bAH"),
    ("\ufeffQH AH 7H KS KD", "\ufeffQH"),
    ("QH AH 7H KS K\u0306D", "K\u0306D"),
    ("QH AH 7H KS", "QH AH 7H KS"),    # 4 cards
    ("QH AH 7H KS KD 8D", "QH AH 7H KS KD 8D"),
    ("QH QH 7H KS KD", "QH"),
    ("QH qh 7H KS KD", "qh"),
    ("QH AH 7H KS 11D", "11D"),
    ("QH AH 7H KS 1.5", "1.5"),
    ("QH AH 7H KS -1", "-1"),
    ("QH AH 7H KS " + str(2**70), str(2**70)),
    ("QH AH 7H KS KH", "KH"),          # KH is also in the dealer's hand
    ("QH AH 7H KS 0", "0"),
    ("QH|AH 7H KS KD", "QH|AH"),
]


@pytest.mark.parametrize("elder, token", NASTY_HANDS, ids=lambda v: repr(v)[:30])
def test_solve_nasty_elder_hand(cli, elder, token):
    line = one_line_error(cli("solve", "--trump", "S", "--", elder, DEALER))
    if token != "elder":
        assert names(line, token), line[:300]
    else:
        assert "elder" in line


@pytest.mark.parametrize("dealer, token", [
    ("KH JH 9H 8H QH", "QH"),          # QH is the elder's
    ("KH JH 9H 8H", "KH JH 9H 8H"),
    ("KH JH 9H 8H 9Ｃ", "9Ｃ"),
    ("", None), (" ", None),
])
def test_solve_nasty_dealer_hand(cli, dealer, token):
    line = one_line_error(cli("solve", "-t", "S", "--", ELDER, dealer))
    if token:
        assert names(line, token), line


@pytest.mark.quick
@pytest.mark.parametrize("trump, token", [
    ("", None), ("   ", None), ("\x00", "\x00"), ("К", "К"), ("Ｈ", "Ｈ"), ("Ｔ♥", "Ｔ♥"),
    ("QH", "QH"), ("KH", "KH"),        # the turn-up must be in neither hand
    ("TH TH", "TH TH"), ("H H", "H H"), ("hearts!", "hearts!"), ("10", "10"),
    ("X" * 100_000, "X" * 100_000), ("\u200bH", "\u200bH"), ("H\x00", "H\x00"),
    ("-1", "-1"), (str(2**70), str(2**70)), ("1.5", "1.5"), ("TH\nKS", "TH\nKS"),
])
def test_solve_nasty_trump(cli, trump, token):
    line = one_line_error(cli("solve", ELDER, DEALER, "--trump", trump))
    if token:
        assert names(line, token), line[:300]


@pytest.mark.parametrize("args", [
    ["solve"], ["solve", ELDER], ["solve", ELDER, DEALER], ["solve", "", "", "-t", "H"],
    ["solve", "--trump", "H"],
    ["solve", "-1", DEALER, "-t", "H"],
    ["solve", "--batch"],
])
def test_solve_missing_or_misplaced_arguments(cli, args):
    one_line_error(cli(*args))


@pytest.mark.parametrize("elder, trump", [(ELDER.replace("KS", "Kſ"), "TH"), (ELDER, "ſ")])
def test_solve_long_s_lookalike_is_rejected(cli, elder, trump):
    one_line_error(cli("solve", "--trump", trump, "--", elder, DEALER))


# ---- hypothesis: hands and trumps as text, checked against an independent strict parser

_RANKS = {"7": 0, "8": 1, "9": 2, "10": 3, "T": 3, "t": 3, "A": 4, "a": 4, "J": 5, "j": 5,
          "Q": 6, "q": 6, "K": 7, "k": 7}
_SUITS = {"S": 0, "s": 0, "♠": 0, "♤": 0, "H": 1, "h": 1, "♥": 1, "♡": 1,
          "D": 2, "d": 2, "♦": 2, "♢": 2, "C": 3, "c": 3, "♣": 3, "♧": 3}
_NAMES = ("spades", "hearts", "diamonds", "clubs")


def _ref_card(token: str) -> int | None:
    if 2 <= len(token) <= 3 and token[:-1] in _RANKS and token[-1] in _SUITS:
        return _SUITS[token[-1]] * 8 + _RANKS[token[:-1]]
    return None


def _ref_hand(text: str) -> int | None:
    mask, tokens = 0, text.replace(",", " ").split()
    for token in tokens:
        card = _ref_card(token)
        if card is None or mask >> card & 1:
            return None
        mask |= 1 << card
    return mask if len(tokens) == 5 else None


def ref_deal(elder: str, dealer: str, trump: str) -> tuple[int, int, int] | None:
    """(elder, dealer, trump suit) or None: ASCII/suit-symbol notation only."""
    e, d = _ref_hand(elder), _ref_hand(dealer)
    if e is None or d is None or e & d:
        return None
    t = trump.strip()
    if t in _SUITS:
        return e, d, _SUITS[t]
    if t.isascii() and t.lower() in _NAMES:
        return e, d, _NAMES.index(t.lower())
    card = _ref_card(t)
    if card is None or (e | d) >> card & 1:
        return None
    return e, d, card >> 3


# Look-alikes and control characters (U+017F, long s, has its own test above).
NASTY_ALPHABET = ("KQJAT7891０SHDCshdckqjat♠♥♦♣♤♡♢♧КＱＳＨНСАЅΚΑ１K\x00\u200b\ufeff"
                  "|#,-'\" \t\n\u00a0\u3000\u2028ßﬅ")


@st.composite
def card_token(draw, card: int) -> str:
    rank = "789TAJQK"[card & 7]
    if rank == "T":
        rank = draw(st.sampled_from(["T", "t", "10"]))
    elif draw(st.booleans()):
        rank = rank.lower()
    suit = draw(st.sampled_from([ "SHDC"[card >> 3], "shdc"[card >> 3], "♠♥♦♣"[card >> 3],
                                  "♤♡♢♧"[card >> 3]]))
    return rank + suit


SEPARATORS = st.sampled_from([" ", "  ", ",", ", ", "\t", " ,", "\u00a0", "\n"])


@st.composite
def hand_text(draw, cards: list[int], other: list[int]) -> str:
    tokens = [draw(card_token(c)) for c in cards]
    mutation = draw(st.sampled_from(["none"] * 12 + ["garbage", "drop", "extra", "dup",
                                                     "clash", "empty"]))
    if mutation == "garbage":
        tokens[draw(st.integers(0, 4))] = draw(st.text(NASTY_ALPHABET, max_size=5))
    elif mutation == "drop":
        tokens.pop(draw(st.integers(0, 4)))
    elif mutation == "extra":
        tokens.append(draw(card_token(draw(st.integers(0, 31)))))
    elif mutation == "dup":
        tokens[0] = draw(card_token(cards[1]))
    elif mutation == "clash":
        tokens[draw(st.integers(0, 4))] = draw(card_token(other[draw(st.integers(0, 4))]))
    elif mutation == "empty":
        tokens = []
    text = ""
    for token in tokens:
        text += token + draw(SEPARATORS)
    return draw(st.sampled_from(["", " ", "\t"])) + text


@st.composite
def suit_text(draw, suit: int) -> str:
    form = draw(st.sampled_from(["letter", "symbol", "name"]))
    if form == "letter":
        text = draw(st.sampled_from(["SHDC"[suit], "shdc"[suit]]))
    elif form == "symbol":
        text = draw(st.sampled_from(["♠♥♦♣"[suit], "♤♡♢♧"[suit]]))
    else:
        name = _NAMES[suit]
        flips = draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
        text = "".join(c.upper() if f else c for c, f in zip(name, flips))
    return draw(st.sampled_from(["", " "])) + text + draw(st.sampled_from(["", " ", "\n"]))


@st.composite
def deal_texts(draw) -> tuple[str, str, str]:
    perm = draw(st.permutations(range(32)))
    elder, dealer, turn_up = perm[:5], perm[5:10], perm[10]
    trump = draw(st.one_of(
        suit_text(draw(st.integers(0, 3))),
        card_token(turn_up),
        suit_text(draw(st.integers(0, 3))),
        card_token(turn_up),
        card_token(draw(st.sampled_from(elder + dealer))),   # turn-up in a hand: error
        st.text(NASTY_ALPHABET, max_size=8),
    ))
    return (draw(hand_text(elder, dealer)), draw(hand_text(dealer, elder)), trump)


def _check_against_reference(result: dict | None, error: str | None, texts) -> None:
    from ecarte_sim.engine.ecarte.search.solver import move_values

    expected = ref_deal(*texts)
    if expected is None:
        assert error is not None, (texts, result)
        return
    assert error is None, (texts, error)
    elder, dealer, suit = expected
    values = move_values(elder, dealer, suit)
    assert result == {"elder_tricks": max(values.values()),
                      "moves": {format_card(c): values[c] for c in cards_of(elder)}}


@FIXTURE_OK
@given(deal_texts())
def test_solve_text_is_answered_correctly_or_refused_cleanly(cli, texts):
    elder, dealer, trump = texts
    r = cli("solve", "--json", f"--trump={trump}", "--", elder, dealer)
    if r.code == 0:
        _check_against_reference(json_only(r), None, texts)
    else:
        _check_against_reference(None, one_line_error(r), texts)


@FIXTURE_OK
@given(st.text(max_size=30), st.text(max_size=30), st.text(max_size=10))
def test_solve_arbitrary_unicode_never_crashes(cli, elder, dealer, trump):
    r = cli("solve", "--json", f"--trump={trump}", "--", elder, dealer)
    if r.code == 0:
        check_solution(json_only(r), elder)
    else:
        one_line_error(r)


# --------------------------------------------------------------------------- solve --batch

def _batch(lines: list[bytes]) -> bytes:
    return b"\n".join(lines) + b"\n"


GOOD = f"{ELDER} | {DEALER} | TH".encode()


def test_batch_hostile_file(cli, tmp_path):
    lines = [
        GOOD,                                               # 1
        b"\xff\xfe\x00 binary \x80\xc3(",                   # 2 not UTF-8
        b"A|B|C|D",                                         # 3 too many '|'
        b"# a comment | with | bars | galore",              # 4 skipped
        b"",                                                # 5 skipped
        b"   \t ",                                          # 6 skipped
        f"{ELDER}|{DEALER}|H\r".encode(),                   # 7 CRLF, no spaces
        f"QH AH 7H KS КD | {DEALER} | TH".encode(),         # 8 Cyrillic
        b"K" * 100_000 + b" | x | S",                       # 9 huge
        f"{ELDER} | {DEALER} | QH".encode(),                # 10 turn-up in a hand
        f"{ELDER} | KH JH 9H 8H KS | S".encode(),           # 11 KS in both hands
        f"{ELDER} | {DEALER} | T\x00H".encode(),            # 12 NUL
        f"{ELDER} | {DEALER}".encode(),                     # 13 too few '|'
        f"{ELDER} | {DEALER} | ".encode(),                  # 14 no trump
        "Q♥ A♥ 7♥ K♠ K♦ | K♡ J♡ 9♡ 8♡ 9♧ | ♥".encode(),      # 15 symbols
        f"{ELDER} | {DEALER} | TH | ".encode(),             # 16 trailing '|'
        f"QH AH 7H KS | {DEALER} | TH".encode(),            # 17 four cards
        f"{ELDER} | {DEALER} | X\u2028Y".encode(),          # 18 line separator
        GOOD,                                               # 19 (no final newline)
    ]
    path = tmp_path / "deals.txt"
    path.write_bytes(b"\n".join(lines))
    r = cli("solve", "--batch", str(path))
    assert r.code == 2
    assert "Traceback" not in r.err
    err = r.err.splitlines()
    assert len(err) == 1 and err[0].startswith("Error: "), r.err
    objs = [json.loads(ln) for ln in r.out.splitlines()]
    assert [o["line"] for o in objs] == [1, 2, 3, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                         18, 19]
    by_line = {o.pop("line"): o for o in objs}
    for n in (1, 7, 15, 19):        # TH turned up or hearts named: the same deal
        assert by_line[n] == EXAMPLE, (n, by_line[n])
    expected_tokens = {2: "UTF-8", 3: "A|B|C|D", 8: "КD", 9: "K" * 100, 10: "QH", 11: "KS",
                       12: None, 13: None, 14: None, 16: None, 17: "QH AH 7H KS",
                       18: "X\u2028Y"}
    for n, token in expected_tokens.items():
        assert set(by_line[n]) == {"error"}, (n, by_line[n])
        message = by_line[n]["error"]
        assert isinstance(message, str) and message
        if token:
            assert token in message or names(message, token), (n, message[:200])


def test_batch_stdin_all_good_exit_0(cli):
    data = _batch([b"# header", GOOD, b"", "qh ah 7h ks kd|kh jh 9h 8h 9c|hearts".encode()])
    r = cli("solve", "--batch", "-", stdin=data)
    assert r.code == 0 and r.err == ""
    objs = [json.loads(ln) for ln in r.out.splitlines()]
    assert objs[0] == {"line": 2, **EXAMPLE}
    assert objs[1]["line"] == 4
    check_solution({k: v for k, v in objs[1].items() if k != "line"}, ELDER)


@pytest.mark.parametrize("data", [b"", b"\n\n", b"# only a comment\n", b"   \n# x\n"])
def test_batch_with_no_deal_is_an_error(cli, data, tmp_path):
    """An empty file or stdin (or only blank and comment lines) is not accepted in
    silence: one line naming the source, exit 2 (it printed nothing, exit 0, before)."""
    r = cli("solve", "--batch", "-", stdin=data)
    assert one_line_error(r).startswith("Error: no deal in stdin: it is empty")
    path = tmp_path / "deals.txt"
    path.write_bytes(data)
    r = cli("solve", "--batch", str(path))
    assert one_line_error(r).startswith(f"Error: no deal in {str(path)!r}")


def test_batch_only_bad_lines(cli):
    r = cli("solve", "--batch", "-", stdin=_batch([b"\x00", b"|", b"\xc0\xaf"]))
    assert r.code == 2 and len(r.err.splitlines()) == 1 and r.err.startswith("Error: ")
    assert [json.loads(ln)["line"] for ln in r.out.splitlines()] == [1, 2, 3]
    assert all("error" in json.loads(ln) for ln in r.out.splitlines())


@pytest.mark.parametrize("path", ["/nonexistent/deals.txt", "", "deals\x00.txt", "/"])
def test_batch_bad_path(cli, path):
    one_line_error(cli("solve", "--batch", path))


def test_batch_rejects_single_deal_arguments(cli, tmp_path):
    path = tmp_path / "d.txt"
    path.write_bytes(GOOD)
    one_line_error(cli("solve", "--batch", str(path), ELDER, DEALER))
    one_line_error(cli("solve", "--batch", str(path), "--trump", "H"))


@FIXTURE_OK
@given(st.lists(st.one_of(deal_texts(), st.binary(max_size=20)), min_size=1, max_size=6))
def test_batch_generated_lines(cli, items):
    raw_lines = []
    for item in items:
        if isinstance(item, bytes):
            raw_lines.append(item.replace(b"\n", b" "))
        else:
            raw_lines.append(" | ".join(t.replace("\n", " ") for t in item).encode())
    r = cli("solve", "--batch", "-", stdin=_batch(raw_lines))
    objs = [json.loads(ln) for ln in r.out.splitlines()]
    answered = iter(objs)
    any_bad = False
    for number, raw in enumerate(raw_lines, start=1):
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            text = None
        if text is not None and (not text or text.startswith("#")):
            continue
        obj = next(answered)
        assert obj.pop("line") == number
        fields = text.split("|") if text is not None else []
        if len(fields) != 3:
            assert set(obj) == {"error"}, (raw, obj)
            any_bad = True
            continue
        error = obj.get("error")
        any_bad |= error is not None
        _check_against_reference(None if error else obj, error, fields)
    assert next(answered, None) is None
    any_bad |= not objs                    # no deal at all: refused (one Error line)
    assert r.code == (2 if any_bad else 0)
    assert len(r.err.splitlines()) == (1 if any_bad else 0)


# --------------------------------------------------------------------------- deal

@pytest.mark.quick
def test_deal_json_shape_and_cards(cli):
    obj = json_only(cli("deal", "--seed", "7", "--index", "3", "--json"))
    assert set(obj) == {"elder", "dealer", "turn_up", "stock"}
    elder, dealer, stock = obj["elder"].split(), obj["dealer"].split(), obj["stock"].split()
    assert len(elder) == 5 and len(dealer) == 5 and len(stock) == 21
    cards = elder + dealer + [obj["turn_up"]] + stock
    assert len(cards) == 32 and set(cards) == ALL_CARDS
    # hands are written canonically (suits S H D C, high card first)
    for hand in (obj["elder"], obj["dealer"]):
        assert hand == " ".join(format_card(c) for c in cards_of(int(parse_hand(hand))))


@pytest.mark.parametrize("seed, index", [(0, 0), (1, 1), (2**64 - 1, 2**44 - 1), (12345, 999)])
def test_deal_matches_reference_and_text_form(cli, seed, index):
    from ecarte_sim.engine.ecarte import reference
    obj = json_only(cli("deal", "--seed", str(seed), "--index", str(index), "--json"))
    ref = reference.deal(seed, index)
    assert parse_hand(obj["elder"]) == sum(1 << c for c in ref.elder)
    assert parse_hand(obj["dealer"]) == sum(1 << c for c in ref.dealer)
    assert obj["turn_up"] == format_card(ref.turn_up)
    assert obj["stock"] == " ".join(format_card(c) for c in ref.stock)
    # --pretty does not change the JSON; the text form shows the same deal
    assert json_only(cli("deal", "--seed", str(seed), "--index", str(index), "--json",
                         "--pretty")) == obj
    for pretty in ([], ["--pretty"]):
        r = cli("deal", "--seed", str(seed), "--index", str(index), *pretty)
        assert r.code == 0 and r.err == ""
        shown = {ln.split(":")[0].strip(): ln.split(":", 1)[1] for ln in r.out.splitlines()[1:]}
        assert parse_hand(shown["elder"]) == parse_hand(obj["elder"])
        assert parse_hand(shown["dealer"]) == parse_hand(obj["dealer"])
        assert parse_hand(shown["turn-up"]) == parse_hand(obj["turn_up"])
        assert shown["stock"].split() == [format_card(c, pretty=bool(pretty)) for c in ref.stock]


NASTY_NUMBERS = ["", " ", "-1", "-0x1", "1.5", "1e3", "nan", "inf", "-inf", "0x10", "\x00",
                 "1\x00", "1\n2", "\u200b1", "١٢x", str(2**70), str(-2**70), "9" * 5000,
                 "K", "one", "Ｑ"]


@pytest.mark.parametrize("value", NASTY_NUMBERS + [str(2**64)], ids=repr)
def test_deal_nasty_seed(cli, value):
    line = one_line_error(cli("deal", "--seed", value, "--index", "0", "--json"))
    assert "--seed" in line


@pytest.mark.parametrize("value", NASTY_NUMBERS + [str(2**44)], ids=repr)
def test_deal_nasty_index(cli, value):
    line = one_line_error(cli("deal", "--seed", "0", "--index", value, "--json"))
    assert "--index" in line


@pytest.mark.parametrize("seed, plain", [("０", 0), ("٣", 3), (" 5 ", 5), ("+7", 7),
                                         ("1_0", 10), ("-0", 0)])
def test_deal_lenient_integers_mean_the_same_number(cli, seed, plain):
    """Python's int() accepts these; if the CLI accepts one it must be the same deal."""
    r = cli("deal", "--seed", seed, "--index", "0", "--json")
    if r.code == 0:
        assert json_only(r) == json_only(cli("deal", "--seed", str(plain), "--index",
                                             "0", "--json"))
    else:
        one_line_error(r)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.integers(-2**80, 2**80), st.text(max_size=12)),
       st.one_of(st.integers(-2**50, 2**50), st.text(max_size=12)))
def test_deal_generated_numbers(cli, seed, index):
    r = cli("deal", "--seed", str(seed), "--index", str(index), "--json")
    if r.code == 0:
        obj = json_only(r)
        assert len(set(" ".join(obj.values()).split())) == 32
    else:
        one_line_error(r)
    if isinstance(seed, int) and isinstance(index, int):
        assert (r.code == 0) == (0 <= seed < 2**64 and 0 <= index < 2**44)


# --------------------------------------------------------------------------- simulate

def simulate(cli, *args: str) -> dict:
    obj = json_only(cli("simulate", "--json", "--no-exchange", *args))
    tricks = obj["tricks"]
    assert len(tricks) == 6 and all(type(t) is int and t >= 0 for t in tricks)
    assert sum(tricks) == obj["deals"]
    assert obj["point_rate"] == sum(tricks[3:]) / obj["deals"]
    lo, hi = obj["ci95"]
    assert 0.0 <= lo <= obj["point_rate"] <= hi <= 1.0, obj
    return obj


def test_simulate_is_self_consistent_and_reproducible(cli, restore_threads):
    base = simulate(cli, "--deals", "400", "--seed", "11")
    assert base["deals"] == 400 and base["seed"] == 11
    assert simulate(cli, "--deals", "400", "--seed", "11") == base
    assert simulate(cli, "--deals", "400", "--seed", "11", "--chunk", "7") == base
    assert simulate(cli, "--deals", "400", "--seed", "11", "--chunk", "5000") == base
    assert simulate(cli, "--deals", "400", "--seed", "11", "--chunk", "1",
                    "--threads", "1") == base
    assert simulate(cli, "--deals", "400", "--seed", "12")["tricks"] != base["tricks"]


def test_simulate_counts_match_solving_each_deal(cli):
    obj = simulate(cli, "--deals", "25", "--seed", "99", "--start", "1000")
    counts = Counter()
    for index in range(1000, 1025):
        d = json_only(cli("deal", "--seed", "99", "--index", str(index), "--json"))
        counts[solve_json(cli, d["elder"], d["dealer"], d["turn_up"])["elder_tricks"]] += 1
    assert obj["tricks"] == [counts[k] for k in range(6)]


@functools.lru_cache(maxsize=None)
def _points_of_deals(seed: int, n: int) -> list[int]:
    from ecarte_sim.engine.ecarte.deals.simulate import simulate_counts
    return [int(simulate_counts(seed, i, i + 1)[3:6].sum()) for i in range(n)]


@pytest.mark.parametrize("length, want", [(3, 0), (6, 0), (1, 0), (1, 1), (10, 1)])
def test_simulate_interval_contains_rate_at_the_edges(cli, length, want):
    """point_rate 0 or 1: the Wilson bounds must still enclose it (float round-off)."""
    points = _points_of_deals(0, 20_000)
    start = next((i for i in range(len(points) - length)
                  if all(p == want for p in points[i:i + length])), None)
    assert start is not None, f"no run of {length} deals with point={want} in seed 0"
    obj = simulate(cli, "--deals", str(length), "--seed", "0", "--start", str(start))
    assert obj["point_rate"] == want


def test_simulate_last_deal_index(cli):
    simulate(cli, "--deals", "1", "--start", str(2**44 - 1))


@pytest.mark.parametrize("option", ["--deals", "--seed", "--start", "--chunk", "--threads"])
@pytest.mark.parametrize("value", NASTY_NUMBERS + ["0", str(2**64), "-5"], ids=repr)
def test_simulate_nasty_numbers(cli, restore_threads, option, value):
    args = {"--deals": "5", "--seed": "1", "--start": "0", "--chunk": "3"}
    args[option] = value
    flat = [x for kv in args.items() for x in kv]
    r = cli("simulate", "--json", *flat)
    if r.code == 0:   # e.g. --seed 0 / --start 0 are fine
        assert value in ("0",) and option in ("--seed", "--start")
        simulate(cli, *flat)
    else:
        assert option in one_line_error(r)


@pytest.mark.parametrize("args", [
    ["--deals", "10", "--start", str(2**44 - 5)],
    ["--deals", str(2**44), "--start", "1"],
    ["--deals", "10", "--threads", str(numba.config.NUMBA_NUM_THREADS + 1)],
    ["--deals", "10", "--chunk", str(2**30 + 1)],
    ["--seed", "1"],
])
def test_simulate_out_of_range(cli, args):
    one_line_error(cli("simulate", "--json", *args))


def test_simulate_whole_deals_json(cli, restore_threads):
    obj = json_only(cli("simulate", "--json", "--deals", "3000", "--seed", "4"))
    n = obj["deals"]
    joint = obj["marks"]["joint"]
    assert sum(map(sum, joint)) == n == sum(obj["marks"]["elder"]) == sum(obj["marks"]["dealer"])
    assert joint[0][0] == 0            # every deal played gives someone the point
    assert sum(obj["outcomes"].values()) == obj["played"] == n
    assert sum(obj["law_49"].values()) == n
    lo, hi = obj["elder_point_ci95"]
    assert lo <= obj["elder_point_rate"] <= hi
    m = obj["mean_marks"]
    assert m["difference_ci95"][0] <= m["difference"] <= m["difference_ci95"][1]
    assert abs(m["elder"] - m["dealer"] - m["difference"]) < 1e-12
    assert obj["settings"]["elder_policy"] == "regle" and obj["settings"]["play"]["elder"] == "dd"
    same = json_only(cli("simulate", "--json", "--deals", "3000", "--seed", "4",
                         "--chunk", "7", "--threads", "1"))
    assert same == obj


@pytest.mark.parametrize("extra", [
    ["--play", "heuristic"], ["--play", "pimc", "--worlds", "4"],
    ["--elder-policy", "always-propose", "--dealer-policy", "always-accept"],
    ["--elder-policy", "threshold", "--threshold", "5", "--dealer-policy", "regle"],
    ["--single-exchange", "--dealer-min-one", "--discard", "trumps-only"],
    ["--elder-play", "pimc", "--dealer-play", "heuristic", "--worlds", "2"],
    ["--no-forced-trump", "--max-proposals", "2"],
])
def test_simulate_every_policy(cli, extra):
    obj = json_only(cli("simulate", "--json", "--deals", "300", "--seed", "2", *extra))
    assert sum(obj["marks"]["elder"]) == 300


def test_simulate_policies_change_the_result_not_the_deals(cli):
    a = json_only(cli("simulate", "--json", "--deals", "2000", "--elder-policy",
                      "always-play"))
    b = json_only(cli("simulate", "--json", "--deals", "2000", "--elder-policy",
                      "always-propose", "--dealer-policy", "always-accept"))
    assert a["law_49"]["played_without_proposing"] == 2000 and a["exchanges_per_deal"] == 0
    assert b["law_49"]["played_without_proposing"] == 0 and b["exchanges_per_deal"] > 1
    # the kings turned up depend on the deal only
    assert a["kings"]["turned"] == b["kings"]["turned"] > 0


@pytest.mark.parametrize("option, value", [
    ("--elder-policy", "regle "), ("--elder-policy", "Regle"), ("--dealer-policy", "maxim"),
    ("--play", "PIMC"), ("--play", ""), ("--worlds", "0"), ("--worlds", "5000"),
    ("--threshold", "-1"), ("--max-proposals", "22"), ("--discard", "kings"),
    ("--elder-play", "scripted"), ("--play", "dd\x00"),
])
@pytest.mark.parametrize("command", ["simulate", "play", "game"])
def test_policy_options_reject_bad_values(cli, command, option, value):
    base = {"simulate": ["--deals", "5"], "play": ["--seed", "1", "--index", "0"],
            "game": ["--seed", "1"]}[command]
    line = one_line_error(cli(command, "--json", *base, option, value))
    assert option in line


# --------------------------------------------------------------------------- play / game

def test_play_json_tells_the_whole_deal(cli):
    obj = json_only(cli("play", "--seed", "1", "--index", "0", "--json"))
    deal = json_only(cli("deal", "--seed", "1", "--index", "0", "--json"))
    assert (obj["elder"], obj["dealer"], obj["turn_up"]) == (deal["elder"], deal["dealer"],
                                                             deal["turn_up"])
    assert len(obj["tricks"]) == 5
    won = sum(t["winner"] == "elder" for t in obj["tricks"])
    assert won == obj["elder_tricks"]
    assert (obj["points"]["elder"] > 0) == (won >= 3)
    # every card of both play hands is played exactly once
    played = [c for t in obj["tricks"] for c in (t["led"], t["reply"])]
    hands = obj["hands_at_play"]["elder"].split() + obj["hands_at_play"]["dealer"].split()
    assert sorted(played) == sorted(hands)
    # the stock is drawn in order
    stock = deal["stock"].split()
    drawn = []
    for x in obj["exchanges"]:
        drawn += x["elder_draws"].split() + (x["dealer_draws"].split()
                                             if x["dealer_draws"] != "-" else [])
    assert sorted(drawn) == sorted(stock[:len(drawn)])


@pytest.mark.quick
def test_play_text_names_the_laws(cli):
    r = cli("play", "--seed", "1", "--index", "1", "--play", "heuristic")
    assert r.code == 0 and r.err == ""
    assert "Turn-up" in r.out and "Trick 5" in r.out and "Law 22" in r.out


def test_play_turned_king_at_four_ends_the_game(cli):
    # deal 1 of seed 1 turns up the king of spades
    obj = json_only(cli("play", "--seed", "1", "--index", "1", "--dealer-score", "4",
                        "--json"))
    assert obj["king_turned"] and obj["ended_game_before_play"] and obj["tricks"] == []
    assert obj["marks"] == {"elder": 0, "dealer": 1}
    r = cli("play", "--seed", "1", "--index", "1", "--dealer-score", "4")
    assert "wins the game before a card is played" in r.out


@pytest.mark.quick
def test_game_json_and_text(cli):
    obj = json_only(cli("game", "--seed", "3", "--json", "--play", "heuristic"))
    assert obj["score"][obj["winner"]] >= 5
    assert [d["index"] for d in obj["deals"]] == list(range(len(obj["deals"])))
    r = cli("game", "--seed", "3", "--game", "5", "-v")
    assert r.code == 0 and " wins " in r.out.splitlines()[-1]


# --------------------------------------------------------------------------- scores

def test_scores_json_is_consistent(cli, tmp_path):
    obj = json_only(cli("scores", "--json", "--deals", "20000", "--bootstrap", "30",
                        "--play", "heuristic", "--out", str(tmp_path / "out")))
    mine, theirs = obj["i_deal_next"], obj["opponent_deals_next"]
    for a in range(5):
        for b in range(5):
            # the same state seen by each player: the probabilities add up to one
            assert abs(mine[a][b] + theirs[b][a] - 1) < 1e-12
            lo, hi = obj["i_deal_next_ci95"][a][b]
            assert lo <= mine[a][b] + 1e-12 and mine[a][b] <= hi + 1e-12
            if a > 0:   # a higher score never hurts
                assert mine[a][b] >= mine[a - 1][b]
    names = sorted(p.rsplit("/", 1)[-1] for p in obj["files"])
    import importlib.util
    parquet = ["scores.parquet"] if importlib.util.find_spec("pyarrow") else []
    assert names == sorted(["provenance.json", "scores.csv", "scores.md", "scores.png", *parquet])
    import pandas as pd
    frame = pd.read_csv(tmp_path / "out" / "scores.csv")
    assert len(frame) == 50 and frame["p_win"].between(0, 1).all()
    assert (tmp_path / "out" / "scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list((tmp_path / "out").glob("*.tmp"))
    md = (tmp_path / "out" / "scores.md").read_text(encoding="utf-8")
    assert "95% bootstrap intervals" in md and "seeds/" not in md and "seed 00" not in md


def test_scores_out_on_a_file_is_a_clean_error(cli, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    line = one_line_error(cli("scores", "--json", "--deals", "1000", "--out", str(f)))
    assert "--out" in line


# --------------------------------------------------------------------------- bench

def test_bench_json_shape(cli, restore_threads):
    obj = json_only(cli("bench", "--json", "--deals", "1000", "--reference-deals", "10",
                        "--no-startup", "--threads", "1", "--pimc-deals", "100",
                        "--web-games", "2", "--web-finished", "0", "--exploit-worlds", "4"))
    assert {"machine", "seed", "kernels", "reference", "speedup_exact_vs_reference"} <= set(obj)
    assert "startup" not in obj
    assert obj["machine"]["threads"] == 1
    assert set(obj["kernels"]) == {"deal", "exact", "point-vole"}
    for k in obj["kernels"].values():
        assert k["deals"] == 1000 and k["seconds"] > 0 and k["deals_per_s"] > 0
    assert obj["reference"]["deals"] == 10 and obj["reference"]["deals_per_s"] > 0
    assert obj["speedup_exact_vs_reference"] > 0
    assert set(obj["whole"]) == {"dd", "heuristic"} and set(obj["pimc"]) == {"16", "32", "64"}
    for k in obj["pimc"].values():
        assert k["decisions_per_deal"] > 0 and k["solves_per_deal"] > k["decisions_per_deal"]
    assert obj["inference"]["hands"] == 65_780 and obj["inference"]["seconds"] > 0
    k = obj["pimc_inference"]
    assert k["worlds"] == 64 and k["deals"] == obj["pimc"]["64"]["deals"]
    assert k["speed_vs_plain"] > 0 and 0 <= k["fallback_share"] < 1
    assert k["runs"] == PAIRED_RUNS and obj["pimc"]["64"]["runs"] == PAIRED_RUNS
    assert k["speed_vs_plain"] == pytest.approx(k["plain_seconds"] / k["seconds"])
    assert set(obj["exploit"]["runs"]) == {"pimc W=4", "pimc-inference W=4"}


@pytest.mark.slow
def test_bench_startup_and_whole_process_shape():
    """The subprocess measurements: cold compile (fresh cache), warm solve, and the whole
    simulate --no-exchange process (a cold compile: slow)."""
    from ecarte_sim.apps.bench.throughput import _startup_times, format_report
    s = _startup_times(process_deals=20_000)
    assert s["cold_compile_s"] > 0 and s["warm_solve_cli_s"] > 0
    p = s["process"]
    assert p["deals"] == 20_000 and p["seconds"] > 0 and "--no-exchange" in p["command"]
    assert "whole process" in format_report({
        "machine": {"python": "3", "numba": "0", "cpus": 2, "threads": 2}, "seed": 0,
        "kernels": {}, "whole": {}, "pimc": {}, "reference": {"deals": 1, "seconds": 1,
                                                              "deals_per_s": 1},
        "speedup_exact_vs_reference": 1, "startup": s})


def test_bench_startup_section_times_the_commands(cli, monkeypatch):
    """bench --startup-only: --help, classify (a hand of the list, a hand off it) and
    advise --no-values, each timed as a warm whole process, with the goal beside (the
    report's shape; no wall time asserted)."""
    from ecarte_sim.apps.bench import startup as bench_startup
    monkeypatch.setattr(bench_startup, "RUNS", 1)
    s = json_only(cli("bench", "--startup-only", "--json"))["cli_startup"]
    assert s["goal_s"] == bench_startup.GOAL_S == 0.3 and s["runs"] == 1
    assert [c["command"].split()[1] for c in s["commands"]] == ["--help", "classify",
                                                                "classify", "advise"]
    assert s["commands"][3]["command"].endswith("--no-values")
    assert all(0 < c["min_s"] <= c["median_s"] <= c["max_s"] for c in s["commands"])
    lines = bench_startup.format_startup(s)
    assert "goal 0.3 s" in lines[0] and len(lines) == 5
    assert all(line.endswith(("within the goal", "over the goal")) for line in lines[1:])


@pytest.mark.parametrize("args", [
    ["--deals", "999"], ["--deals", "0"], ["--deals", str(2**70)], ["--deals", "1e6"],
    ["--deals", "\x00"], ["--reference-deals", "9"], ["--reference-deals", str(10**6 + 1)],
    ["--reference-deals", "-1"], ["--seed", "-1"], ["--seed", str(2**64)], ["--threads", "0"],
    ["--threads", str(2**70)], ["--threads", "x"], ["--process-deals", "-1"],
    ["--process-deals", "x"],
])
def test_bench_nasty_options(cli, args):
    line = one_line_error(cli("bench", "--json", "--no-startup", *args))
    assert args[0] in line


# --------------------------------------------------------------------------- end to end

def _console() -> list[str]:
    script = Path(sys.executable).with_name("ecarte-sim")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ecarte_sim.apps.cli"]


def _spawn(args: list, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    return subprocess.run(args, input=stdin, capture_output=True, timeout=BLOCKED, env=env)


@pytest.mark.quick
def test_e2e_console_script_solves_the_example():
    p = _spawn([*_console(), "solve", ELDER, DEALER, "--trump", "TH", "--json"])
    assert p.returncode == 0 and p.stderr == b""
    obj = json.loads(p.stdout)
    assert obj.pop("provenance")["parameters"]["elder"] == ELDER
    assert obj == EXAMPLE and p.stdout.count(b"\n") == 1


def test_e2e_hostile_batch_on_stdin():
    data = _batch([GOOD, b"\xff\xfe\x00\x01", b"A | B | C | D | E", b"QH QH | x | H",
                   b"\x00" * 50_000])
    p = _spawn([sys.executable, "-m", "ecarte_sim.apps.cli", "solve", "--batch", "-"], stdin=data)
    assert b"Traceback" not in p.stdout + p.stderr
    assert p.returncode == 2
    assert p.stderr.decode().startswith("Error: ") and len(p.stderr.splitlines()) == 1
    objs = [json.loads(ln) for ln in p.stdout.decode("utf-8").splitlines()]
    assert [o["line"] for o in objs] == [1, 2, 3, 4, 5]
    assert objs[0] == {"line": 1, **EXAMPLE}
    assert all(set(o) == {"line", "error"} for o in objs[1:])


def test_e2e_undecodable_and_hostile_argv():
    """Non-UTF-8 argv bytes, then an unknown option with a newline: one line each."""
    for argv in ([b"solve", b"QH AH 7H KS K\xff", DEALER.encode(), b"-t", b"\xfe"],
                 [b"deal", b"--seed", b"\xff", b"--index", b"0"]):
        p = _spawn([*map(os.fsencode, _console()), *argv])
        assert b"Traceback" not in p.stdout + p.stderr
        assert p.returncode == 2 and p.stdout == b""
        assert p.stderr.startswith(b"Error: ") and len(p.stderr.splitlines()) == 1, p.stderr


def test_batch_byte_order_mark_on_the_first_line_is_ignored(cli):
    r = cli("solve", "--batch", "-",
            stdin="\ufeffQH AH 7H KS KD | KH JH 9H 8H 9C | TH\n".encode("utf-8"))
    assert r.code == 0
    assert json.loads(r.out)["elder_tricks"] == 2


def test_batch_rejects_an_empty_trump_option(cli):
    one_line_error(cli("solve", "--batch", "-", "--trump", "", stdin=b""))


# --------------------------------------------------------------------------- classify

#: The keys of ``classify --json`` (the list, the default reading): which reading, the
#: verdict, the rule, and why.
CLASSIFY_KEYS = {"reading", "jeu_de_regle", "rule", "rule_number", "rule_name", "words",
                 "reason", "nearest"}
#: The keys of ``classify --reading definition --json``: the list's verdict, words and
#: reason; the best lead, its wins and of how many, each lead's wins, the turn-ups
#: counted, a dealer hand the best lead loses to, and the list's verdict beside it.
DEFINITION_KEYS = {"reading", "jeu_de_regle", "words", "reason", "best_lead", "won", "of",
                   "leads", "turn_up", "turn_ups", "loses_to", "by_list"}


@pytest.mark.quick
@pytest.mark.parametrize("hand, trump, rule", [
    ("QH AH 7H KS KD", "TH", "three-trumps"),
    ("QH,AH,7H,KS,KD", "♥", "three-trumps"),
    ("7H KS 9S 8S QD", "h", "one-trump-three-court"),
    ("KS QS JS 8H 8D", "H", None),
])
def test_classify_json(cli, hand, trump, rule):
    obj = json_only(cli("classify", hand, "--trump", trump, "--json"))
    assert set(obj) == CLASSIFY_KEYS
    assert (obj["jeu_de_regle"], obj["rule"]) == (rule is not None, rule)
    assert (obj["nearest"] is None) == (rule is not None) and obj["reason"]


@pytest.mark.quick
def test_classify_text(cli):
    r = cli("classify", "QH AH 7H KS KD", "--trump", "H")
    assert r.code == 0 and "three-trumps" in r.out


@pytest.mark.parametrize("hand, trump, token", [
    ("QH AH 7H KS", "H", "QH AH 7H KS"),          # four cards
    ("QH AH 7H KS KD 9C", "H", "QH AH 7H KS KD 9C"),
    ("QH AH 7H KS КD", "H", "КD"),                # Cyrillic К
    ("QH AH 7H KS KS", "H", "KS"),                # duplicate
    ("QH AH 7H KS KD", "KD", "KD"),               # turn-up held
    ("QH AH 7H KS KD", "X", "X"),
    ("QH AH 7H KS KD", "", None),
])
def test_classify_bad_input(cli, hand, trump, token):
    message = one_line_error(cli("classify", hand, "--trump", trump))
    if token:
        assert token in message


@FIXTURE_OK
@given(st.text(max_size=30), st.text(max_size=6))
def test_classify_arbitrary_unicode_never_crashes(cli, hand, trump):
    r = cli("classify", "--json", f"--trump={trump}", "--", hand)
    if r.code == 0:
        assert set(json_only(r)) == CLASSIFY_KEYS
    else:
        one_line_error(r)


def test_classify_list_reading_is_the_default_and_says_so(cli):
    default = json_only(cli("classify", ELDER, "--trump", "TH", "--json"))
    listed = json_only(cli("classify", ELDER, "--trump", "TH", "--reading", "list",
                           "--json"))
    assert default == listed and default["reading"] == "list"
    # --turn-up is the card --trump may name: the same answer either way
    split = json_only(cli("classify", "AH KS 7S KD KC", "--trump", "H", "--turn-up",
                          "TH", "--json"))
    assert split == json_only(cli("classify", "AH KS 7S KD KC", "--trump", "TH",
                                  "--json"))
    assert "TH" not in split["nearest"]["exchange"]["in"]


def test_classify_definition_json_the_seed_example(cli):
    """The book's first example: a jeu de règle by the definition, not by the list."""
    obj = json_only(cli("classify", "KS QS JS 8H 8D", "--trump", "H", "--reading",
                        "definition", "--json"))
    assert set(obj) == DEFINITION_KEYS and obj["reading"] == "definition"
    assert obj["jeu_de_regle"] is True and obj["best_lead"] == "KS"
    assert obj["won"] == obj["of"] == 7 * 44_574 and obj["loses_to"] is None
    assert obj["turn_up"] is None and len(obj["turn_ups"]) == 7
    assert list(obj["leads"]) == ["KS", "QS", "JS", "8H", "8D"]
    assert obj["by_list"] == {"jeu_de_regle": False, "rule": None}
    assert "cannot fail to win three tricks" in obj["words"]
    listed = json_only(cli("classify", "KS QS JS 8H 8D", "--trump", "H", "--json"))
    assert listed["jeu_de_regle"] is False and listed["reading"] == "list"


@pytest.mark.parametrize("args", [["--trump", "H", "--turn-up", "KH"], ["--trump", "KH"],
                                  ["--trump", "KH", "--turn-up", "KH"]])
def test_classify_definition_json_a_fixed_turn_up(cli, args):
    obj = json_only(cli("classify", "9H 8H 7S 9D 8C", *args, "--reading",
                        "definition", "--json"))
    assert set(obj) == DEFINITION_KEYS
    assert obj["turn_up"] == "KH" and obj["turn_ups"] == ["KH"] and obj["of"] == 50_274
    assert obj["jeu_de_regle"] is False and 0 < obj["won"] < obj["of"]
    assert obj["won"] == max(obj["leads"].values()) == obj["leads"][obj["best_lead"]]
    dealer = parse_hand(obj["loses_to"]["dealer"], 5)
    assert obj["loses_to"]["turn_up"] == "KH" and not int(dealer) >> 15 & 1
    assert (int(dealer) >> 8 & 0xFF).bit_count() <= 1   # at most one heart


def test_classify_definition_text(cli):
    r = cli("classify", "KS QS JS 8H 8D", "--trump", "H", "--reading", "definition")
    assert r.code == 0 and r.err == ""
    assert "a jeu de règle by the definition" in r.out
    assert "Leading KS wins the point against all 312,018 deals" in r.out
    assert "By Hoyle's list: not a jeu de règle." in r.out
    r = cli("classify", "9H 8H 7S 9D 8C", "--trump", "KH", "--reading", "definition")
    assert r.code == 0 and "not a jeu de règle by the definition" in r.out
    assert "of the 50,274 dealer hands with at most one trump (KH turned up); it loses " \
           "e.g. to " in r.out


@pytest.mark.parametrize("args, token", [
    (["QH AH 7H KS KD", "--trump", "H", "--reading", "foster"], "foster"),
    (["QH AH 7H KS KD", "--trump", "H", "--reading", ""], ""),
    (["QH AH 7H KS KD", "--trump", "H", "--turn-up", "QH"], "QH"),        # held in the hand
    (["QH AH 7H KS KD", "--trump", "H", "--turn-up", "9S"], "9S"),        # not a trump
    (["QH AH 7H KS KD", "--trump", "TH", "--turn-up", "9H"], "9H"),       # not the trump's card
    (["QH AH 7H KS KD", "--trump", "H", "--turn-up", "XH"], "XH"),        # no such card
    (["QH AH 7H KS", "--trump", "H", "--reading", "definition"], "QH AH 7H KS"),
    (["QH AH 7H KS KD", "--trump", "KD", "--reading", "definition"], "KD"),
    (["QH AH 7H KS KD", "--trump", "H", "--turn-up", "8H", "--reading", "definition",
      "--turn-up", "QH"], "QH"),
])
def test_classify_bad_reading_or_turn_up(cli, args, token):
    extras = [[], ["--json"]] + ([] if "--reading" in args else [["--reading", "definition"]])
    for extra in extras:
        message = one_line_error(cli("classify", *args, *extra))
        assert names(message, token), message


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.integers(-2**70, 2**70), st.text(max_size=8)),
       st.one_of(st.integers(-10, 2**46), st.text(max_size=8)),
       st.one_of(st.integers(-3, 8), st.text(max_size=4)))
def test_play_generated_arguments(cli, seed, index, score):
    r = cli("play", "--seed", str(seed), "--index", str(index), "--dealer-score",
            str(score), "--json", "--play", "heuristic")
    if r.code == 0:
        obj = json_only(r)
        assert obj["marks"]["elder"] + obj["marks"]["dealer"] >= 1
    else:
        one_line_error(r)
    if all(isinstance(x, int) for x in (seed, index, score)):
        assert (r.code == 0) == (0 <= seed < 2**64 and 0 <= index < 2**44 and 0 <= score <= 4)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.integers(-5, 2**40), st.text(max_size=8)))
def test_game_generated_numbers(cli, game):
    r = cli("game", "--seed", "1", "--game", str(game), "--json")
    if r.code == 0:
        obj = json_only(r)
        assert obj["score"][obj["winner"]] >= 5
    else:
        one_line_error(r)
    if isinstance(game, int):
        assert (r.code == 0) == (0 <= game < 2**38)


@pytest.mark.quick
@pytest.mark.parametrize("command", [["classify", "AH KS 7S KD KC"],
                                     ["solve", "QH AH 7H KS KD", "KH JH 9H 8H 9C"]])
def test_trump_named_singular_is_the_plural(cli, command):
    plural = json_only(cli(*command, "--trump", "hearts", "--json"))
    singular = json_only(cli(*command, "--trump", "heart", "--json"))
    for out in (plural, singular):
        out.pop("provenance", None)
    assert singular == plural
    assert "'hart'" in one_line_error(cli(*command, "--trump", "hart"))


@pytest.mark.quick
def test_infer_says_in_words_how_many_cards_he_threw(cli):
    r = cli("infer", "QS KH AH 9C JD", "--turn-up", "8D", "--history",
            "propose,accept:2,propose,accept:1,play", "--thrown", "7C 8H;7H", "--samples", "200")
    assert r.code == 0, r
    first = r.out.splitlines()[0]
    assert "(he threw 2 cards, then 1)" in first and "[" not in first
