"""The computed jeux de règle in the treatise's terms (issue 15, item 6a): the terms per
state against the representative hands' own cards, the short list on tables it can and
cannot say exactly, and the disagreements' signs."""

from __future__ import annotations

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.solving import readable as RD
from ecarte_sim.engine.ecarte.decisions.states import N_STATES, representatives, state_weights
from ecarte_sim.engine.ecarte.decisions.tables import treatise_table

FEATS = RD.features()


@pytest.mark.quick
def test_features_count_the_representative_hands_cards():
    hands, turn_ups = representatives()
    rng = np.random.default_rng(0)
    for i in rng.integers(0, N_STATES, 300):
        cards = [c for c in range(32) if int(hands[i]) >> c & 1]
        trump = int(turn_ups[i]) >> 3
        plain = [c for c in cards if c >> 3 != trump]
        row = FEATS.iloc[i]
        assert row["trumps"] == 5 - len(plain)
        assert row["trump_king"] == int(8 * trump + 7 in cards)
        assert row["plain_kings"] == sum(c & 7 == 7 for c in plain)
        assert row["plain_courts"] == sum(c & 7 >= 5 for c in plain)
        assert row["longest"] == max(sum(c >> 3 == s for c in plain) for s in range(4)
                                     if s != trump)
        assert row["turn_up"] == "789TAJQK"[int(turn_ups[i]) & 7]
    assert FEATS["weight"].sum() == 5_437_152


def test_short_list_says_a_table_of_its_own_terms_exactly():
    table = (FEATS["trumps"] >= 2).to_numpy() | (FEATS["plain_kings"] >= 2).to_numpy()
    classes, reproduced = RD.short_list(table, feats=FEATS)
    assert reproduced == 1.0
    assert np.array_equal(RD.short_table(classes, feats=FEATS), table)
    lines = RD.short_list_lines(classes, "elder")
    assert "3 trumps with the king: propose" in lines
    assert any(line.startswith("1 trump without the king: 0 plain kings: play") for line
               in lines)


def test_short_list_of_hoyles_list_reproduces_most_but_not_all():
    """Hoyle's list speaks of suits and sequences the four terms do not see: the short
    list cannot say it exactly, and its share is the weighted majority by class."""
    table = treatise_table("elder", "regle")
    classes, reproduced = RD.short_list(table, feats=FEATS)
    w = state_weights()
    short = RD.short_table(classes, feats=FEATS)
    assert np.isclose(reproduced, w[short == table].sum() / w.sum())
    assert 0.5 < reproduced < 1.0
    # a class's choice is its weighted majority
    frame = FEATS.assign(t=table)
    for _, c in classes.sample(10, random_state=1).iterrows():
        sel = np.ones(N_STATES, bool)
        for term in RD.SHORT_TERMS:
            sel &= (frame[term] == c[term]).to_numpy()
        share = w[sel & table].sum() / w[sel].sum()
        assert c["choice"] == (share > 0.5) or share == 0.5


def test_disagreements_rank_the_computed_choice_by_its_gain_over_all_deals():
    treatise = treatise_table("elder", "regle")
    table = treatise.copy()
    rng = np.random.default_rng(4)
    flip = rng.choice(N_STATES, 50, replace=False)
    table[flip] = ~table[flip]
    gain = rng.normal(0, 0.1, N_STATES)          # arm a (propose) over arm b (play)
    out = RD.disagreements("elder", table, treatise, gain, np.full(N_STATES, 0.01), top=50)
    assert set(out["state"]) == set(flip)
    own = np.where(table[out["state"]], gain[out["state"]], -gain[out["state"]])
    assert np.allclose(out["gain_win"], own)
    assert (np.diff(out["contribution"]) <= 0).all()
    assert set(out["computed"]) <= {"play", "propose"}
