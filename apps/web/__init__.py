"""The practice table in the browser: ``ecarte-sim serve`` (needs the ``web`` extra).

* :mod:`.app` — the Starlette application: the JSON API (new game, view, act, record,
  the strategy card, advice) and the static page; every request validated, every error a
  4xx (or 500) with a one-line reason.
* :mod:`.store` — the game store: one JSON file per game, written atomically after every
  accepted action, restored after a restart; unguessable ids, a lock per game, a failed
  action leaves the game as saved.
* :mod:`.server` — uvicorn in the foreground or on a background thread; loopback unless
  told otherwise.
* :mod:`.load` — the bounded load test (``ecarte-sim serve --load-test 20``) and the warm-up.
* ``static/`` — the page: HTML, CSS and plain JavaScript, cards drawn as SVG; no build step.

The game itself is :class:`ecarte_sim.apps.practice.session.Table`; the coach's
verdicts are :mod:`ecarte_sim.analysis.practice.coach`'s. docs/practice.md is the user's
guide.
"""
