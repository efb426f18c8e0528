"""Decisions in words for a player outside plsim's Python: the question, the facts it turns on
(coins, hand, titles, the battle's totals), a sentence and the numbers of each option (what a
move costs, what a purchase costs, what a raze loots), and the board as text.

Every number comes from the view's rule arithmetic (the core's): a person or a program is told
what the engine will do, never an estimate of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plsim.engine.decisions import DecisionKind
from plsim.engine.options import Buy, Choose, EndSiege, GiveTroops, Move, MoveCaptive, Pass, PlayCard, \
    StartAssault, StartSiege, TakeTroops
from plsim.engine.state import CANAANITES
from plsim.narration import Narrator

if TYPE_CHECKING:
    from plsim.board import Board
    from plsim.engine.decisions import Decision
    from plsim.engine.view import View

QUESTIONS = {
    DecisionKind.HOME: "Choose your home settlement (SU-2).",
    DecisionKind.PLACE_GENERAL: "Where does your new general {card} start (DR-2)?",
    DecisionKind.ATTACH_ITEM: "Which general carries {card} (DR-2)?",
    DecisionKind.DISCARD: "Your hand is over its limit: which card goes (DR-2)?",
    DecisionKind.CARDS: "Play a card in the {phase} phase, or pass.",
    DecisionKind.PURCHASE: "Acquisitions (AQ-1): buy, play a card, or pass to stop buying.",
    DecisionKind.MOVEMENT: "Movement (RD-4): move a general, handle troops or sieges, play a card, or pass to end.",
    DecisionKind.SIEGE_OR_ASSAULT: "{general} entered {hex}: besiege it or assault it this round (MV-12)?",
    DecisionKind.SIEGE_ASSAULT: "Your siege of {hex}: hold it or assault now (MV-12)?",
    DecisionKind.BATTLE_CARDS: "Battle at {hex}: play a battle card, or pass (CB-2).",
    DecisionKind.CONQUER_OR_RAZE: "You won at {settlement}: conquer it or raze it for loot (CB-7)?",
    DecisionKind.ASSIGN_TITLE: "Which general takes the Judge title of {region} (CB-7)?",
    DecisionKind.APPOINT: "Appoint the Judge of {region} (TI-6).",
    DecisionKind.VOTE: "Vote for the King (TI-10).",
    DecisionKind.SUCCESSOR: "Name the dead King's successor (TI-13).",
    DecisionKind.PROPHET_TERRAIN: "Your Prophet directs the event {event}: which terrain does it strike (AN-2)?",
    DecisionKind.INVADER_TARGET: "Your Prophet aims the new invaders: which settlement do they attack first (W-3)?",
}
SETTLEMENT_KINDS = (DecisionKind.HOME, DecisionKind.PLACE_GENERAL, DecisionKind.INVADER_TARGET)
BATTLE_KINDS = (DecisionKind.SIEGE_OR_ASSAULT, DecisionKind.SIEGE_ASSAULT, DecisionKind.BATTLE_CARDS)
WORDS = {"siege": "besiege", "assault": "assault", "hold": "hold the siege", "conquer": "conquer", "raze": "raze"}


class Describer:
    """Words for one game's decisions: places by their names on the board, seats by number (a
    seat is told no more about the others than the table shows)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.names = Narrator(board, [])

    # places and pieces
    def place(self, sid: int | None) -> str:
        return self.names.place(sid)

    def place_hex(self, hex_id: int) -> str:
        return self.names.place_hex(hex_id)

    def side(self, seat: int | None) -> str:
        return self.names.side(seat) if seat is None or seat < 0 else f"seat {seat}"

    def general(self, view: View, name: str) -> str:
        """A general's name with what the choice turns on: owner, strength, troops, title, place."""
        g = view.generals.get(name)
        if g is None:
            return name
        owner = "yours" if g.owner == view.seat else self.side(g.owner)
        title = f", {_title(g.title)}" if g.title is not None else ""
        where = f" at {self.place_hex(g.hex)}" if g.hex is not None else ""
        items = f", carries {', '.join(i.split('#')[0] for i in g.items)}" if g.items else ""
        return f"{name} ({owner}, strength {view.general_strength(g)}, {g.troops} troops{title}{items}{where})"

    # the three parts of a decision
    def question(self, view: View, decision: Decision) -> str:
        context = {k: self._context_word(k, v) for k, v in decision.context.items()}
        try:
            return QUESTIONS[decision.kind].format(**context)
        except (KeyError, IndexError):
            return f"Decision {decision.kind}."

    def _context_word(self, key: str, value: Any) -> str:
        if key == "hex" and isinstance(value, int):
            return self.place_hex(value)
        if key == "settlement" and isinstance(value, int):
            return self.place(value)
        if isinstance(value, str) and "#" in value:
            return value.split("#")[0]
        return str(value)

    def facts(self, view: View, decision: Decision) -> list[str]:
        """What the seat needs in front of it to answer: its figures, then the decision's own."""
        me = view.players[view.seat]
        lines = [f"Round {view.round}, {view.phase}. You are {self.side(view.seat)}: {me.coins} coins, "
                 f"income {me.income}, {view.vp()} VP; Wrath {view.wrath}."]
        lines.append("Your hand: " + (", ".join(view.hand) if view.hand else "empty") + ".")
        generals = view.my_generals()
        if generals:
            lines.append("Your generals: " + "; ".join(self.general(view, g.name) for g in generals) + ".")
        hex_id = decision.context.get("hex")
        if decision.kind in BATTLE_KINDS and isinstance(hex_id, int):
            lines.append(self.battle(view, hex_id))
        if decision.kind == DecisionKind.VOTE or decision.kind == DecisionKind.APPOINT:
            lines.append("Judges: " + (", ".join(f"{r.holder} of {r.name}" for r in view.regions.values()
                                                 if r.holder) or "none") + f"; King: {view.king or 'none'}.")
        return lines

    def battle(self, view: View, hex_id: int) -> str:
        """The totals before the dice (CB-3) and the attacker's chance (CB-4) of the fight at a hex."""
        attacker = view.assaults.get(hex_id)
        if attacker is None and hex_id in view.sieges:
            attacker = view.sieges[hex_id].besieger
        if attacker is None:
            attacker = view.seat
        plain_open = view.open_plain(hex_id)
        attackers = [g for g in view.generals_at(hex_id) if g.owner == attacker and g.captor is None]
        attack = sum(view.general_strength(g, plain_open) for g in attackers)
        defence, side = view.hex_defence(hex_id, attacker=attacker)
        chance = view.win_probability(attack, defence)
        names = ", ".join(g.name for g in attackers) or "nobody"
        return (f"Battle at {self.place_hex(hex_id)}: {self.side(attacker)} attacks with {attack} ({names}) against "
                f"{defence} of {self.side(side)}; before cards the attacker wins {chance:.0%} of the time.")

    def options(self, view: View, decision: Decision) -> list[tuple[str, dict[str, Any]]]:
        """Each option's sentence and the numbers it carries (``cost``, ``loot``...), in order;
        a general's reach is asked of the core once, not once per destination."""
        reach: dict[tuple[str, bool], dict[int, int]] = {}
        return [self.option(view, decision, option, reach) for option in decision.options]

    def option(self, view: View, decision: Decision, option: Any,
               reach: dict[tuple[str, bool], dict[int, int]]) -> tuple[str, dict[str, Any]]:
        """A sentence for the option and the numbers it carries; ``reach`` keeps the reaches asked."""
        if isinstance(option, Pass):
            return ("pass" if decision.kind != DecisionKind.MOVEMENT else "pass: end your movement"), {}
        if isinstance(option, Move):
            key = (option.general, bool(option.passage))
            if key not in reach:
                reach[key] = view.reachable(*key)
            cost = reach[key].get(option.dest)
            passage = " by the Secret Passage" if option.passage else ""
            hostile = self._hostile(view, option.dest)
            text = (f"move {option.general} to {self.place_hex(option.dest)}{passage} (cost {cost})"
                    + (f", entering {hostile}" if hostile else ""))
            return text, {"cost": cost}
        if isinstance(option, Buy):
            cost = getattr(view.rules.costs, str(option.what))
            where = f" at {self.place(option.settlement)}" if option.settlement is not None else ""
            who = f" for {option.general}" if option.general is not None else ""
            return f"buy {str(option.what).replace('_', ' ')}{where}{who} ({cost} coins)", {"cost": cost}
        if isinstance(option, PlayCard):
            target = f" on {self._target(option.target)}" if option.target is not None else ""
            blame = f", blaming {self.side(option.blame)}" if isinstance(option.blame, int) else (
                f", blaming {option.blame}" if option.blame is not None else "")
            return f"play {option.card}{target}{blame}", {}
        if isinstance(option, TakeTroops):
            return f"{option.general} takes {option.count} troops from the garrison (uses its move)", {}
        if isinstance(option, GiveTroops):
            return f"{option.general} gives {option.count} troops to the garrison", {}
        if isinstance(option, MoveCaptive):
            return f"move the captive {option.general} to {self.place_hex(option.dest)}", {}
        if isinstance(option, EndSiege):
            return f"end the siege of {self.place_hex(option.hex)}", {}
        if isinstance(option, StartSiege):
            return f"besiege {self.place_hex(option.hex)}", {}
        if isinstance(option, StartAssault):
            return f"assault {self.place_hex(option.hex)} in this round's Combat", {}
        if isinstance(option, Choose):
            return self._choice(view, decision, option.value)
        return str(option), {}

    def _choice(self, view: View, decision: Decision, value: Any) -> tuple[str, dict[str, Any]]:
        if decision.kind in SETTLEMENT_KINDS and isinstance(value, int):
            s = view.settlements[value]
            region = self.board.settlements[value].region
            owner = f", {self.side(s.owner)}" if s.owner is not None and decision.kind == DecisionKind.INVADER_TARGET else ""
            garrison = f", garrison {s.garrison}" if s.garrison else ""
            return f"{self.place(value)} ({region or 'no region'}{owner}{garrison})", {"hex": s.hex}
        if isinstance(value, str) and value in view.generals:
            return self.general(view, value), {}
        if decision.kind == DecisionKind.DISCARD:
            return f"discard {value}", {}
        if value == "raze":
            sid = decision.context.get("settlement")
            loot = view.loot(sid) if isinstance(sid, int) else None
            return f"raze it (loot {loot} coins)", {"loot": loot}
        if isinstance(value, str) and value in WORDS:
            return WORDS[value], {}
        return str(value), {}

    def _target(self, target: Any) -> str:
        if isinstance(target, int) and 0 <= target < len(self.board.settlements):
            return self.place(target)
        return str(target)

    def _hostile(self, view: View, hex_id: int) -> str:
        sid = self.board.settlement_at[hex_id]
        if sid >= 0:
            s = view.settlements[sid]
            if s.standing and s.owner is not None and s.owner != view.seat:
                whose = "Canaanite" if s.owner == CANAANITES else f"{self.side(s.owner)}'s"
                return f"{whose} {self.place(sid)} (defence {view.hex_defence(hex_id)[0]})"
        rivals = [g.name for g in view.generals_at(hex_id) if g.owner != view.seat and g.captor is None]
        return f"rival generals {', '.join(rivals)}" if rivals else ""

    # the board as text, for ``?``
    def board_text(self, view: View) -> str:
        """Every region's settlements with owner, garrison, defences and who stands there; the
        generals in open country; the sieges, the invaders, the titles and the Wrath."""
        lines = [f"Round {view.round}, {view.phase}; Wrath {view.wrath}; King {view.king or 'none'}; "
                 f"deck {view.deck_size} cards; events waiting: {', '.join(view.event_area) or 'none'}."]
        for p in view.players:
            lines.append(f"  {self.side(p.seat)}: {p.coins} coins, income {p.income}, {view.vp(p.seat)} VP, "
                         f"{p.hand_size} cards, home {self.place(p.home)}")
        seen: set[int] = set()
        for name, region in self.board.regions.items():
            present = [view.settlements[sid] for sid in region.settlements if view.settlements[sid].exists]
            if not present:
                continue
            status = view.regions.get(name)
            judge = f" (Judge {status.holder})" if status is not None and status.holder else ""
            lines.append(f"{name}{judge}:")
            for s in present:
                seen.add(s.hex)
                lines.append("  " + self._settlement_line(view, s))
        outside = [s for s in view.settlements if s.exists and s.hex not in seen]
        if outside:
            lines.append("Outside the regions:")
        for s in outside:
            seen.add(s.hex)
            lines.append("  " + self._settlement_line(view, s))
        loose = [g for g in view.generals.values() if g.hex is not None and g.hex not in seen]
        if loose:
            lines.append("In open country: " + "; ".join(
                f"{g.name} ({self.side(g.owner)}, {g.troops} troops) at {self.place_hex(g.hex)}" for g in loose))
        for hex_id, siege in view.sieges.items():
            lines.append(f"Siege of {self.place_hex(hex_id)} by {self.side(siege.besieger)} since round {siege.started}")
        for pair in view.pairs:
            at = self.place(pair.at) if pair.at is not None else "not yet landed"
            lines.append(f"Invaders {' and '.join(pair.names)} ({list(pair.troops)} troops), last at {at}")
        return "\n".join(lines)

    def _settlement_line(self, view: View, s: Any) -> str:
        if s.razed:
            return f"{self.place(s.id)}: razed"
        owner = "free" if s.owner is None else self.side(s.owner) if s.owner != CANAANITES else "Canaanite"
        kind = "city" if s.city else "walled village" if s.wall else "village"
        extra = f", {s.developments} developments" if s.developments else ""
        extra += ", tabernacle" if s.tabernacle else ""
        here = view.generals_at(s.hex)
        generals = f"; here: {', '.join(f'{g.name} ({self.side(g.owner)}, {g.troops})' for g in here)}" if here else ""
        return f"{self.place(s.id)} [{kind}] {owner}, garrison {s.garrison}{extra}{generals}"


def _title(title: Any) -> str:
    return f"Judge of {title.region}" if title.is_judge else str(title.kind).capitalize()
