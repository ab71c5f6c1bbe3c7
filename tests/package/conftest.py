import os

from hypothesis import settings

# "dev" (the default) is a quick pass for the inner loop (make check); "ci"
# runs ten times more examples, as make test does (HYPOTHESIS_PROFILE=ci).
# Neither times out on a loaded machine.
settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
