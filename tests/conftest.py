import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
# ECARTE_HYPOTHESIS=long: a deeper fuzzing run (not part of CI).
settings.register_profile("long", deadline=None, max_examples=3000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("ECARTE_HYPOTHESIS")
                      or ("ci" if os.environ.get("CI") else "default"))
