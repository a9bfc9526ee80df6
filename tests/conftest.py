"""Hypothesis profiles: "ci" (default, bounded so CI stays within minutes) and "fuzz"
(long runs: ``HYPOTHESIS_PROFILE=fuzz pytest tests/test_fuzz.py``; 20,000 examples per
property, or ``FUZZ_EXAMPLES=N``)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", 20000)), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
