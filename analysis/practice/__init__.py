"""A game of five up as a record: its format, the laws checked on it, where its cards come
from, its deals replayed and its decisions graded (what ``ecarte-sim review`` asks; the
practice table, :mod:`ecarte_sim.apps.practice`, plays the game and writes the record).

* :mod:`.seeds` — where the cards come from: each deal's seed an HMAC of the game's
  key (version 2), the old one-seed games (version 1), a record's deals checked
  against their seeds.
* :mod:`.records` — the game record (plain JSON, ``docs/records.md``): shape checks, atomic
  save, load.
* :mod:`.laws` — the trick's rules (Law 43), the point (Laws 48–49) and ``check(record)``:
  every breach of the laws in a record, named.
* :mod:`.coach` — what each decision cost in P(win the game), the game's summary, a
  record reviewed.
* :mod:`.replay` — a record's deal replayed: action by action (what the coach grades
  from) and double dummy card by card.
* ``examples/`` — the treatise's worked game between A and Y as a record.
"""
