"""A scripted strategy's dealings with titles, votes, cards and events.

These choices move VP and Wrath rather than armies; subclasses tune them through the hooks
``kingmaker_vote``, ``card_value`` and the ``*_score`` methods.
"""

from __future__ import annotations

from typing import Any

from plsim.strategy import (
    AMBUSH, ANOINTED, ARK, ASSASSIN, BLESSING, CHARIOT, JUSTICE, KING, MERCENARIES, PASS, PROPHET, REVOLT,
    SECRET_PASSAGE, SIEGE_WEAPONS, SQUIRE, SWORD, TAX, Choose, Decision, PlayCard, Terrain, View, base_strength,
    carries, general_moves, kind_of,
)
from strategies.planning import INF, new_table


class PoliticsMixin:
    """Titles, votes, successors, card plays and event choices."""

    # -- titles ------------------------------------------------------------------------------
    def title_holder_score(self, view: View, g) -> float:
        """Who should hold a title: safe, weak generals (strong ones fight)."""
        sid = view.board.settlement_at[g.hex]
        safe = sid >= 0 and view.settlements[sid].owner == self.seat
        return (3.0 if safe else 0.0) - base_strength(g.name) - 0.2 * g.troops - (5.0 if carries(g, ANOINTED) else 0.0)

    def decide_assign_title(self, view: View, decision: Decision) -> Any:
        """CB-7: the conquered city's title goes to one of our own eligible generals."""
        own = [view.generals[o.value] for o in decision.options]
        return Choose(max(own, key=lambda g: (self.title_holder_score(view, g), g.name)).name)

    def decide_appoint(self, view: View, decision: Decision) -> Any:
        gens = [view.generals[o.value] for o in decision.options]
        own = [g for g in gens if g.owner == self.seat]
        if own:
            return Choose(max(own, key=lambda g: (self.title_holder_score(view, g), g.name)).name)
        # forced to give a rival the title: the one furthest from winning
        return Choose(min(gens, key=lambda g: (view.vp(g.owner), base_strength(g.name), g.name)).name)

    def decide_vote(self, view: View, decision: Decision) -> Any:
        gens = [view.generals[o.value] for o in decision.options]
        own = [g for g in gens if g.owner == self.seat]
        if own:
            # crown an untitled... all candidates are Judges: keep the one holding the weaker
            # region; the vacancy is refilled by our own King next Announcements (TI-6)
            return Choose(min(own, key=lambda g: (base_strength(g.name), g.name)).name)
        return Choose(self.kingmaker_vote(view, gens).name)

    def kingmaker_vote(self, view: View, gens: list):
        """With no candidate of our own: the rival furthest from winning."""
        return min(gens, key=lambda g: (view.vp(g.owner), g.name))

    def decide_successor(self, view: View, decision: Decision) -> Any:
        gens = [view.generals[o.value] for o in decision.options]
        # an untitled general keeps every Judge title in place (TI-15)
        return Choose(max(gens, key=lambda g: (g.title is None, -base_strength(g.name), g.name)).name)

    # -- cards -------------------------------------------------------------------------------
    def decide_attach_item(self, view: View, decision: Decision) -> Any:
        kind = kind_of(decision.context.get("card", ""))
        names = [o.value for o in decision.options]
        gens = [view.generals[n] for n in names]

        def pick(key):
            return Choose(max(gens, key=key).name)

        if kind in (SWORD, CHARIOT):
            return pick(lambda g: (g.title is None, base_strength(g.name) + g.troops, general_moves(g.name)))
        if kind == PROPHET:  # the carrier never attacks: the weakest, or a Judge (votes twice)
            return pick(lambda g: (g.title is not None and g.title.is_judge, -base_strength(g.name)))
        if kind == ANOINTED:  # crowned at once: an untitled general, so no Judge title falls vacant
            return pick(lambda g: (g.title is None, -base_strength(g.name)))
        if kind == ARK:  # a defender: a Judge, else the weakest
            return pick(lambda g: (g.title is not None and g.title.is_judge, -base_strength(g.name)))
        if kind == SQUIRE:  # protects the most valuable general
            return pick(lambda g: (g.title is not None and (g.title == KING or g.title.is_judge),
                                   not carries(g, SQUIRE), base_strength(g.name)))
        return pick(lambda g: -base_strength(g.name))

    def card_value(self, view: View, card: str) -> float:
        """How much the strategy wants to keep a one-use card (for discards)."""
        return {
            SIEGE_WEAPONS: 5, MERCENARIES: 4, BLESSING: 6, AMBUSH: 4, ASSASSIN: 4, JUSTICE: 3,
            TAX: 3, REVOLT: 1, SECRET_PASSAGE: 2,
        }.get(kind_of(card), 1)

    def decide_discard(self, view: View, decision: Decision) -> Any:
        return min(decision.options, key=lambda o: (self.card_value(view, o.value), o.value))

    def decide_cards(self, view: View, decision: Decision) -> Any:
        best, best_score = PASS, 0.0
        scores = self.card_scores(view)
        for option in decision.options:
            if type(option) is not PlayCard:
                continue
            score = self.card_play_score(view, option, scores)
            if score > best_score:
                best, best_score = option, score
        return best

    def card_play_score(self, view: View, play: PlayCard, scores: dict | None = None) -> float:
        """How much playing this card now is worth (> 0: play it); scored once per plan
        (``scores``: the plan's ``card_scores``, when the caller holds them already)."""
        if scores is None:
            scores = self.card_scores(view)
        score = scores.get(play)
        if score is None:
            score = scores[play] = self.score_card_play(view, play)
        return score

    def card_scores(self, view: View) -> dict[PlayCard, float]:
        """The plan's scores of the card plays it was asked about (``score_card_play``)."""
        return self.known(view, "card scores", new_table)

    def score_card_play(self, view: View, play: PlayCard) -> float:
        kind = kind_of(play.card)
        if kind == BLESSING:
            return 10.0
        if kind == JUSTICE:
            return self.justice_score(view, play)
        if kind == TAX:
            return self.tax_score(view, play.target)
        if kind == REVOLT:
            return self.revolt_score(view, play.target)
        if kind == ASSASSIN:
            return self.assassin_score(view, play)
        return 0.0

    def justice_score(self, view: View, play: PlayCard) -> float:
        target = view.generals.get(play.target)
        if target is None or target.owner == self.seat:
            return 0.0
        return 5.0 + base_strength(target.name)

    def revolt_score(self, view: View, region: str) -> float:
        rival = mine = 0
        for sid in view.board.regions[region].settlements:
            st = view.settlements[sid]
            if not st.standing:
                continue
            if st.owner == self.seat:
                mine += st.garrison + 2
            elif st.owner is not None and st.owner >= 0:
                rival += st.garrison + 1
        for g in view.generals.values():
            if g.captor is None and view.board.settlement_at[g.hex] in view.board.regions[region].settlements:
                if g.owner == self.seat:
                    mine += 3
                else:
                    rival += 2
        return rival - 2 * mine - 2

    def assassin_score(self, view: View, play: PlayCard) -> float:
        if self.p["assassin"] <= 0:
            return 0.0
        value = self.known(view, ("assassin", play.target), self.assassin_value, play.target)  # the blame only shifts it
        if value is None:
            return 0.0
        if play.blame is not None:
            blamed = view.generals.get(play.blame)
            if blamed is not None:
                value -= 0.5 * base_strength(blamed.name)  # a titled general can never be a Judge
        return self.p["assassin"] * value - 4.0

    def assassin_value(self, view: View, name: str) -> float | None:
        """What killing the general is worth before the blame, or None when it is not worth trying."""
        target = view.generals.get(name)
        if target is None or target.owner == self.seat or target.owner < 0:
            return None
        royal = self._i_reign(view)
        wrath = view.rules.wrath  # W-1: a reigning King's Assassin adds no Wrath
        if not royal and not self.wrath_room(view, wrath.assassin):
            return None
        if carries(target, SQUIRE):
            return None
        value = 0.0
        owner_vp = view.vp(target.owner)
        if target.title == KING:
            # a dead King's player names a successor among its own free generals (TI-13): only
            # worth it when none is left to succeed, or the Anointed would crown one of ours
            heirs = sum(1 for g in view.generals.values()
                        if g.owner == target.owner and g.captor is None and g.name != target.name)
            value += (6 + 3 * owner_vp) if heirs == 0 else -2
        elif target.title is not None and target.title.is_judge:
            value += 4 + 3 * owner_vp
        if carries(target, PROPHET):
            if not royal and not self.wrath_room(view, wrath.assassin + wrath.prophet_killed):
                return None
            value -= 3
        value += 0.3 * view.general_strength(target)
        if owner_vp >= view.rules.victory.points - 1:
            value += 4
        return value

    def _i_reign(self, view: View) -> bool:
        king = view.generals.get(view.king) if view.king else None
        return king is not None and king.owner == self.seat and king.captor is None

    # -- events and invaders -----------------------------------------------------------------
    def decide_prophet_terrain(self, view: View, decision: Decision) -> Any:
        event = decision.context.get("event")
        board = view.board
        mine = {t: 0.0 for t in (Terrain.PLAIN, Terrain.MOUNTAIN, Terrain.DESERT)}
        theirs = dict(mine)
        if event == "Plague":
            for st in view.settlements:
                if st.standing and st.owner is not None and st.owner >= 0:
                    (mine if st.owner == self.seat else theirs)[board.terrain[st.hex]] += st.garrison
            for g in view.generals.values():
                t = board.terrain[g.hex]
                if t in mine:
                    (mine if g.owner == self.seat else theirs)[t] += g.troops + (3 if view.plague_kills(g.troops) else 0)
            score = {t: theirs[t] / max(1, view.n_players - 1) - mine[t] for t in mine}
        else:
            for st in view.settlements:
                if st.standing and st.owner is not None and st.owner >= 0:
                    (mine if st.owner == self.seat else theirs)[board.terrain[st.hex]] += 1
            sign = 1 if event == "Abundance" else -1
            score = {t: sign * (mine[t] - theirs[t] / max(1, view.n_players - 1)) for t in mine}
        best = max(score, key=lambda t: (score[t], -int(t)))
        return Choose(best.name.lower())

    def decide_invader_target(self, view: View, decision: Decision) -> Any:
        leader = self.leader_seat(view)
        best, best_score = None, -INF
        cities = self.judge_city_ids(view)
        for option in decision.options:
            st = view.settlements[option.value]
            if st.owner == self.seat:
                continue
            score = view.vp(st.owner) * 5.0 + (4.0 if st.owner == leader else 0.0)
            if st.id in cities:
                score += 6.0
            score -= 0.2 * view.settlement_defence(st.id)
            spec = view.board.settlements[st.id]
            if spec.region is not None and view.standing_judge_regions(razed=st.id) < view.rules.victory.min_judge_regions + 1:
                score -= 50.0
            if score > best_score:
                best, best_score = option, score
        return best if best is not None else decision.options[0]
