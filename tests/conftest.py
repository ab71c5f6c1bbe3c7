import os

import numpy as np
import pytest
from hypothesis import settings

# "ci" (the default here) runs more examples than Hypothesis' default and never
# times out on a loaded machine; HYPOTHESIS_PROFILE=dev runs a quick pass.
settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
