"""The card play: one card's verdict, and the play models measured against each other.

* :mod:`.card_advice` — one card of the play: a position as a player describes it, checked
  against the laws; each legal card's value from his knowledge; the computer's card (the
  practice table, ``cards``, the best response's and ``stronger``'s engines read it).
* :mod:`.exploit` — the exact best response in the play to a play model keyed by its
  own information, for one hand of the responder: its gain over the model, held out
  over seeds, and the lines that exploit it (issue 35). Its parts:
  :mod:`.exploit_setup` (the instance checked, the opponent's card player, his hands),
  :mod:`.exploit_search` (the search, a policy played, the oracle),
  :mod:`.exploit_lines` (the exploiting lines in words, one hand's answer) and
  :mod:`.exploit_sample` (a stratified sample of hands, keyed against deal-keyed play).
* :mod:`.exploitability` — the best response's gain over each play model, on a
  stratified sample of hands.
* :mod:`.card_regret` — each legal card's value with the player's own play after it,
  position by position: the regret of his card, and how far the printed values (``cards``,
  the coach: double dummy over his worlds) are from it (issue 53).
* :mod:`.stronger` — a card player (αμ, pimc-king, pimc-inference at other W) against
  pimc-inference, a paired match on the same deals, and the exploitability of αμ.
* :mod:`.inference_value` — what reading the proposals is worth: the inferring player
  against plain PIMC and dd in each seat, paired; what pimc-inference did, from counts.
"""
