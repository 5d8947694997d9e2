"""Suite-wide settings.

Hypothesis: on CI (``CI`` set) property tests run derandomized (the same examples every run,
no example database), so a CI result is reproducible; locally they explore new random
examples each run and keep failures in ``.hypothesis/``. A failure found locally is then
pinned with ``@example`` in its test.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
