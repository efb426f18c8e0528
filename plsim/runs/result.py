"""What a kind of run hands back: the run's own result, and its figures on top of it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from plsim.runner import RunResult


@dataclass(frozen=True)
class KindResult(ABC):
    """A tournament's, a comparison's or a ladder's result: it prints its own figures
    (``describe``), then the run's totals; a fault's note goes to stderr."""

    run: RunResult

    @abstractmethod
    def describe(self) -> str:
        """The kind's own figures, as its command prints them."""

    def text(self) -> str:
        """What the command prints at the end (and ``plsim run --resume`` of such a folder)."""
        return f"{self.describe()}\n{self.run.totals_line()}"

    def note(self) -> str | None:
        """For stderr: how many games were faults, which the kind's figures leave out."""
        return self.run.faults_note()
