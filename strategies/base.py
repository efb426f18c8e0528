"""The shared base of the scripted strategies: ``ScriptedStrategy``.

``ScriptedStrategy`` answers every decision kind with a sensible default, built on one plan:
pick the region cheapest to own whole, walk into its free settlements, besiege and then storm
its walled ones with troops taken on the way, keep a troop in everything it owns (ST-9), buy
the Judge title (TI-1) as soon as it can, then a second region, and crown one of its Judges
(TI-10). The subclasses (economist, warlord, judge-rush, schemer, zealot, prophet) weigh it
differently: their ``params`` and the hooks of their ``variant``.

It plans, then acts: at its first decision of a phase it makes a plan and answers the phase's
decisions from it. Everything it works out (the regions' status, the threats, the invaders' next
targets, the targets and the generals' orders, what each settlement should hold, what its cards
are worth) is the plan's knowledge, kept while the plan's basis holds: the position less its own
working values in the phase (its coins and garrisons in Acquisitions, its generals' steps in
Movement); the next decision after anything else changed starts a new plan.

All of it is played by the core (core/agents/src/scripted, one file per concern: goals, economy,
movement, combat, politics, and the zealot's and the prophet's own), on the core's rule
arithmetic, so that a search's play-outs can play these strategies at native speed; this class
holds the seat's ``NativeScripted`` and asks it each decision. A subclass is data: its name,
description, ``params`` and ``variant``; it has no Python hooks to override.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from plsim.strategy import Decision, NativeScripted, Strategy, View, param

BASE_PARAMS: dict[str, Any] = {
    "assault": param(0.72, 0, 1, "win chance needed to assault at once (MV-12) rather than besiege"),
    "storm": param(0.62, 0, 1, "win chance a besieger needs to assault in Combat"),
    "march": param(0.85, 0, 1, "win chance (against the melted defence) a general wants before marching"),
    "garrison": param(1, 0, 99, "troops kept in every ordinary settlement"),
    "escort": param(2, 0, 99, "troops a general takes along when a Plague is coming (enough to survive a hit, 9.4)"),
    "city_garrison": param(3, 0, 99, "troops kept in a Judge's city and at home"),
    "expand": param(1.0, 0, 10, "appetite for free settlements outside the goal regions (0 = none)"),
    "develop": param(0.3, 0, 10, "appetite for developments (0 = never, 1 = whenever affordable)"),
    "walls": param(0.3, 0, 10, "appetite for walls beyond the one a Judge title needs"),
    "wrath_cap": param(8, 0, 99, "Wrath above which the strategy never adds Wrath itself"),
    "mercenaries": param(0.5, 0, 10, "appetite for Mercenaries (0 = never)"),
    "tax": param(0.5, 0, 10, "appetite for Tax on rivals' regions (own Judge regions are always taxed)"),
    "assassin": param(0.5, 0, 10, "appetite for Assassins"),
    "raze": param(0.3, 0, 10, "appetite for razing conquered settlements outside its goal regions"),
    "usurp": param(1.0, 0, 10, "cost multiplier for taking a rival Judge's city (and its title); 0 = never"),
}
# what a subclass may define: the rest of the strategy is the core's
_DATA = frozenset({"name", "description", "params", "variant", "core_policy"})


class Target(NamedTuple):
    """A settlement the movement plan sends generals to (``planned_targets``)."""

    sid: int
    hex: int
    priority: float
    hostile: bool
    need: int  # attack strength wanted (before dice)
    slots: int  # generals wanted there


class Strike(NamedTuple):
    """One attack on the path a prophet forecasts for a pair (``pair_path``)."""

    sid: int
    owner: int | None
    reach: float  # chance the pair is still loose when it gets there
    win: float  # chance it then razes the settlement
    strength: int  # the pair's mean strength on arrival, before the dice (W-4)


class ScriptedStrategy(Strategy):
    """Defaults for every decision kind, played by the core; subclasses set ``params`` and
    ``variant``."""

    name: ClassVar[str] = "scripted"
    description: ClassVar[str] = "shared base of the scripted strategies"
    params: ClassVar[dict[str, Any]] = dict(BASE_PARAMS)
    variant: ClassVar[str] = "scripted"  # which of the core's scripted strategies plays it
    # the engine may let the core answer for it in whole stretches of a game (its answers are the
    # core's in any case: a subclass defines no method)
    native_policy: ClassVar[str] = "scripted"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        hooks = sorted(k for k, v in vars(cls).items() if not k.startswith("__") and k not in _DATA
                       and callable(v))
        if hooks:
            raise TypeError(f"{cls.__name__} defines {', '.join(hooks)}: a scripted strategy is played by the "
                            "core (core/agents/src/scripted) and has no Python hooks; a subclass sets only name, "
                            "description, params and variant (docs/strategies.md)")

    def __init__(self, seat, rng, **params):
        super().__init__(seat, rng, **params)
        # the prophet's forecasts draw from a generator of their own, seeded from the strategy's
        forecast_seed = rng.getrandbits(64) if self.variant == "prophet" else None
        values = {key: float(value) for key, value in self.settings.items()}
        self.native = NativeScripted(self.variant, seat, values, forecast_seed)

    def choose(self, view: View, decision: Decision) -> Any:
        return decision.options[view.scripted_choice(self.native, decision)]

    # -- the plan, read (for tests and notebooks) -------------------------------------------------
    @property
    def plan_serial(self) -> int:
        """Plans made so far: it changes exactly when a decision starts a new plan."""
        return self.native.serial

    def planned_targets(self, view: View) -> list[Target]:
        """The movement plan's targets."""
        return [Target(*t) for t in view.scripted_knowledge(self.native, "planned_targets")]

    def wanted_garrison(self, view: View, sid: int) -> int:
        """Troops the settlement should hold: a floor, more for cities and home, and enough to
        stand against the generals that could reach it (capped)."""
        return view.scripted_knowledge(self.native, "wanted_garrison", sid)

    def escort(self, view: View) -> int:
        """Troops a general leads when a Plague is coming (enough to survive a hit, 9.4)."""
        return view.scripted_knowledge(self.native, "escort")

    def invader_next(self, view: View) -> dict[int, int]:
        """settlement id -> strength of the invader pairs expected to attack it next Combat (W-5)."""
        return dict(view.scripted_knowledge(self.native, "invader_next"))

    def assassin_value(self, view: View, general: str) -> float | None:
        """What killing the general is worth before the blame, or None when not worth trying."""
        return view.scripted_knowledge(self.native, "assassin_value", general)

    def invader_kill_value(self, view: View, invader: str) -> float | None:
        """W-6: what killing the loose invader is worth (the raze it makes less likely at a
        settlement of ours), or None when not worth trying."""
        return view.scripted_knowledge(self.native, "invader_kill_value", invader)

    def region_tax_value(self, view: View, region: str) -> tuple[int, int]:
        """(what Tax on the region would pay the seat, what it takes from its own income there):
        the engine's IN-1..IN-3 for this round."""
        return view.scripted_knowledge(self.native, "region_tax_value", region)

    def settlement_cost(self, view: View, sid: int) -> float:
        """Rough coins-and-rounds price of taking one settlement."""
        return view.scripted_knowledge(self.native, "settlement_cost", sid)

    def home_score(self, view: View, sid: int, hex_id: int, other_hexes: list[int]) -> float:
        """SU-2: a home candidate's score (the two regions cheapest to own whole from it, less the
        crowding of the other homes)."""
        return view.scripted_knowledge(self.native, "home_score", sid, hex_id, other_hexes)

    def aims(self, view: View) -> bool:
        """Whether this seat aims the invaders: it owns the first Prophet in play (AN-2, W-3)."""
        return view.scripted_knowledge(self.native, "aims")

    def my_carrier(self, view: View) -> str | None:
        """The name of our general carrying the first Prophet in play, if ours."""
        return view.scripted_knowledge(self.native, "my_carrier")

    def pair_path(self, view: View, first: int, buy_first: bool, steps: int = 8) -> tuple[list[Strike], float]:
        """A prophet's forecast of a new pair aimed at ``first``, played ``forecasts`` times on
        copies of the game by the engine's own battles and ring (W-4, W-5, V-2): each strike's
        chances, and the chance the land collapses."""
        strikes, collapse = view.scripted_knowledge(self.native, "pair_path", first, buy_first, steps)
        return [Strike(*s) for s in strikes], collapse

    def path_losses(self, view: View, buy_first: bool) -> dict[int, tuple[dict[int | None, float], float]]:
        """A prophet's forecast for every player-owned settlement as a new pair's first target:
        each seat's expected loss along the path, and the chance the path collapses the land."""
        return {sid: (dict(losses), collapse)
                for sid, losses, collapse in view.scripted_knowledge(self.native, "path_losses", buy_first)}
