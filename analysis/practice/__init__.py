"""The practice table: a game of five up between a person and the computer, its records and
the coach.

* :mod:`.session` — :class:`~.session.Table`, one game by the laws: ``new``, ``view``,
  ``act``, ``record``, ``from_record`` (the contract the web app and the coach use).
* :mod:`.computer` — the computer's decisions: the shipped strategy's tables or the
  treatise's rules, its cards by the inferring player or αμ (:mod:`ecarte_sim.analysis.ecarte.play.card_advice`)
  or the treatise's play.
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
