"""prophet: wields the Wrath of God, and brings the invaders down on its rivals.

Plan: builds a region and a title like the others, but its weapon is the cup. It keeps a
Prophet carrier (AN-2, W-3) safe: a Squire on it first, an escort against Plague, and a
sanctuary (its best-defended settlement away from the invaders' path) whenever invaders are
loose or a release is near; a rival's carrier is assassinated, which strips that rival of the
choice and adds 4 Wrath (W-1). While it holds the first Prophet it keeps the cup one short of
the threshold (Tax on rivals' regions, Mercenaries, Assassins), which also locks the other
strategies out of their own Wrath cards. When the cup is near full it plays out, on copies of
the game (the engine's ``invader_path``), where a pair let loose now would go: the first target
it would name, then settlement after settlement along the ring (W-5), each battle fought by the
engine with its dice and losses (CB-3, CB-6, W-4), and what each raze would cost whom. When
that path hurts its rivals enough, most of all the VP leader (a Judge's city razed ends its
title, CB-7), and little of the damage falls on itself, it tips the cup: Tax in Draw Cards, an
Assassin in the Movement window after everyone has moved (the victim cannot reinforce before
Combat), or Mercenaries in a battle. It names that first target, and walls and garrisons its
own settlements the pair would reach (the ring, W-5) so that the pair dies on its walls.
Strengths: a release aimed at the leader's heartland razes a Judge's city and the villages
around it; a full cup keeps rivals' Tax, Mercenaries and Assassins in their hands.
Weaknesses: only two Prophets in 88 cards, and without one it releases only when the average
random target favours it; invaders go round the ring and reach it in the end; it spends cards
and coins on the cup rather than on armies, and razing brings the land closer to collapse (V-2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from plsim.strategy import (
    ASSASSIN, MERCENARIES, PROPHET, SQUIRE, TAX, Choose, Decision, DecisionKind, PlayCard, View, carries,
    invader_path, kind_of, param,
)
from strategies.base import INF, ScriptedStrategy, Target
from strategies.planning import new_table

VP_VALUE = 30.0  # what one victory point is worth, in the coins of ``loss_value``
RELEASE_BAR = 30.0  # the weighted damage (at zeal 1) a release must do to rivals to be worth it
OWN_WEIGHT = 2.0  # a coin lost by the prophet counts this much against a rival's
COLLAPSE_COST = 200.0  # the land's collapse (V-2): everybody loses
PATH_STEPS = 8  # settlements along the ring a planned path follows at most
EXPOSURE_STEPS = 3  # how far along a loose pair's path its own settlements get ready
HOLD_ODDS = 0.4  # the invaders' win chance at which a settlement counts as holding
SANCTUARY_PRIORITY = 25.0  # the carrier's move to safety outranks every other target
TRIGGER_WINDOWS = {  # where tipping the cup pays: the pair strikes before the victim can answer
    (DecisionKind.CARDS, "draw"): TAX,  # released now: attacks in this round's Combat
    (DecisionKind.CARDS, "movement"): ASSASSIN,  # after everyone moved: no reinforcement left
    (DecisionKind.BATTLE_CARDS, "combat"): MERCENARIES,  # after the invaders' attacks: next round
}


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack on the path a pair would take: where, whose, and its chances."""

    sid: int
    owner: int
    reach: float  # chance the pair is still loose when it gets there
    win: float  # chance it then razes the settlement
    strength: int  # the pair's mean strength on arrival, before the dice (W-4)


@dataclass(frozen=True, slots=True)
class Release:
    """A planned first target (W-3) and what the pair's path is worth to the prophet."""

    target: int | None
    harm: float  # expected damage to rivals, weighted by how close each is to winning
    rival_loss: float  # the same, unweighted
    own_loss: float  # expected damage to the prophet itself
    collapse: float  # chance the path ends the game by collapse (V-2)

    @property
    def net(self) -> float:
        return self.harm - OWN_WEIGHT * self.own_loss - COLLAPSE_COST * self.collapse

    @property
    def own_share(self) -> float:
        total = self.rival_loss + self.own_loss
        return self.own_loss / total if total > 0 else 0.0


class Prophet(ScriptedStrategy):
    name: ClassVar[str] = "prophet"
    description: ClassVar[str] = "keeps a Prophet, fills the cup and sends the invaders at the leader's heartland"
    core_policy: ClassVar[str] = "prophet"  # core/src/scripted plays it: searches simulate it there
    params: ClassVar[dict[str, Any]] = {
        "zeal": param(1.0, 0, 10, "how eagerly it tips the cup: 0 never releases on purpose, 2 for half the damage"),
        "safety": param(0.25, 0, 1, "largest share of a release's expected damage it accepts on its own settlements"),
        "blind": param(0.5, 0, 10, "appetite for a release nobody aims (no Prophet in play: a random first target)"),
        "forecasts": param(24, 1, 1000, "paths each planned release is played out on copies of the game"),
        "wrath_cap": 12,  # fills the cup to one short of the rulebook's threshold (W-2)
        "tax": 0.8,
        "mercenaries": 0.6,
        "assassin": 0.8,
        "walls": 0.5,
        "city_garrison": 4,
        "develop": 0.2,
        "raze": 0.2,
    }

    def __init__(self, seat, rng, **params):
        super().__init__(seat, rng, **params)
        self._window: str | None = None  # the card kind that may tip the cup in this decision
        self.forecast_rng = random.Random(rng.getrandbits(64))  # the dice of its forecasts, apart from its own

    def choose(self, view: View, decision: Decision) -> Any:
        phase = decision.context.get("phase", view.phase) if decision.kind == DecisionKind.CARDS else view.phase
        self._window = TRIGGER_WINDOWS.get((decision.kind, phase))
        return super().choose(view, decision)

    # -- who aims the invaders ------------------------------------------------------------------
    def my_carrier(self, view: View):
        """Our general carrying the first Prophet in play (AN-2, W-3: its owner aims), if ours."""
        carrier = view.prophet_carrier()
        return carrier if carrier is not None and carrier.owner == self.seat else None

    def aims(self, view: View) -> bool:
        return view.prophet_owner() == self.seat

    def wrath_room(self, view: View, amount: int = 1) -> bool:
        """Below the threshold: up to its cap (``wrath_cap``). Tipping the cup: only in a
        trigger window, with a release worth making now."""
        if view.wrath + amount >= view.rules.wrath.threshold:
            return self._window is not None and self.release_plan(view) is not None
        return super().wrath_room(view, amount)

    def priming(self, view: View, amount: int = 1) -> bool:
        """Whether to add ``amount`` Wrath for its own sake: the cup filled to one short of the
        threshold is a release one card away, and keeps rivals' Wrath cards in their hands."""
        return self.p["zeal"] > 0 and super().wrath_room(view, amount)

    # -- the pair's path -----------------------------------------------------------------------
    def loss_value(self, view: View, st) -> float:
        """What losing this settlement (and the generals defending it) costs its owner, in
        coins: troops, walls, developments, home, a region's progress, a Judge's title."""
        owner = st.owner
        value = 4.0 + 2.0 * st.garrison + (5.0 if st.wall else 0.0) + 6.0 * st.developments
        if st.id == view.home(owner):
            value += 6.0
        region = view.board.settlements[st.id].region
        if region is not None:
            info = view.regions[region]
            if st.city and info.city == st.id:
                value += VP_VALUE if not info.lapsed else VP_VALUE / 2  # CB-7: razing ends the title
            elif info.city is None:
                members = [s for s in view.board.regions[region].settlements if view.settlements[s].standing]
                held = sum(1 for s in members if view.settlements[s].owner == owner)
                value += 10.0 * held / max(1, len(members))
        for g in view.generals_at(st.hex):
            if g.owner == owner and g.captor is None:
                value += 5.0 + g.troops * 2.0 + (VP_VALUE / 3 if g.title is not None else 0.0)
        return value

    def rival_weight(self, view: View, seat: int, leader: int | None) -> float:
        """How much hurting a rival is worth: more the closer it is to victory."""
        return 1.0 + 0.6 * view.vp(seat) + (0.6 if seat == leader else 0.0)

    def forecast_table(self, view: View):
        """The game as this seat could know it (``View.determinise``), once per plan: the copy every
        path of this plan is played out on."""
        return self.known(view, "forecast table", lambda v: v.determinise(self.forecast_rng))

    def pair_path(self, view: View, first: int | None, buy_first: bool, steps: int = PATH_STEPS,
                  pair: tuple[str, ...] | None = None) -> tuple[list[Strike], float]:
        """The attacks a new pair aimed at ``first`` (or the loose ``pair``) would make, played out
        ``forecasts`` times on copies of the game by the engine's own battle, attrition, raze and
        ring (``invader_path``: W-4, W-5, CB-3..CB-7, V-2): each settlement's chance of being
        reached and razed, and the chance the land collapses. A victim buys what troops it can
        before each attack but a first one that comes in this very phase (``buy_first`` false)."""
        table = self.forecast_table(view)
        runs = self.p["forecasts"]
        garrison = view.rules.limits.garrison
        wanted = (lambda sid, step: garrison) if buy_first else (lambda sid, step: garrison if step else 0)
        reached: dict[int, list] = {}  # sid -> [owner, reached, razed, strength total]
        collapse = 0
        for _ in range(runs):
            path = invader_path(table, self.forecast_rng, first=first, pair=pair, steps=steps, buy=wanted)
            collapse += path.collapsed
            for strike in path.strikes:
                tally = reached.setdefault(strike.sid, [strike.owner, 0, 0, 0])
                tally[1] += 1
                tally[2] += strike.razed
                tally[3] += strike.strength
        strikes = [Strike(sid, owner, hits / runs, razed / hits, round(strength / hits))
                   for sid, (owner, hits, razed, strength) in reached.items()]
        return strikes, collapse / runs

    def path_losses(self, view: View, buy_first: bool) -> dict[int, tuple[dict[int, float], float]]:
        """For every player-owned settlement as a fresh pair's first target: each seat's
        expected loss along the pair's path, and the chance the path collapses the land.
        Worked out once per plan: the planning, not the battles, is what costs time."""
        return self.known(view, ("paths", buy_first), self._compute_path_losses, buy_first)

    def _compute_path_losses(self, view: View, buy_first: bool) -> dict[int, tuple[dict[int, float], float]]:
        out = {}
        for first in self.player_settlements(view):
            strikes, collapse = self.pair_path(view, first, buy_first)
            losses: dict[int, float] = {}
            for strike in strikes:
                loss = strike.reach * strike.win * self.loss_value(view, view.settlements[strike.sid])
                losses[strike.owner] = losses.get(strike.owner, 0.0) + loss
            out[first] = (losses, collapse)
        return out

    def release_value(self, view: View, seat: int, first: int | None, losses: dict[int, float],
                      collapse: float) -> Release:
        """A path's worth seen by ``seat``: its rivals' losses weighted, its own."""
        leader = self.leader_seat(view, seat)
        harm = rival = 0.0
        for owner, loss in losses.items():
            if owner != seat:
                rival += loss
                harm += loss * self.rival_weight(view, owner, leader)
        return Release(first, harm, rival, losses.get(seat, 0.0), collapse)

    def aimed_release(self, view: View, aimer: int, candidates: list[int], buy_first: bool) -> Release | None:
        """The first target ``aimer`` would choose among ``candidates`` (never its own while
        another exists; ties to the lower id), seen by the prophet: its own choice when it aims,
        and its best guess of a rival's (the same judgement, from the rival's seat)."""
        paths = self.path_losses(view, buy_first)
        pool = [sid for sid in candidates if sid in paths and view.settlements[sid].owner != aimer]
        pool = pool or [sid for sid in candidates if sid in paths]
        if not pool:
            return None
        first = max(pool, key=lambda sid: (self.release_value(view, aimer, sid, *paths[sid]).net, -sid))
        return self.release_value(view, self.seat, first, *paths[first])

    def blind_release(self, view: View, buy_first: bool) -> Release | None:
        """A release nobody aims (W-3: a random player-owned settlement first): the mean over
        every first target, its harm to rivals weighted by ``blind``."""
        plans = [self.release_value(view, self.seat, sid, *found)
                 for sid, found in self.path_losses(view, buy_first).items()]
        if not plans:
            return None
        n = len(plans)
        return Release(None, self.p["blind"] * sum(p.harm for p in plans) / n, sum(p.rival_loss for p in plans) / n,
                       sum(p.own_loss for p in plans) / n, sum(p.collapse for p in plans) / n)

    def player_settlements(self, view: View) -> list[int]:
        return [st.id for st in view.settlements if st.standing and st.owner is not None and st.owner >= 0]

    def release_plan(self, view: View, dead: str | None = None) -> Release | None:
        """The release it would make now, or None when none is worth making: the path does
        enough harm to rivals (``zeal``, ``blind`` when nobody aims it) and little to itself
        (``safety``), and the land survives it (V-2). Worked out once per plan and decision window
        (the aimer is ``view.prophet_owner``, leaving out the general ``dead``, about to be killed)."""
        return self.known(view, ("release", self._window, dead), self._release, dead)

    def _release(self, view: View, dead: str | None) -> Release | None:
        aimer = view.prophet_owner(dead)
        zeal = self.p["zeal"]
        if zeal <= 0 or len(view.pairs) >= view.rules.wrath.max_pairs:
            return None
        buy_first = view.phase != "movement"  # a release in the Movement window strikes at once
        if aimer is None:
            plan = self.blind_release(view, buy_first) if self.p["blind"] > 0 else None
        else:
            plan = self.aimed_release(view, aimer, self.player_settlements(view), buy_first)
        if plan is None or plan.own_share > self.p["safety"]:
            return None
        bar = RELEASE_BAR
        if any(view.vp(s) >= view.rules.victory.points - 1 for s in range(view.n_players) if s != self.seat):
            bar /= 2  # a rival one point from victory: any harm will do
        return plan if zeal * plan.net >= bar else None

    # -- tipping the cup -----------------------------------------------------------------------
    def tax_score(self, view: View, region: str) -> float:
        """Tax that tips the cup is played when a release is worth making; below the cap every
        Tax fills it (W-1), on the region whose taxing pays most and costs the leader most."""
        score = super().tax_score(view, region)
        info = self.region_info(view, region)
        if info is not None and info.judge_owner == self.seat:
            return score  # no Wrath for taxing one's own Judge region (W-1)
        wrath = view.rules.wrath
        if view.wrath + wrath.tax >= wrath.threshold:
            return max(score, 0.0) + 50.0 if self.wrath_room(view, wrath.tax) else 0.0
        if self.priming(view, wrath.tax):
            gain, own = self.region_tax_value(view, region)
            leader = self.leader_seat(view)
            hit = sum(1 for sid in view.board.regions[region].settlements
                      if view.settlements[sid].standing and view.settlements[sid].owner == leader)
            return max(score, 0.0) + self.p["zeal"] * (4.0 + 0.3 * (gain - own) + hit)
        return score

    def assassin_score(self, view: View, play: PlayCard) -> float:
        """An Assassin that tips the cup is played when the release it brings is worth making
        (killing the first Prophet's carrier first hands the aim to the next Prophet, W-3);
        below the cap, a rival's Prophet carrier is the best target: it takes the rival's aim
        and adds 4 Wrath (W-1)."""
        target = view.generals.get(play.target)
        if target is None or target.owner == self.seat or target.owner < 0 or carries(target, SQUIRE):
            return 0.0  # a Squire dies instead: no kill, no Wrath (9.2)
        score = super().assassin_score(view, play)
        wrath = view.rules.wrath
        prophet = carries(target, PROPHET)
        added = (0 if self._i_reign(view) else wrath.assassin) + (wrath.prophet_killed if prophet else 0)
        if added and view.wrath + added >= wrath.threshold:
            plan = self.release_plan(view, dead=target.name if prophet else None) if self._window else None
            return max(score, 0.0) + 50.0 if plan is not None else 0.0
        if not added or not self.priming(view, added):
            return score
        first = view.prophet_carrier()
        if first is not None and first.name == target.name:
            return max(score, 0.0) + 6.0 * self.p["zeal"]
        return score + 3.0 * self.p["zeal"] if score > -4.0 else score

    def card_scores(self, view: View) -> dict[PlayCard, float]:
        """Scored once per plan like the others', and per trigger window too: a card kept during
        its own moves may tip the cup in the Movement window that follows."""
        return self.known(view, ("card scores", self._window), new_table)

    def decide_battle_cards(self, view: View, decision: Decision) -> Any:
        """Mercenaries whenever they fill the cup, or tip it for a release worth making."""
        hire = next((o for o in decision.options if isinstance(o, PlayCard) and kind_of(o.card) == MERCENARIES), None)
        if hire is not None and (self.priming(view, view.rules.wrath.mercenaries)
                                 or self.wrath_room(view, view.rules.wrath.mercenaries)):
            return hire
        return super().decide_battle_cards(view, decision)

    def card_value(self, view: View, card: str) -> float:
        if kind_of(card) in (TAX, MERCENARIES, ASSASSIN):
            return 8.0  # the cup's triggers
        return super().card_value(view, card)

    def guilt_score(self, view: View) -> float:
        return 0.0  # the cup is its weapon

    # -- where the pair goes first --------------------------------------------------------------
    def decide_invader_target(self, view: View, decision: Decision) -> Any:
        """W-3: the first target whose path along the ring hurts its rivals most."""
        candidates = [o.value for o in decision.options]
        plan = self.aimed_release(view, self.seat, candidates, view.phase != "movement")
        return Choose(plan.target) if plan is not None else None

    # -- meeting the pair on its walls ----------------------------------------------------------
    def exposure(self, view: View) -> dict[int, int]:
        """Own settlements a loose pair (or the release it plans) may reach within
        EXPOSURE_STEPS attacks: sid -> the pair's strength on arrival."""
        return self.known(view, "exposure", self._compute_exposure)

    def _compute_exposure(self, view: View) -> dict[int, int]:
        paths = [(None, tuple(pair.names)) for pair in view.pairs]
        if self.aims(view) and view.wrath >= view.rules.wrath.threshold - 2:
            plan = self.aimed_release(view, self.seat, self.player_settlements(view), True)
            if plan is not None:
                paths.append((plan.target, None))
        out: dict[int, int] = {}
        for first, pair in paths:
            strikes, _ = self.pair_path(view, first, True, EXPOSURE_STEPS, pair)
            for strike in strikes:
                if strike.owner == self.seat and strike.reach >= 0.25:
                    out[strike.sid] = max(out.get(strike.sid, 0), strike.strength)
        return out

    def defence_to_hold(self, view: View, strength: int) -> int:
        """The smallest defence against which the invaders win at most HOLD_ODDS (CB-4)."""
        defence = strength
        while view.win_probability(strength, defence) > HOLD_ODDS:
            defence += 1
        return defence

    def wanted_garrison(self, view: View, st) -> int:
        floor = super().wanted_garrison(view, st)
        strength = self.exposure(view).get(st.id)
        if strength is None or st.id in self.invader_next(view):
            return floor  # the pair's next target: the base plan holds it or gives it up
        others = view.settlement_defence(st.id) - st.garrison
        need = self.defence_to_hold(view, strength) - others
        limits, price = view.rules.limits, view.rules.costs.troop
        if st.garrison < need <= limits.garrison and (need - st.garrison) * price <= view.coins() + 4:
            return need
        return floor

    def wall_score(self, view: View, st) -> float:
        score = super().wall_score(view, st)
        if not st.wall and st.id in self.exposure(view):
            return max(score, 30.0)
        return score

    # -- the carrier ---------------------------------------------------------------------------
    def decide_attach_item(self, view: View, decision: Decision) -> Any:
        if kind_of(decision.context.get("card", "")) == SQUIRE:
            for option in decision.options:
                g = view.generals[option.value]
                if carries(g, PROPHET) and not carries(g, SQUIRE):
                    return option  # the Squire dies instead of the carrier (9.2)
        return super().decide_attach_item(view, decision)

    def sanctuary(self, view: View, carrier) -> int | None:
        """The own settlement where the carrier is safest: the best defended one off the
        invaders' path, nearer counting a little."""
        exposed = set(self.exposure(view)) | set(self.invader_next(view))
        best, best_key = None, None
        for st in view.my_settlements():
            if st.id in exposed or st.hex in view.sieges:
                continue
            d = self.dist(view, carrier.hex, st.hex)
            if d >= INF:
                continue
            key = (view.settlement_defence(st.id) - 0.5 * d, -st.id)
            if best_key is None or key > best_key:
                best, best_key = st, key
        return best.id if best is not None else None

    def carrier_in_danger(self, view: View) -> bool:
        return bool(view.pairs) or view.wrath >= view.rules.wrath.threshold - 2

    def targets(self, view: View) -> list[Target]:
        out = super().targets(view)
        carrier = self.my_carrier(view)
        if carrier is not None and self.carrier_in_danger(view):
            sid = self.sanctuary(view, carrier)
            if sid is not None:
                out.append(Target(sid, view.settlements[sid].hex, SANCTUARY_PRIORITY, False, 0, 1))
        return out

    def assign(self, view: View, generals: list, targets: list[Target]) -> dict[str, Target]:
        plan = super().assign(view, generals, targets)
        carrier = self.my_carrier(view)
        refuge = [t for t in targets if t.priority >= SANCTUARY_PRIORITY]
        plan = {name: t for name, t in plan.items() if t.priority < SANCTUARY_PRIORITY}
        if carrier is not None and refuge and any(g.name == carrier.name for g in generals):
            plan[carrier.name] = refuge[0]
        return plan
