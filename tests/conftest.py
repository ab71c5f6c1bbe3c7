import os

import numpy as np
import pytest
from hypothesis import settings

# "dev" (the default) is a quick pass for day-to-day work;
# HYPOTHESIS_PROFILE=ci runs more examples.  Neither times out on a loaded
# machine.  Tests cap their own max_examples below the active profile's
# where an example is expensive.
settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
