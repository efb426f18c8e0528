"""The parent's loop: one queue of games, a pool of workers, and every game accounted for.

``Dispatcher.run`` hands each idle worker the next game, collects each result as it arrives
(results reach the parent per game), and keeps three promises:

- a game past ``game_timeout`` is stopped by the parent: first politely (the worker raises
  ``GameTimeout`` in the game), and after ``KILL_GRACE_S`` by killing the worker, which holds
  for a strategy stuck in a C call or swallowing every exception; either way a timeout fault;
- a worker that dies takes nothing finished with it: its game is retried once in a fresh worker
  and recorded as a ``worker`` fault if that dies too; the pool replaces the worker; a worker
  whose game changed what its games share is replaced too, the games queued behind it replayed
  in a clean one;
- Ctrl-C once stops starting games and lets the ones in flight finish; twice, or SIGTERM, stops
  at once. A fault under ``on_fault="stop"`` drains the same way as one Ctrl-C.

Every game so ends played, as a fault, or not started (or dropped unfinished) because the run
stopped — which ``Dispatcher.stopped`` says.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterator

from plsim.runner.pool import Died, Done, Job, PoolError
from plsim.runner.worker import Played, Tainted
from plsim.stopping import StopRequests

POLL_S = 0.1
KILL_GRACE_S = 1.0
WAIT = object()  # a job source yields this for "no game to start now; ask again later"


@dataclass
class _Running:
    job: Job
    started: float | None  # None while queued behind another game
    stop_sent: float | None = None


@dataclass(frozen=True)
class FaultReport:
    """A fault as the dispatcher saw it; the caller adds the game's seed, seats and replay."""

    job: Job
    kind: str
    seat: int | None
    message: str
    traceback: str
    seconds: float


class Dispatcher:
    """Plays ``jobs`` on ``pool``; ``on_played``/``on_fault`` receive every result as it arrives.

    A worker may hold a second game queued behind the one it plays (``pool.idle`` lists a
    worker once per free place), so it never waits for the parent between games; a queued game
    starts when the one before it ends. With ``stop_on_fault`` the first fault drains the run.
    ``stopped`` is None after a complete run, else "fault", "interrupted" or "pool" (with
    ``pool_error`` the reason).
    """

    def __init__(self, pool, *, game_timeout: float, stop_on_fault: bool, stops: StopRequests,
                 on_played: Callable[[Job, Played], None], on_fault: Callable[[FaultReport], None],
                 say: Callable[[str], None] = lambda text: None, max_in_flight: int | None = None) -> None:
        self.pool = pool
        self.game_timeout = game_timeout
        self.stop_on_fault = stop_on_fault
        self.stops = stops
        self.on_played = on_played
        self.on_fault = on_fault
        self.say = say
        self.max_in_flight = max_in_flight
        self.running: dict[object, deque[_Running]] = {}  # per worker: the game it plays, then queued ones
        self.retry: deque[Job] = deque()
        self.stopped: str | None = None
        self.pool_error = ""
        self.dropped = 0  # games in flight when the run stopped at once, or whose worker died then

    @property
    def in_flight(self) -> int:
        return sum(len(queue) for queue in self.running.values())

    def run(self, jobs: Iterator[Job | object]) -> None:
        """Play the games ``jobs`` yields; a source that must see results first (the precision
        gate) yields ``WAIT`` until it can hand out more."""
        exhausted = False
        try:
            while True:
                if self.stops.at_once:
                    self.stopped = "interrupted"
                    self.dropped += self.in_flight
                    self.running.clear()
                    self.pool.close(at_once=True)
                    return
                if self.stops.drain and self.stopped is None:
                    self.stopped = "interrupted"
                if self.stopped is None:
                    exhausted = self._fill(jobs, exhausted)
                if not self.running and (self.stopped is not None or (exhausted and not self.retry)):
                    return
                for event in self.pool.poll(POLL_S):
                    self._handle(event)
                self._enforce_deadlines()
        except PoolError as exc:
            self.stopped = "pool"
            self.pool_error = str(exc)
            self.dropped += self.in_flight
            self.running.clear()

    def _fill(self, jobs: Iterator[Job], exhausted: bool) -> bool:
        for worker in self.pool.idle(len(self.retry) + (not exhausted)):
            if self.max_in_flight is not None and self.in_flight >= self.max_in_flight:
                break
            if self.retry:
                job = self.retry.popleft()
            elif exhausted:
                break
            else:
                job = next(jobs, None)
                if job is None:
                    return True
                if job is WAIT:
                    break
            if self.pool.start(worker, job):
                queue = self.running.setdefault(worker, deque())
                queue.append(_Running(job, time.monotonic() if not queue else None))
            else:
                self.retry.appendleft(job)
        return exhausted

    def _fault(self, report: FaultReport) -> None:
        self.on_fault(report)
        if self.stop_on_fault and self.stopped is None:
            self.stopped = "fault"

    def _take(self, worker: object, job: Job | None) -> _Running | None:
        """Remove ``job`` (None: the game the worker plays) from the worker's queue; the next
        queued game, if any, starts now."""
        queue = self.running.get(worker)
        if not queue:
            return None
        found = next((r for r in queue if job is None or r.job == job), None)
        if found is None:
            return None
        queue.remove(found)
        if not queue:
            del self.running[worker]
        elif queue[0].started is None:
            queue[0].started = time.monotonic()
        return found

    def _handle(self, event: Done | Died) -> None:
        running = self._take(event.worker, event.job if isinstance(event, Died) else None)
        if running is None:
            return
        if isinstance(event, Done):
            outcome = event.outcome
            if isinstance(outcome, Played):
                self.on_played(running.job, outcome)
                return
            if isinstance(outcome, Tainted):
                self._retire(event.worker)
                if running.job.attempt > 1:  # a clean worker found it too: not a passing accident
                    self._fault(FaultReport(running.job, "worker", None, f"{outcome.reason}, twice", "", 0.0))
                    return
                self.say(f"{outcome.reason}; the worker was replaced and game {running.job.game} is played "
                         "in a clean one")
                self.retry.appendleft(running.job._replace(attempt=running.job.attempt + 1))
                return
            message = outcome.message
            if outcome.kind == "timeout":
                message = f"the game did not finish within {self.game_timeout:g} s and was stopped"
            self._fault(FaultReport(running.job, outcome.kind, outcome.seat, message, outcome.traceback,
                                    outcome.seconds))
            if outcome.retire:
                self._retire(event.worker)
            return
        job = running.job
        if running.stop_sent is not None:
            self._timeout(running, f"{event.detail} after it was asked to stop")
        elif self.stopped is not None:
            self.dropped += 1  # the run is stopping: not retried, a resume plays it
        elif not event.counts or running.started is None:
            self.retry.append(job)  # a bystander, or a queued game that never started
        elif job.attempt == 1:
            self.say(f"{event.detail} in game {job.game}; retrying the game in a fresh worker")
            self.retry.append(job._replace(attempt=2))
        else:
            self._fault(FaultReport(job, "worker", None, f"{event.detail}, twice (the game was retried once)",
                                    "", time.monotonic() - running.started))

    def _retire(self, worker: object) -> None:
        """Replace the worker; the games queued behind its last one go back to the queue."""
        for victim in self.pool.retire(worker):
            self._handle(victim)

    def _timeout(self, running: _Running, how: str, seat: int | None = None) -> None:
        self._fault(FaultReport(
            running.job, "timeout", seat,
            f"the game did not finish within {self.game_timeout:g} s; {how}", "",
            time.monotonic() - running.started))

    def _enforce_deadlines(self) -> None:
        now = time.monotonic()
        for worker, queue in list(self.running.items()):
            running = queue[0]
            if running.stop_sent is None and now - running.started > self.game_timeout:
                running.stop_sent = now
                self.pool.stop_game(worker)
            elif running.stop_sent is not None and now - running.stop_sent > KILL_GRACE_S:
                self._take(worker, running.job)
                seat = self.pool.stuck_seat(worker)
                for victim in self.pool.kill(worker):
                    self._handle(victim)
                self._timeout(running, "its worker did not stop it and was killed", seat)
