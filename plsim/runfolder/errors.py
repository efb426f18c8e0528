"""The one error of a run that cannot start or go on for a reason the user can fix."""

from __future__ import annotations


class RunConfigError(ValueError):
    """A run that cannot start: bad counts, options or output folder (nothing was played)."""
