"""The phases of a round other than Combat (RD-2): Announcements, Draw Cards, Income,
Acquisitions, Movement and the Victory Check."""

from __future__ import annotations

from plsim.engine import cardplay, effects, titles
from plsim.engine.arithmetic import carries, income_paid, settlement_income, standing_judge_regions, tax_share
from plsim.engine.cards import ARK, PROPHET, SECRET_PASSAGE, Phase, kind_of
from plsim.engine.context import Context
from plsim.engine.decisions import DecisionKind
from plsim.engine.movement import is_hostile, occupancy, reachable
from plsim.engine.options import (
    ASSAULT, SIEGE, Buy, Choose, EndSiege, GiveTroops, Move, MoveCaptive, Purchase, StartAssault, StartSiege,
    TakeTroops,
)
from plsim.engine.scoring import victory_points
from plsim.engine.state import GameState, Siege, SettlementState
from plsim.engine.steps import Step, act, step


# 1 Announcements
def announcements(ctx: Context) -> None:
    """AN-1: events resolve, then vacancies, the Anointed, the successor and the election."""
    ctx.emit("round", first_player=ctx.state.first_player)
    ctx.sequence(Step(cardplay.resolve_events), Step(titles.announce_titles),
                 Step(cardplay.card_window, (Phase.ANNOUNCEMENTS,)))


# 2 Draw Cards
def draw_cards(ctx: Context) -> None:
    """DR-1, DR-4: each player in turn draws, then may play Tax, Revolt, Blessing and others."""
    count = ctx.rules.cards.draw_per_round
    ctx.sequence(*(work for seat in ctx.state.turn_order()
                   for work in (Step(effects.draw_cards, (seat, count)), Step(cardplay.card_turn, (seat, Phase.DRAW, 0)))))


# 3 Income
def income_of(ctx: Context, sid: int) -> int:
    """IN-1: what the settlement yields this round, Abundance and Famine included."""
    return settlement_income(ctx.state, ctx.board, ctx.rules, sid)


def income(ctx: Context) -> None:
    """IN-1..IN-3: besieged settlements yield nothing; a taxed region pays its taxer double."""
    s = ctx.state
    region_of = ctx.board.settlements
    for st in s.settlements:
        owner = st.owner
        if not st.standing or owner is None or owner < 0:
            continue
        if st.hex in s.sieges:
            continue  # IN-2: a besieged settlement yields nothing, to its owner or to a taxer
        value = income_paid(s, ctx.board, ctx.rules, st.id)
        taxer = s.taxed.get(region_of[st.id].region) if region_of[st.id].region else None
        if taxer is not None:
            gain = tax_share(ctx.rules, value)
            s.players[taxer].coins += gain
            s.players[taxer].income += gain
            continue
        s.players[owner].coins += value
        s.players[owner].income += value
    for player in s.players:
        ctx.emit("income", seat=player.seat, coins=player.income)
    cardplay.card_window(ctx, Phase.INCOME)


# 4 Acquisitions
def purchase_options(ctx: Context, seat: int) -> list:
    """AQ-1: every single purchase the seat can afford now, plus the cards it may play. The
    board-wide counts are taken only when a purchase needs them, and each ``Buy`` is built once
    per game (``Game.option_memo``)."""
    s = ctx.state
    rules = ctx.rules
    coins = s.players[seat].coins
    costs = rules.costs
    limits = rules.limits
    made = ctx.option_memo
    developments = has_ark = tabernacle_free = None  # counted on first need
    options: list = []
    for st in buyable_settlements(s, seat):
        sid = st.id
        if _troop_fits(st, coins, costs, limits):
            options.append(_buy(made, Purchase.TROOP, sid))
        if coins >= costs.wall and not st.wall and not st.city:
            options.append(_buy(made, Purchase.WALL, sid))
        if coins >= costs.development and st.developments < limits.developments_per_settlement:
            if developments is None:
                developments = developments_on_board(ctx)
            if developments < limits.developments_on_board:
                options.append(_buy(made, Purchase.DEVELOPMENT, sid))
        if st.city:
            if has_ark is None:
                tabernacle_free = not any(other.tabernacle and other.standing for other in s.settlements)
                has_ark = any(g.owner == seat and g.captor is None and carries(g, ARK) for g in s.generals.values())
            if tabernacle_free and has_ark and coins >= costs.tabernacle:
                options.append(_buy(made, Purchase.TABERNACLE, sid))
        if st.tabernacle and coins >= costs.guilt_sacrifice and s.wrath > 0:
            options.append(_buy(made, Purchase.GUILT_SACRIFICE, sid))
    options.extend(titles.judge_purchases(ctx, seat))
    options.extend(cardplay.window_options(ctx, seat, Phase.ACQUISITIONS))
    return options


def buyable_settlements(s: GameState, seat: int) -> list[SettlementState]:
    """ST-3: the settlements the seat may buy for, its own standing ones that are not besieged."""
    sieges = s.sieges
    return [st for st in s.settlements if st.owner == seat and st.standing and st.hex not in sieges]


def troop_offered(ctx: Context, seat: int, sid: int) -> bool:
    """Whether Acquisitions offers ``seat`` a troop for settlement ``sid`` now (AQ-1, ST-3,
    the garrison limit): the same test as ``purchase_options``, without building every option."""
    s, rules = ctx.state, ctx.rules
    coins = s.players[seat].coins
    return any(st.id == sid and _troop_fits(st, coins, rules.costs, rules.limits) for st in buyable_settlements(s, seat))


def _troop_fits(st: SettlementState, coins: int, costs, limits) -> bool:
    """A troop's price is in hand and the garrison has room for it."""
    return coins >= costs.troop and st.garrison < limits.garrison


def developments_on_board(ctx: Context) -> int:
    """ST-5: the developments standing on the whole board, counted again only after a settlement
    was written."""
    s = ctx.state
    stamp = s.ledger.settlement_writes
    kept = ctx.stamped.get("developments")
    if kept is None or kept[0] != stamp:
        kept = ctx.stamped["developments"] = (stamp, sum(st.developments for st in s.settlements if st.standing))
    return kept[1]


def _buy(made: dict, what: Purchase, sid: int) -> Buy:
    """``Buy(what, sid)``, built once per ctx."""
    key = (Buy, what, sid)
    found = made.get(key)
    if found is None:
        found = made[key] = Buy(what, sid)
    return found


def buy(ctx: Context, seat: int, option: Buy) -> None:
    """Pay the price named like the purchase (``Costs``) and apply it; a Judge title pays itself."""
    s = ctx.state
    what = option.what
    if what == Purchase.JUDGE_TITLE:
        titles.buy_judge(ctx, seat, option)
    else:
        s.players[seat].coins -= getattr(ctx.rules.costs, what)
        st = s.settlements[option.settlement]
        if what == Purchase.TROOP:
            st.garrison += 1
        elif what == Purchase.WALL:
            st.wall = True
        elif what == Purchase.DEVELOPMENT:
            st.developments += 1
        elif what == Purchase.TABERNACLE:
            st.tabernacle = True
        elif what == Purchase.GUILT_SACRIFICE:  # it only lowers the cup: no pair is let loose, nothing is asked
            effects.add_wrath(ctx, -ctx.rules.wrath.guilt_sacrifice, "guilt sacrifice", seat)
    ctx.emit("buy", seat=seat, what=str(what), settlement=option.settlement, general=option.general)


def acquisitions(ctx: Context) -> None:
    """AQ-1: in turn order each player buys (and plays Blessing, Assassin, Justice) until done."""
    ctx.sequence(*(Step(purchase_turn, (seat, 0)) for seat in ctx.state.turn_order()))


@step
def purchase_turn(ctx: Context, seat: int, count: int = 0) -> None:
    act(ctx, Step(purchase_turn, (seat, count)), seat, DecisionKind.PURCHASE, purchase_options(ctx, seat),
        apply_purchase)


@step
def apply_purchase(ctx: Context, seat: int, choice) -> None:
    if isinstance(choice, Buy):
        buy(ctx, seat, choice)
    else:
        cardplay.play_card(ctx, seat, choice)


# 5 Movement
def passage_card(ctx: Context, seat: int) -> str | None:
    return next((c for c in ctx.state.players[seat].hand if kind_of(c) == SECRET_PASSAGE), None)


def movement_options(ctx: Context, seat: int) -> list:
    """RD-4, MV-1..MV-13: every move, troop transfer, captive move and siege release open now.
    The options of a general whose surroundings are as before are the very tuples offered
    before (``Game.reach_memo``, ``Game.option_memo``)."""
    s = ctx.state
    board = ctx.board
    rules = ctx.rules
    passage = passage_card(ctx, seat) is not None
    occ = occupancy(s, board, rules, seat, ctx.stamped)
    memo = ctx.reach_memo
    made = ctx.option_memo
    options: list = []
    settlement_at = board.settlement_at
    walled = None  # hostile walled settlements, where Secret Passage cancels the wall (found on first need)
    generals = s.generals
    own = []  # the seat's free generals
    for name in names_in_order(ctx):
        general = generals[name]
        if general.owner == seat and general.captor is None:
            own.append(general)
            if not general.moved:
                plain = reachable(s, board, rules, general, occ=occ, memo=memo)
                options.extend(_moves(made, Move, name, plain))
                if passage:
                    if walled is None:
                        walled = {h for h in occ.hostile if settlement_at[h] >= 0 and s.settlements[settlement_at[h]].wall}
                    by_dest = _passage_moves(made, name)
                    options.extend(by_dest(dest) for dest in reachable(s, board, rules, general, passage=True, occ=occ,
                                                                       memo=memo) if dest not in plain or dest in walled)
            sid = settlement_at[general.hex]
            if sid < 0:
                continue
            settlement = s.settlements[sid]
            if settlement.owner != seat:
                continue
            garrison = settlement.garrison
            if not general.moved and not general.took and not general.gave:
                room = min(rules.limits.troops_per_general - general.troops, garrison)
                if room > 0:
                    options.extend(_transfers(made, TakeTroops, name, room))
            if not general.gave and general.troops:
                room = min(general.troops, rules.limits.garrison - garrison)
                if room > 0:
                    options.extend(_transfers(made, GiveTroops, name, room))
        elif general.captor == seat and not general.moved:
            options.extend(_moves(made, MoveCaptive, name, reachable(s, board, rules, general, occ=occ, memo=memo)))
    if s.sieges:
        options.extend(EndSiege(h) for h, siege in sorted(s.sieges.items()) if siege.besieger == seat)
    for hex_id in sorted(standing_attackers(ctx, seat, own)):
        options.extend((StartSiege(hex_id), StartAssault(hex_id)))
    options.extend(cardplay.window_options(ctx, seat, Phase.MOVEMENT))
    return options


def _moves(made: dict, kind: type, name: str, reach: dict[int, int]) -> tuple:
    """``kind`` (Move or MoveCaptive) to every hex of a memoised ``reach``, built once per game;
    each (general, hex) option too, whatever answer it came in."""
    key = (kind, name, id(reach))  # the memo keeps ``reach`` alive, so its id stays its own
    found = made.get(key)
    if found is None:
        each = made.get((kind, name))
        if each is None:
            each = made[(kind, name)] = {}
        for dest in reach.keys() - each.keys():
            each[dest] = kind(name, dest)
        found = made[key] = tuple(map(each.__getitem__, reach))
    return found


def _passage_moves(made: dict, name: str):
    """hex -> ``Move(name, hex, passage=True)``, each built once per game."""
    key = ("passage", name)
    found = made.get(key)
    if found is None:
        each: dict[int, Move] = {}

        def found(dest: int) -> Move:
            move = each.get(dest)
            if move is None:
                move = each[dest] = Move(name, dest, True)
            return move

        made[key] = found
    return found


def _transfers(made: dict, kind: type, name: str, room: int) -> tuple:
    """MV-10: ``kind`` (TakeTroops or GiveTroops) of 1..room troops, built once per ctx."""
    key = (kind, name, room)
    found = made.get(key)
    if found is None:
        found = made[key] = tuple(kind(name, n) for n in range(1, room + 1))
    return found


def standing_attackers(ctx: Context, seat: int, own: list) -> set[int]:
    """MV-15: hostile hexes where the seat's free generals (``own``) stand without a siege or an
    assault of its own (after ending a siege, or after the defenders left), and may start one.
    Starting one is the move of the generals there, so a general that moved this round starts
    nothing, and a Prophet's carrier starts neither (MV-7)."""
    s = ctx.state
    hexes = set()
    for general in own:
        hex_id = general.hex
        if (
            not general.moved and hex_id not in s.assaults and hex_id not in s.sieges
            and not carries(general, PROPHET) and is_hostile(s, ctx.board, hex_id, seat)
        ):
            hexes.add(hex_id)
    return hexes


def names_in_order(ctx: Context) -> tuple[str, ...]:
    """The generals' names in order (options list a seat's generals by name), sorted once per
    roster (``Game.option_memo``)."""
    roster = tuple(ctx.state.generals)
    key = ("names in order", roster)
    found = ctx.option_memo.get(key)
    if found is None:
        found = ctx.option_memo[key] = tuple(sorted(roster))
    return found


def movement(ctx: Context) -> None:
    """RD-4: in turn order each player moves, transfers troops and plays cards until done."""
    ctx.sequence(*(Step(movement_turn, (seat, 0)) for seat in ctx.state.turn_order()),
                 Step(cardplay.card_window, (Phase.MOVEMENT,)))


@step
def movement_turn(ctx: Context, seat: int, count: int = 0) -> None:
    act(ctx, Step(movement_turn, (seat, count)), seat, DecisionKind.MOVEMENT, movement_options(ctx, seat),
        apply_movement)


@step
def apply_movement(ctx: Context, seat: int, choice) -> None:
    s = ctx.state
    if isinstance(choice, Move):
        move_general(ctx, seat, s.generals[choice.general], choice.dest, choice.passage)
    elif isinstance(choice, TakeTroops):
        general = s.generals[choice.general]
        s.settlements[ctx.board.settlement_at[general.hex]].garrison -= choice.count
        general.troops += choice.count
        general.took = general.moved = True  # MV-10: taking troops uses the move
        ctx.emit("take_troops", seat=seat, general=general.name, count=choice.count)
    elif isinstance(choice, GiveTroops):
        general = s.generals[choice.general]
        s.settlements[ctx.board.settlement_at[general.hex]].garrison += choice.count
        general.troops -= choice.count
        general.gave = True
        ctx.emit("give_troops", seat=seat, general=general.name, count=choice.count)
    elif isinstance(choice, MoveCaptive):
        captive = s.generals[choice.general]
        captive.moved = True
        s.place(captive, choice.dest)
        ctx.emit("move_captive", seat=seat, general=captive.name, to=choice.dest)
    elif isinstance(choice, EndSiege):
        del s.sieges[choice.hex]
        ctx.emit("siege_ended", seat=seat, hex=choice.hex)
    elif isinstance(choice, (StartSiege, StartAssault)):
        for general in s.generals_at(choice.hex):
            if general.owner == seat and general.captor is None:
                general.moved = True  # MV-15: starting it is their move this round
        if isinstance(choice, StartSiege):
            begin_siege(ctx, seat, choice.hex)
        else:
            begin_assault(ctx, seat, choice.hex)
    else:
        cardplay.play_card(ctx, seat, choice)


def move_general(ctx: Context, seat: int, general, dest: int, passage: bool) -> None:
    """MV-1, MV-9, MV-12, CB-1: the move itself, then what entering the hex means."""
    s = ctx.state
    board = ctx.board
    origin = general.hex
    if passage:
        effects.spend_card(ctx, seat, passage_card(ctx, seat))
        general.passage = True
    general.moved = True
    s.place(general, dest)
    ctx.emit("move", seat=seat, general=general.name, frm=origin, to=dest, passage=passage)
    if origin in s.sieges:
        effects.lift_abandoned_sieges(ctx)
    sid = board.settlement_at[dest]
    if sid >= 0 and s.settlements[sid].standing and s.settlements[sid].owner is None:
        effects.take_settlement(ctx, sid, seat, "entered")  # CB-1: free and empty
        return
    if not is_hostile(s, board, dest, seat):
        return
    siege = s.sieges.get(dest)
    if (siege is not None and siege.besieger == seat) or s.assaults.get(dest) == seat:
        return  # joins its side's siege or assault
    ctx.ask(seat, DecisionKind.SIEGE_OR_ASSAULT, [SIEGE, ASSAULT], siege_or_assault, seat, dest, hex=dest,
            general=general.name)


@step
def siege_or_assault(ctx: Context, choice: Choose, seat: int, hex_id: int) -> None:
    """MV-12: the general that entered a hostile hex besieges it or assaults it in Combat."""
    if choice == SIEGE:
        begin_siege(ctx, seat, hex_id)
    else:
        begin_assault(ctx, seat, hex_id)


def begin_siege(ctx: Context, seat: int, hex_id: int) -> None:
    """MV-11: the hex is sealed and its defences melt from this round on."""
    ctx.state.sieges[hex_id] = Siege(seat, ctx.state.round)
    sid = ctx.board.settlement_at[hex_id]
    ctx.emit("siege", seat=seat, hex=hex_id, settlement=sid if sid >= 0 else None)


def begin_assault(ctx: Context, seat: int, hex_id: int) -> None:
    """MV-12, CB-1: a battle in this round's Combat."""
    ctx.state.assaults[hex_id] = seat
    sid = ctx.board.settlement_at[hex_id]
    ctx.emit("assault", seat=seat, hex=hex_id, settlement=sid if sid >= 0 else None)


# 7 Victory Check
def victory_check(ctx: Context) -> None:
    """V-1..V-5: the phase's card window, then the check."""
    ctx.sequence(Step(cardplay.card_window, (Phase.VICTORY,)), Step(judge_victory))


@step
def judge_victory(ctx: Context) -> None:
    """V-1..V-5: collapse first, then 3 VP wins (ties by VP, settlements, coins), then the
    round limit; the round's report rows are recorded either way."""
    s = ctx.state
    ctx.record_round()
    if standing_judge_regions(s, ctx.board, ctx.rules) < ctx.rules.victory.min_judge_regions:
        ctx.finish("collapse")
        return
    scores = {seat: victory_points(s, seat) for seat in range(s.n_players)}
    leaders = [seat for seat, vp in scores.items() if vp >= ctx.rules.victory.points]
    if leaders:
        def key(seat: int) -> tuple[int, int, int]:
            owned = sum(1 for st in s.settlements if st.owner == seat and st.standing)
            return scores[seat], owned, s.players[seat].coins

        best = max(key(seat) for seat in leaders)
        winners = tuple(seat for seat in leaders if key(seat) == best)
        ctx.finish("victory" if len(winners) == 1 else "draw", winners)
        return
    if s.round >= ctx.rules.victory.max_rounds:
        ctx.finish("round_limit")
