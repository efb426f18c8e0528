"""What a finished game hands back: ``GameResult``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    players: int
    rounds: int
    end_reason: str  # victory | draw | collapse | round_limit
    winners: tuple[int, ...]
    final_vp: tuple[int, ...]
    final_coins: tuple[int, ...]
    final_wrath: int
    pairs_released: int
    settlements_razed: int
    first_judge_round: int | None
    first_king_round: int | None
    decisions: int
    round_rows: list[tuple]
    card_events: tuple[tuple[int, int, str, str], ...] = ()  # (round, seat, card kind, CardAction)

    @property
    def winner(self) -> int | None:
        return self.winners[0] if self.end_reason == "victory" else None
