"""When a scripted strategy fights: sieges, assaults, battle cards and razing.

Every choice compares win chances (``win_probability``) now and after the walls melt, so the
strength estimates stay in one place.
"""

from __future__ import annotations

from typing import Any

from plsim.strategy import (
    AMBUSH, ASSASSIN, ASSAULT, CONQUER, HOLD, MERCENARIES, PASS, PROPHET, RAZE, SIEGE, SIEGE_WEAPONS, SQUIRE, Decision,
    PlayCard, StartAssault, StartSiege, View, carries, invader_strength, kind_of,
)
from strategies.planning import raze_gain_and_keep


class CombatMixin:
    """Sieges, assaults, battles and razing; hooks: ``want_raze``, ``raze_ruled_out``."""

    # -- combat ------------------------------------------------------------------------------
    def strength_needed(self, view: View, hex_id: int, threshold: float, rounds_besieged: int | None = None) -> int:
        """The smallest attack strength (before dice) that wins at ``hex_id`` with the given
        chance, against its defence after ``rounds_besieged`` rounds of siege (None: as now)."""
        defence, side = view.hex_defence(hex_id, rounds_besieged=rounds_besieged, attacker=self.seat)
        return 0 if side is None else view.strength_to_win(threshold, defence)

    def attack_power_at(self, view: View, hex_id: int) -> int:
        open_plain = view.open_plain(hex_id)
        return sum(view.general_strength(g, open_plain) for g in view.generals_at(hex_id)
                   if g.owner == self.seat and g.captor is None)

    def start_attack(self, view: View, hex_id: int) -> type:
        """For generals already standing in a hostile hex: ``StartAssault`` or ``StartSiege``."""
        return StartAssault if self.assault_now(view, hex_id) else StartSiege

    def decide_siege_or_assault(self, view: View, decision: Decision) -> Any:
        return ASSAULT if self.assault_now(view, decision.context.get("hex")) else SIEGE

    def assault_now(self, view: View, hex_id: int) -> bool:
        attack = self.attack_power_at(view, hex_id)
        defence, _ = view.hex_defence(hex_id, rounds_besieged=0, wall_cancelled=self._wall_cancelled(view, hex_id),
                                 attacker=self.seat)
        bonus = self._card_bonus(view, hex_id)
        p = view.win_probability(attack + bonus, defence)
        melted, _ = view.hex_defence(hex_id, rounds_besieged=99, attacker=self.seat)
        p_later = view.win_probability(attack, melted)
        return p >= 0.9 or (p >= self.p["assault"] and p_later - p < 0.2)

    def _wall_cancelled(self, view: View, hex_id: int) -> bool:
        return any(g.passage for g in view.generals_at(hex_id) if g.owner == self.seat and g.captor is None)

    def _card_bonus(self, view: View, hex_id: int) -> int:
        """Strength our battle cards could still add (Siege Weapons counted as the wall)."""
        bonus = 0
        kinds = {kind_of(c) for c in view.hand}
        sid = view.board.settlement_at[hex_id]
        if SIEGE_WEAPONS in kinds and sid >= 0 and view.settlements[sid].wall and not view.settlements[sid].city:
            bonus += view.fortification(sid, view.siege_rounds(hex_id))
        if MERCENARIES in kinds and self.p["mercenaries"] > 0 and self.wrath_room(view, view.rules.wrath.mercenaries):
            bonus += view.rules.cards.mercenaries_strength
        return bonus

    def decide_siege_assault(self, view: View, decision: Decision) -> Any:
        hex_id = decision.context.get("hex")
        attack = self.attack_power_at(view, hex_id)
        rounds = view.siege_rounds(hex_id)
        defence, _ = view.hex_defence(hex_id, rounds_besieged=rounds, attacker=self.seat)
        p = view.win_probability(attack + self._card_bonus(view, hex_id), defence)
        later, _ = view.hex_defence(hex_id, rounds_besieged=rounds + 1, attacker=self.seat)
        if p >= self.p["storm"] and (later >= defence or p >= 0.9):
            return ASSAULT
        if later >= defence and p >= 0.45 and rounds >= 3:
            return ASSAULT  # nothing more will melt; do not sit forever
        return HOLD

    def decide_battle_cards(self, view: View, decision: Decision) -> Any:
        hex_id = decision.context.get("hex")
        attacking = view.assaults.get(hex_id) == self.seat
        sid = view.board.settlement_at[hex_id]
        invader = sid >= 0 and any(p.at == sid for p in view.pairs) and not attacking
        if attacking:
            mine = self.attack_power_at(view, hex_id)
            rounds = view.siege_rounds(hex_id)
            theirs, _ = view.hex_defence(hex_id, rounds_besieged=rounds,
                                    wall_cancelled=self._wall_cancelled(view, hex_id), attacker=self.seat)
        elif invader:
            theirs = sum(invader_strength(view.rules, p.troops) for p in view.pairs if p.at == sid)
            mine, _ = view.hex_defence(hex_id)
        else:
            mine, _ = view.hex_defence(hex_id)
            theirs = sum(view.general_strength(g, view.open_plain(hex_id)) for g in view.generals_at(hex_id)
                         if g.owner != self.seat and g.captor is None and g.owner == view.assaults.get(hex_id))
        p = view.win_probability(mine, theirs)
        best, best_gain = PASS, 0.0
        for option in decision.options:
            if not isinstance(option, PlayCard):
                continue
            kind = kind_of(option.card)
            gain = 0.0
            if kind == SIEGE_WEAPONS and attacking and sid >= 0:
                wall = view.fortification(sid, view.siege_rounds(hex_id), self._wall_cancelled(view, hex_id))
                if view.settlements[sid].city:
                    wall = 0
                gain = view.win_probability(mine, theirs - wall) - p
            elif kind == MERCENARIES:
                if self.p["mercenaries"] <= 0:
                    continue
                added = view.rules.wrath.mercenaries  # W-1
                if not self.wrath_room(view, added):
                    if not (invader and view.wrath + added < view.rules.wrath.threshold):
                        continue
                gain = (view.win_probability(mine + view.rules.cards.mercenaries_strength, theirs) - p)
                gain *= max(self.p["mercenaries"], 0.6 if invader else 0.0)
                gain -= 0.05
            elif kind == AMBUSH:
                victims = self.ambush_victims(view, hex_id, attacking)
                if any(carries(g, PROPHET) for g in victims) and not self.wrath_room(view, view.rules.wrath.prophet_killed):
                    continue  # W-1: killing a Prophet's carrier angers God
                open_plain = view.open_plain(hex_id)
                removed = sum(view.general_strength(g, open_plain) for g in victims)  # CB-3: their troops stay idle
                gain = view.win_probability(mine, theirs - removed) - p + 0.05 * len(victims)
            elif kind == ASSASSIN:
                continue  # kept for the card windows
            if gain > best_gain + 0.08:
                best, best_gain = option, gain
        return best

    def ambush_victims(self, view: View, hex_id: int, attacking: bool) -> list:
        """The enemy generals an Ambush kills here: every free enemy general in the hex (of the
        defending side when we attack), but not one a Squire dies for (9.2)."""
        sid = view.board.settlement_at[hex_id]
        owner = view.settlements[sid].owner if attacking and sid >= 0 else None
        return [g for g in view.generals_at(hex_id) if g.owner != self.seat and g.captor is None
                and not carries(g, SQUIRE) and (owner is None or g.owner == owner)]

    # -- razing ------------------------------------------------------------------------------
    def decide_conquer_or_raze(self, view: View, decision: Decision) -> Any:
        sid = decision.context.get("settlement")
        return RAZE if self.want_raze(view, sid) else CONQUER

    def want_raze(self, view: View, sid: int) -> bool:
        if self.raze_ruled_out(view, sid):
            return False
        appetite = self.p["raze"]
        st = view.settlements[sid]
        gain, keep_value = raze_gain_and_keep(view, st)
        if view.board.settlements[sid].region is not None and st.city:
            return appetite >= 0.5  # razing a rival Judge's city ends the title (CB-7)
        return appetite * gain > keep_value

    def raze_ruled_out(self, view: View, sid: int) -> bool:
        """The vetoes every raze policy shares: no appetite, its own goal regions, a region whose
        Judge's city is ours, and the land coming within one region of collapse (V-2)."""
        if self.p["raze"] <= 0:
            return True
        region = view.board.settlements[sid].region
        if region is None:
            return False
        if region in self.goal_regions(view):
            return True
        info = self.region_info(view, region)
        if info is not None and info.city_owner == self.seat:
            return True
        return view.standing_judge_regions(razed=sid) < view.rules.victory.min_judge_regions + 1
