"""ecarte-sim analysis layer: experiments, statistics, reports and the ``ecarte-sim`` CLI."""
