"""Statistics: :mod:`.intervals` (Wilson intervals, weighted means, paired differences)
and :mod:`.precision` (run until every headline interval is narrow enough)."""
