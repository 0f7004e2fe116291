"""Record builders for the checker's tests: play whole games, write their records.

A builder plays one game of a variant with a seeded random "shuffle" and a simple
strategy (a sample of legal moves, the best by a greedy score), and writes the
record as `record.md` describes it. It reuses the checker's boards for legality
and scoring, so these records test the checker's *flow* (event order, draws,
refills, swaps, bonus moves, pyramids, the end, ranking) over whole games; the
scoring itself is tested against hand-computed values in test_checker.py.

`info` maps a line number to what a mutation test needs to know about it (for a
`place`: the rack before it).

`leaves` (optional) makes seats leave (rules 6): a function called wherever a
decision is awaited, as leaves(builder, kind, seat) with kind "place", "bonus" or
"swap" and the seat to move, returning the (seat, why) pairs that leave there. The
builder writes their `leave` events and, when they end the game, the `end`; its
ranking is worked out here, apart from the checker's.
"""

import json
import random

import axio_check as ac


def dumps_lines(events):
    return [json.dumps(e).encode() for e in events]


class Ended(Exception):
    """Leaves ended the game; the end event is written."""


class Builder:
    def __init__(self, variant, players, mode, seed, leaves=None):
        self.variant, self.players, self.mode = variant, players, mode
        self.colours = ac.COLOURS6 if variant == "hex" else ac.COLOURS5
        self.nc = len(self.colours)
        self.rng = random.Random(seed)
        self.seed = seed
        self.thresholds, self.bonus_thresholds = ac.MODES[(variant, mode)]
        self.team = mode == "team"
        self.tracks = [[0] * self.nc for _ in range(2 if self.team else players)]
        self.events = []
        self.info = {}
        self.units = []   # (line, points, reached) of every scoring unit
        self.leave_plan = leaves
        self.left = []    # seats in the order they left
        self.decisions = 0

    def decision(self, kind, seat):
        """A decision is awaited: writes the planned leaves; raises Ended when they end
        the game (solo, two sides, or only one player who has not left)."""
        self.decisions += 1
        for leaver, why in (self.leave_plan(self, kind, seat) if self.leave_plan else ()):
            self.left.append(leaver)
            self.emit({"ev": "leave", "player": leaver, "why": why})
            sides = self.units_seats()
            staying = [side for side in sides if not set(side) & set(self.left)]
            if len(sides) <= 2 or len(staying) <= 1:
                self.end("left")
                raise Ended()

    def emit(self, event):
        self.events.append(event)
        return len(self.events)

    def unit(self, seat):
        return seat % 2 if self.team else seat

    def smap(self, values):
        return dict(zip(self.colours, values))

    def score(self, seat, event, points):
        """Emits a unit with its axio events; bonus moves earned or None (all-max)."""
        u = self.unit(seat)
        new, reached = ac.apply_thresholds(self.tracks[u], points, self.thresholds)
        event["points"] = self.smap(points)
        event["score"] = self.smap(new)
        line = self.emit(event)
        self.tracks[u] = new
        for c, t in reached:
            self.emit({"ev": "axio", "player": seat, "color": self.colours[c], "score": t,
                       "bonus_move": t in self.bonus_thresholds})
        self.units.append((line, points, reached))
        if all(v == self.thresholds[-1] for v in new):
            return None
        return sum(1 for _, t in reached if t in self.bonus_thresholds)

    def units_seats(self):
        return [(0, 2), (1, 3)] if self.team else [(s,) for s in range(self.players)]

    def end(self, reason):
        scores = [self.smap(self.tracks[self.unit(s)]) for s in range(self.players)]
        gone = [side for side in self.units_seats() if set(side) & set(self.left)]
        rank = ac.ranking([(seats, self.tracks[u]) for u, seats in enumerate(self.units_seats())
                           if seats not in gone])
        # rules 6: leavers last, the latest first; a team that left as one group
        gone.sort(key=lambda side: max(self.left.index(s) for s in side if s in self.left), reverse=True)
        rank += [sorted(side) for side in gone]
        result = ac.solo_result(self.variant, self.tracks[0]) if self.mode == "solo" else None
        self.emit({"ev": "end", "reason": reason, "scores": scores, "ranking": rank, "result": result})

    def value(self, seat, points):
        """Greedy: points, counted more in low tracks, plus a prize for an AXIO."""
        tracks = self.tracks[self.unit(seat)]
        total = 0.0
        for c, g in enumerate(points):
            above = [t for t in self.thresholds if t > tracks[c]]
            gain = min(g, above[0] - tracks[c]) if above else 0
            total += gain * (1 + (max(tracks) - tracks[c]) / 3)
            if above and tracks[c] + g >= above[0]:
                total += 3
        return total + self.rng.random() * 0.01


class DominoBuilder(Builder):
    def __init__(self, variant, players, mode, seed, sample=60, swap="alternate", style="points",
                 bag=None, tracks=None, leaves=None):
        """bag (list of tiles, last drawn first) and tracks (initial tracks of every
        unit) replace the rules' full bag and zero tracks, for white-box tests."""
        super().__init__(variant, players, mode, seed, leaves)
        if tracks is not None:
            self.tracks = [list(tracks) for _ in self.tracks]
        self.g = ac.SquareGeometry(players) if variant == "square" else ac.HexGeometry(players)
        self.board = ac.DominoBoard(self.g, self.colours)
        full = ac.domino_set(self.nc, 8, 4) if variant == "square" else ac.domino_set(self.nc, 6, 5)
        self.bag = list(full.elements())
        self.rng.shuffle(self.bag)
        if bag is not None:
            self.bag = list(bag)
        self.full_rack = 1 if mode == "solo" else (5 if variant == "square" else 6)
        self.racks = [[] for _ in range(players)]
        self.first = [True] * players
        self.sample = sample
        self.swap_policy = swap
        self.swaps = 0
        self.style = style   # points | singles (many pyramids) | tiling (few singles)

    def name(self, t):
        return [self.colours[t[0]], self.colours[t[1]]]

    def draw(self, seat, k):
        tiles = [self.bag.pop() for _ in range(k)]
        self.racks[seat].extend(tiles)
        if k:
            self.emit({"ev": "draw", "player": seat, "from": "bag", "tiles": [self.name(t) for t in tiles]})

    def refill(self, seat):
        self.draw(seat, min(self.full_rack - len(self.racks[seat]), len(self.bag)))

    def play(self):
        fields = [{"cell": list(c), "color": col} for c, col in self.g.FIELDS.items()]
        self.emit({"ev": "start", "format": ac.FORMAT, "variant": self.variant, "players": self.players,
                   "mode": self.mode, "seed": str(self.seed), "names": ["P%d" % i for i in range(self.players)],
                   "area": self.g.area, "fields": fields})
        for seat in range(self.players):
            self.refill(seat)
        seat = 0
        while True:
            if not self.racks[seat] or not self.board.has_free_pair():
                return self.end("blocked")
            if not self.turn(seat):
                return
            if self.eligible(seat):
                self.decision("swap", seat)
                accept = self.decide()
                if accept:
                    old = self.racks[seat]
                    k = min(self.full_rack, len(self.bag))
                    new = [self.bag.pop() for _ in range(k)]
                    self.bag.extend(old)
                    self.rng.shuffle(self.bag)
                    self.racks[seat] = new
                    self.emit({"ev": "swap", "player": seat, "accepted": True,
                               "returned": [self.name(t) for t in old], "drawn": [self.name(t) for t in new]})
                else:
                    self.emit({"ev": "swap", "player": seat, "accepted": False})
                    self.refill(seat)
            else:
                self.refill(seat)
            seat = (seat + 1) % self.players

    def decide(self):
        self.swaps += 1
        if self.swap_policy == "alternate":
            return self.swaps % 2 == 1
        return self.swap_policy == "always"

    def eligible(self, seat):
        if self.mode == "solo" or not self.racks[seat] or not self.bag:
            return False
        tracks = self.tracks[self.unit(seat)]
        low = {c for c, v in enumerate(tracks) if v == min(tracks)}
        return not any(s in low for t in self.racks[seat] for s in t)

    def turn(self, seat):
        earned = self.place(seat, False)
        pending = earned or 0
        while earned is not None and pending:
            if not self.racks[seat] or not self.board.has_free_pair():
                self.end("blocked")
                return False
            pending -= 1
            earned = self.place(seat, True)
            pending += earned or 0
        if earned is None:
            self.end("all-max")
            return False
        return True

    def candidates(self, seat, bonus):
        pairs = list(self.board.free_pairs())
        if not bonus and self.first[seat]:
            untouched = self.board.untouched_fields()
            touching = [p for p in pairs if self.board.touches(p, untouched)]
            if touching:
                pairs = touching
        if self.style == "tiling":
            return [(0, self.racks[seat][0], pairs[0])]
        moves = []
        for _ in range(self.sample):
            a, b = self.rng.choice(pairs)
            i = self.rng.randrange(len(self.racks[seat]))
            t = self.racks[seat][i]
            if self.rng.random() < 0.5:
                t = (t[1], t[0])
            moves.append((i, t, (a, b)))
        return moves

    def place(self, seat, bonus):
        self.decision("bonus" if bonus else "place", seat)
        best = None
        for i, t, cells in self.candidates(seat, bonus):
            self.board.place(cells, t)
            pts = self.board.tile_points(cells, t, self.nc)
            singles = len(self.board.new_singles(cells)) if self.style == "singles" else 0
            for c in cells:
                del self.board.tiles[c]
            v = singles + self.rng.random() if self.style == "singles" else self.value(seat, pts)
            if best is None or v > best[0]:
                best = (v, i, t, cells, pts)
        _, i, t, cells, pts = best
        rack_before = list(self.racks[seat])
        del self.racks[seat][i]
        if not bonus:
            self.first[seat] = False
        self.board.place(cells, t)
        event = {"ev": "place", "player": seat, "tile": self.name(t), "cells": [list(c) for c in cells],
                 "bonus": bonus}
        self.info[len(self.events) + 1] = {"rack": rack_before, "cells": cells}
        earned = self.score(seat, event, pts)
        if earned is None or not self.g.has_pyramids:
            return earned
        for cell in self.board.new_singles(cells):
            moved = self.board.put_pyramid(cell)
            ev = {"ev": "pyramid", "player": seat, "cell": list(cell),
                  "moved_from": None if moved is None else list(moved)}
            more = self.score(seat, ev, self.board.pyramid_points(cell, self.nc))
            if more is None:
                return None
            earned += more
        return earned


class RotaBuilder(Builder):
    def __init__(self, players, seed, sample=80, leaves=None):
        super().__init__("rota", players, "solo" if players == 1 else "standard", seed, leaves)
        tiles = []
        for key in ac.rota_set().elements():
            tiles.append(ac.rotations(key)[self.rng.randrange(4)])
        self.rng.shuffle(tiles)
        self.board = ac.RotaBoard()
        self.display = []
        for cell in ac.RotaGeometry.DISPLAY_CELLS:
            t = tiles.pop()
            if ac.EMPTY in t:
                centre = ac.RotaGeometry.corner_at(cell, ac.RotaGeometry.CENTRE)
                t = next(r for r in ac.rotations(t) if r[centre] == ac.EMPTY)
            self.board.place(cell, t)
            self.display.append({"cell": list(cell), "tile": self.name(t)})
        self.stacks = [[tiles.pop() for _ in range(12)] for _ in range(players)]
        self.supply = tiles
        self.hands = [None] * players
        self.sample = sample

    def name(self, t):
        return [None if c == ac.EMPTY else self.colours[c] for c in t]

    def draw(self, seat, source):
        pile = self.stacks[seat] if source == "stack" else self.supply
        if not pile:
            return
        t = pile.pop()
        self.hands[seat] = t
        self.emit({"ev": "draw", "player": seat, "from": source, "tiles": [self.name(t)]})

    def play(self):
        self.emit({"ev": "start", "format": ac.FORMAT, "variant": "rota", "players": self.players,
                   "mode": self.mode, "seed": str(self.seed), "names": ["P%d" % i for i in range(self.players)],
                   "display": self.display})
        for seat in range(self.players):
            self.draw(seat, "stack")
        seat = 0
        while True:
            earned = self.place(seat, False)
            pending = earned or 0
            while earned is not None and pending and self.supply:
                self.draw(seat, "supply")
                pending -= 1
                earned = self.place(seat, True)
                pending += earned or 0
            if earned is None:
                return self.end("all-max")
            self.draw(seat, "stack")
            if all(h is None for h in self.hands):
                return self.end("tiles-out")
            seat = (seat + 1) % self.players

    def place(self, seat, bonus):
        self.decision("bonus" if bonus else "place", seat)
        hand = self.hands[seat]
        cells = sorted({ac.step(c, d) for c in self.board.tiles for d in ac.RotaGeometry.SIDES}
                       - set(self.board.tiles))
        best = None
        for _ in range(self.sample):
            cell = self.rng.choice(cells)
            t = ac.rotations(hand)[self.rng.randrange(4)]
            wilds = [None] + (list(range(5)) if ac.EMPTY in t else [])
            for w in wilds:
                pts, wp = self.board.points(cell, t, w)
                if w is not None and wp == 0:
                    continue
                v = self.value(seat, pts)
                if best is None or v > best[0]:
                    best = (v, cell, t, w, pts)
        _, cell, t, w, pts = best
        self.info[len(self.events) + 1] = {"hand": hand, "cell": cell}
        self.board.place(cell, t)
        self.hands[seat] = None
        event = {"ev": "place", "player": seat, "tile": self.name(t), "cell": list(cell),
                 "wild": None if w is None else self.colours[w], "bonus": bonus}
        return self.score(seat, event, pts)


def build(variant, players, mode, seed, **kw):
    if variant == "rota":
        b = RotaBuilder(players, seed, **kw)
    else:
        b = DominoBuilder(variant, players, mode, seed, **kw)
    try:
        b.play()
    except Ended:
        pass
    return b
