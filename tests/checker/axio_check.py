#!/usr/bin/env python3
"""axio_check: an independent referee for axio game records (`axio-record/1`).

Usage:  python3 tests/checker/axio_check.py FILE|DIR [FILE|DIR ...]
        (a directory means every `*.jsonl` in it, not recursive)

Prints `ok FILE (N events)` for a consistent record and `FILE:LINE: reason` at the
first inconsistency of a bad one. Exit status 0 when every record is consistent,
1 when one is not, 2 on a usage error.

How it works
------------
It is written from docs/rules.md and docs/record.md only (plus the engine
team's interpretations a-j, quoted where used) and shares no code with the engine.

A record is replayed event by event. The referee knows at every moment what the
rules allow to come next: the player to move, whether a `place` is a bonus move,
which cells get pyramids and in which order, which tracks reach a threshold (the
`axio` events), whether a swap must be offered, how many tiles the refill draws,
and whether the game is over (and why). The only free choices in a record are the
tiles drawn (the random generator is unknown), the placements, the ROTA wild
colour, the swap decisions and the leaves (rules 6); each is checked for
legality and applied. Every other value in the record is computed independently
and compared.

Leaving (rules 6, record.md `leave`): wherever the rules await a decision (a
placement, a bonus move, a swap choice), any number of `leave` events may stand,
each by a seat that has not left. Solo and two-side games (2 players, or the two
teams of `hex` team) end there with reason `left`; with three or four sides the
game goes on (the leaver's seat keeps playing, as ordinary events) until only one
player has not left. The final ranking puts the players who stayed first, by
rules 1.2, and below them those who left, the latest leaver highest; a team that
left ranks last as one group.

Pieces, bottom up:
  * Stream            -- lazy JSON-Lines reader that knows line numbers.
  * SquareGeometry,
    HexGeometry       -- cells, play area, directions, printed fields.
  * DominoBoard       -- board of the two domino games: emptiness, scoring lines,
                         single cells and pyramids (square), first-tile rule.
  * RotaGeometry,
    RotaBoard         -- ROTA cells, vertices, circles and corner scoring.
  * apply_thresholds, ranking -- rules 1.1 and 1.2.
  * Replay            -- what all variants share: tracks, units, axio events,
                         tile accounting, draws, leaves, the end event.
  * DominoReplay      -- the turn loop of `square` and `hex` (all modes).
  * RotaReplay        -- the turn loop of `rota`.

The tile accounting keeps the multiset of tiles that may still be unseen: for
`square`/`hex` the bag (exactly: a swap's returned tiles come back), for `rota` the
union of all stacks and the supply (which tile sits in which stack is unknown, but
each stack's and the supply's size is known exactly).

Interpretations beyond the spec are marked `# SPEC:` in the code.
"""

import json
import os
import sys
from collections import Counter, deque
from itertools import combinations

FORMAT = "axio-record/1"
COLOURS5 = ("red", "green", "blue", "orange", "purple")
COLOURS6 = COLOURS5 + ("yellow",)
EVENTS = ("start", "draw", "place", "pyramid", "axio", "swap", "leave", "end")
LEAVE_REASONS = ("resign", "timeout", "absent")
EMPTY = -1  # an empty ROTA corner, internally


class GameOver(Exception):
    """The game ended where a decision was awaited (rules 6: leaving); its end
    event has been checked already."""


class RecordError(Exception):
    """The first inconsistency of a record: where and what."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line
        self.message = message


def fmt(value):
    """Compact JSON for messages."""
    return json.dumps(value, separators=(",", ":"))


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------
# Reading JSON Lines
# --------------------------------------------------------------------------

class Event:
    """One record line: its number, its `ev`, its object."""

    def __init__(self, line, data):
        self.line = line
        self.data = data
        self.ev = data["ev"]

    def describe(self):
        parts = [self.ev]
        if "player" in self.data:
            parts.append("by seat %s" % fmt(self.data["player"]))
        if self.ev == "draw" and "from" in self.data:
            parts.append("from %s" % fmt(self.data["from"]))
        if self.ev == "end" and "reason" in self.data:
            parts.append("(%s)" % fmt(self.data["reason"]))
        if self.ev == "axio" and "color" in self.data:
            parts.append("(%s)" % fmt(self.data["color"]))
        if self.ev == "leave":
            parts.append("(%s; a leave stands only where a decision is awaited)"
                         % fmt(self.data.get("why")))
        return " ".join(parts)


def _no_duplicate_keys(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError("duplicate key %s" % fmt(key))
        obj[key] = value
    return obj


def _no_constants(name):
    raise ValueError("%s is not JSON" % name)


class Stream:
    """Lazily parsed record lines; errors surface only when a line is reached."""

    def __init__(self, raw_lines):
        self.raw = raw_lines
        self.pos = 0
        self.parsed = {}

    def _parse(self, index):
        line = index + 1
        raw = self.raw[index]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(line, "line is not valid UTF-8")
        if not text.strip():
            # SPEC: JSON Lines has one object per line; a blank line is an error.
            raise RecordError(line, "empty line (every line must be one JSON object)")
        # SPEC: duplicate keys and NaN/Infinity are rejected (not JSON as RFC 8259
        # means it); numbers that must be integers may not be written as 3.0.
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicate_keys,
                              parse_constant=_no_constants)
        except ValueError as exc:
            raise RecordError(line, "not valid JSON: %s" % exc)
        if not isinstance(data, dict):
            raise RecordError(line, "a record line must be a JSON object, got %s" % fmt(data))
        if "ev" not in data:
            raise RecordError(line, 'missing key "ev"')
        # SPEC: "keys not listed may be added" is about keys; an unknown event is an error.
        if data["ev"] not in EVENTS:
            raise RecordError(line, "unknown event %s (known: %s)" % (fmt(data["ev"]), ", ".join(EVENTS)))
        return Event(line, data)

    def peek(self):
        if self.pos >= len(self.raw):
            return None
        if self.pos not in self.parsed:
            self.parsed[self.pos] = self._parse(self.pos)
        return self.parsed[self.pos]

    def next(self):
        event = self.peek()
        self.pos += 1
        return event

    def at_end(self):
        return self.pos >= len(self.raw)

    def next_line(self):
        """Line number of the next line (one past the last line at end of file)."""
        return self.pos + 1


def split_lines(data):
    """Bytes to lines; a final newline does not start another line."""
    if not data:
        return []
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


# --------------------------------------------------------------------------
# Geometry of the domino games
# --------------------------------------------------------------------------

def step(cell, direction):
    return (cell[0] + direction[0], cell[1] + direction[1])


class SquareGeometry:
    """AXIO: 13x13 board, cells (row, col); the play area is a centred square."""

    variant = "square"
    DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))
    PAIR_DIRS = ((0, 1), (1, 0))          # each unordered adjacent pair once
    SIDE = {1: 9, 2: 9, 3: 11, 4: 13}
    FIELDS = {(2, 6): "red", (6, 10): "green", (10, 6): "blue",
              (6, 2): "orange", (6, 6): "purple"}
    has_pyramids = True

    def __init__(self, players):
        self.area = self.SIDE[players]
        self.lo = (13 - self.area) // 2
        self.hi = self.lo + self.area - 1
        rng = range(self.lo, self.hi + 1)
        self.cells = [(r, c) for r in rng for c in rng]       # row-major

    def in_area(self, cell):
        return self.lo <= cell[0] <= self.hi and self.lo <= cell[1] <= self.hi

    def neighbours(self, cell):
        return [step(cell, d) for d in self.DIRS]

    def area_text(self):
        return "rows and cols %d..%d" % (self.lo, self.hi)

    @staticmethod
    def order_key(cell):
        return cell   # row-major


class HexGeometry:
    """AXIO Hex: axial cells (q, r); the play area is a hexagon of some radius."""

    variant = "hex"
    DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    PAIR_DIRS = ((1, 0), (1, -1), (0, -1))
    RADIUS = {1: 5, 2: 5, 3: 6, 4: 7}
    FIELDS = {(5, 0): "red", (5, -5): "green", (0, -5): "blue",
              (-5, 0): "orange", (-5, 5): "yellow", (0, 5): "purple"}
    has_pyramids = False

    def __init__(self, players):
        self.area = self.RADIUS[players]
        n = self.area
        self.cells = [(q, r) for q in range(-n, n + 1) for r in range(-n, n + 1)
                      if self.distance((q, r)) <= n]

    @staticmethod
    def distance(cell):
        q, r = cell
        return max(abs(q), abs(r), abs(q + r))

    def in_area(self, cell):
        return self.distance(cell) <= self.area

    def neighbours(self, cell):
        return [step(cell, d) for d in self.DIRS]

    def area_text(self):
        return "distance <= %d from [0,0]" % self.area


class DominoBoard:
    """Tiles, printed fields and pyramids of a `square` or `hex` game.

    Symbols are colour indices. A cell is empty when it is in the play area and holds
    no tile, no field and no pyramid.
    """

    MAX_PYRAMIDS = 20

    def __init__(self, geometry, colours):
        self.g = geometry
        self.fields = {cell: colours.index(c) for cell, c in geometry.FIELDS.items()}
        self.tiles = {}            # cell -> colour index
        self.pyramids = deque()    # oldest first
        self.pyramid_cells = set()
        self.vacated = set()       # cells a moved pyramid left: never a pyramid again

    def is_empty(self, cell):
        return (self.g.in_area(cell) and cell not in self.tiles
                and cell not in self.fields and cell not in self.pyramid_cells)

    def symbol(self, cell):
        """The symbol on a cell (tile or field), None for empty/pyramid/outside."""
        if not self.g.in_area(cell):
            return None
        if cell in self.tiles:
            return self.tiles[cell]
        return self.fields.get(cell)

    def adjacent(self, a, b):
        return (b[0] - a[0], b[1] - a[1]) in self.g.DIRS

    def place(self, cells, symbols):
        for cell, sym in zip(cells, symbols):
            self.tiles[cell] = sym

    def tile_points(self, cells, symbols, ncolours):
        """Raw points of a placed domino (rules 2.2 step 2 / 4.2)."""
        points = [0] * ncolours
        for i in (0, 1):
            here, other, sym = cells[i], cells[1 - i], symbols[i]
            towards_other = (other[0] - here[0], other[1] - here[1])
            for d in self.g.DIRS:
                if d == towards_other:
                    continue
                cell = step(here, d)
                while self.symbol(cell) == sym:
                    points[sym] += 1
                    cell = step(cell, d)
        return points

    # --- pyramids (square) ---
    def is_single(self, cell):
        return all(not self.is_empty(n) for n in self.g.neighbours(cell))

    def new_singles(self, cells):
        """Cells the placement of `cells` made single, row-major (interpretation a).

        Only a neighbour of a placed cell can have become single; it was not single
        before, because the placed cell next to it was empty.
        """
        found = set()
        for cell in cells:
            for n in self.g.neighbours(cell):
                if self.is_empty(n) and n not in self.vacated and self.is_single(n):
                    found.add(n)
        return sorted(found, key=self.g.order_key)

    def put_pyramid(self, cell):
        """Puts a pyramid on `cell`; returns the cell the moved pyramid left, or None."""
        moved_from = None
        if len(self.pyramids) == self.MAX_PYRAMIDS:
            # SPEC: "oldest" = placed (or last moved) longest ago: a moved pyramid
            # counts as newly placed, so the pyramids are moved in a queue.
            moved_from = self.pyramids.popleft()
            self.pyramid_cells.discard(moved_from)
            self.vacated.add(moved_from)
        self.pyramids.append(cell)
        self.pyramid_cells.add(cell)
        return moved_from

    def pyramid_points(self, cell, ncolours):
        points = [0] * ncolours
        for n in self.g.neighbours(cell):
            sym = self.symbol(n)
            if sym is not None:
                points[sym] += 1
        return points

    # --- what is still possible ---
    def free_pairs(self):
        for a in self.g.cells:
            if self.is_empty(a):
                for d in self.g.PAIR_DIRS:
                    b = step(a, d)
                    if self.is_empty(b):
                        yield a, b

    def has_free_pair(self):
        return next(self.free_pairs(), None) is not None

    def untouched_fields(self):
        return {f for f in self.fields
                if not any(n in self.tiles for n in self.g.neighbours(f))}

    def touches(self, cells, field_cells):
        return any(n in field_cells for cell in cells for n in self.g.neighbours(cell))

    def first_tile_possible(self, field_cells):
        return any(self.touches(pair, field_cells) for pair in self.free_pairs())


def domino_set(ncolours, per_pair, per_double):
    """The full tile set: unordered pairs of colour indices -> count."""
    tiles = Counter()
    for a in range(ncolours):
        for b in range(a, ncolours):
            tiles[(a, b)] = per_double if a == b else per_pair
    return tiles


# --------------------------------------------------------------------------
# Geometry of ROTA
# --------------------------------------------------------------------------

class RotaGeometry:
    """Cells [x, y] (x right, y down), unbounded; corners NW, NE, SE, SW.

    Corner i of cell (x, y) lies at vertex (x, y) + CORNER_OFFSET[i]; the corners that
    meet at a vertex form its circle.
    """

    CORNER_OFFSET = ((0, 0), (1, 0), (1, 1), (0, 1))
    SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
    DISPLAY_CELLS = ((0, 0), (1, 0), (0, 1), (1, 1))
    CENTRE = (1, 1)

    @classmethod
    def vertex(cls, cell, corner):
        return step(cell, cls.CORNER_OFFSET[corner])

    @classmethod
    def circle(cls, vertex):
        """(cell, corner) of the four corners that meet at `vertex`."""
        return [((vertex[0] - ox, vertex[1] - oy), i)
                for i, (ox, oy) in enumerate(cls.CORNER_OFFSET)]

    @classmethod
    def corner_at(cls, cell, vertex):
        for i in range(4):
            if cls.vertex(cell, i) == vertex:
                return i
        return None


def rotations(tile):
    """The four rotations of a ROTA tile; rotation r: placed i = printed (i - r) mod 4."""
    return [tuple(tile[(i - r) % 4] for i in range(4)) for r in range(4)]


def rota_key(tile):
    """A rotation-independent key: the least rotation."""
    return min(rotations(tile))


def rota_set():
    """The [assumption] set of rules 3.1: 50 four-colour and 10 one-empty tiles."""
    tiles = Counter()
    for left_out in range(5):
        a, b, c, d = [x for x in range(5) if x != left_out]
        orders = [(a, b, c, d), (a, b, d, c), (a, c, b, d),
                  (a, c, d, b), (a, d, b, c), (a, d, c, b)]
        for order in orders + orders[:4]:
            tiles[rota_key(order)] += 1
    for a, b, c in combinations(range(5), 3):
        tiles[rota_key((a, b, c, EMPTY))] += 1
    return tiles


class RotaBoard:
    def __init__(self):
        self.tiles = {}   # cell -> placed corners (colour index or EMPTY)

    def touches_placed(self, cell):
        return any(step(cell, d) in self.tiles for d in RotaGeometry.SIDES)

    def corner_points(self, cell, corner, symbol):
        """Points of a corner showing `symbol` on `cell` (placed tile not yet on board)."""
        vertex = RotaGeometry.vertex(cell, corner)
        others = [self.tiles[c][k] for c, k in RotaGeometry.circle(vertex)
                  if c != cell and c in self.tiles]
        # A circle without an earlier corner scores nothing; empty earlier corners
        # never match a colour.
        return sum(1 for other in others if other == symbol)

    def points(self, cell, tile, wild):
        """Raw points per colour and the points of the empty corner (None: none)."""
        points = [0] * 5
        wild_points = None
        for corner, sym in enumerate(tile):
            if sym == EMPTY:
                wild_points = 0 if wild is None else self.corner_points(cell, corner, wild)
                if wild is not None:
                    points[wild] += wild_points
            else:
                points[sym] += self.corner_points(cell, corner, sym)
        return points, wild_points

    def place(self, cell, tile):
        self.tiles[cell] = tuple(tile)


# --------------------------------------------------------------------------
# Tracks and ranking
# --------------------------------------------------------------------------

# (variant, mode) -> (thresholds, thresholds that give a bonus move), rules 1.1.
# The last threshold is the immediate win (interpretation e; rota solo: 12).
# SPEC: square solo keeps the pyramids ("the standard rules with these changes").
MODES = {
    ("square", "standard"): ((18,), (18,)),
    ("square", "solo"): ((18, 36), ()),
    ("rota", "standard"): ((12,), (12,)),
    ("rota", "solo"): ((12,), (12,)),
    ("hex", "standard"): ((18,), (18,)),
    ("hex", "team"): ((18, 36), (18, 36)),
    ("hex", "solo"): ((18, 36), ()),
}


def apply_thresholds(score, points, thresholds):
    """Rules 1.1: the new tracks and [(colour, threshold reached)]."""
    new = list(score)
    reached = []
    for c, g in enumerate(points):
        above = [t for t in thresholds if t > score[c]]
        if not above:
            continue
        top = above[0]
        new[c] = min(score[c] + g, top)
        if new[c] == top:
            reached.append((c, top))
    return new, reached


def ranking(units):
    """Rules 1.2. units: [(seats, tracks)]; returns groups of seats, best first."""
    keyed = sorted(units, key=lambda u: sorted(u[1]), reverse=True)
    groups = []
    last_key = None
    for seats, tracks in keyed:
        key = sorted(tracks)
        if groups and key == last_key:
            groups[-1].extend(seats)
        else:
            groups.append(list(seats))
        last_key = key
    return [sorted(g) for g in groups]


def ranking_after_leaves(sides, tracks, left):
    """Rules 6. sides: seat tuples, tracks: per side; left: seats in the order they
    left. Those who stayed are ranked among themselves by 1.2; every side that left
    ranks below them, one place each, a later leaver above an earlier one (a team
    that left: both partners together)."""
    gone = [side for side in sides if any(seat in left for seat in side)]
    stayed = [(side, tracks[i]) for i, side in enumerate(sides) if side not in gone]
    groups = ranking(stayed)

    def left_at(side):   # a side left when its first seat left
        return min(left.index(seat) for seat in side if seat in left)

    for side in sorted(gone, key=left_at, reverse=True):
        groups.append(sorted(side))
    return groups


def solo_result(variant, tracks):
    low = sorted(tracks)
    if variant == "hex":
        return low[0] * 10000 + low[1] * 100 + low[2]
    return low[0]


# --------------------------------------------------------------------------
# The start line
# --------------------------------------------------------------------------

VALID_MODES = {
    "square": {1: ("solo",), 2: ("standard",), 3: ("standard",), 4: ("standard",)},
    "rota": {1: ("solo",), 2: ("standard",), 3: ("standard",), 4: ("standard",)},
    "hex": {1: ("solo",), 2: ("standard",), 3: ("standard",), 4: ("standard", "team")},
}


def check_start(event):
    d, line = event.data, event.line
    if event.ev != "start":
        raise RecordError(line, "the first line must be the start event, record has %s" % event.describe())
    if d.get("format") != FORMAT:
        raise RecordError(line, "start: format expected %s, record says %s" % (fmt(FORMAT), fmt(d.get("format"))))
    variant = d.get("variant")
    if not isinstance(variant, str) or variant not in VALID_MODES:
        raise RecordError(line, "start: variant must be one of square, rota, hex; record says %s" % fmt(variant))
    players = d.get("players")
    if not is_int(players) or players not in VALID_MODES[variant]:
        raise RecordError(line, "start: players must be 1..4, record says %s" % fmt(players))
    mode = d.get("mode")
    allowed = VALID_MODES[variant][players]
    if mode not in allowed:
        raise RecordError(line, "start: %s with %d player(s) allows mode %s, record says %s"
                          % (variant, players, " or ".join(allowed), fmt(mode)))
    if not isinstance(d.get("seed"), str):
        raise RecordError(line, "start: seed must be a string, record says %s" % fmt(d.get("seed")))
    names = d.get("names")
    if (not isinstance(names, list) or len(names) != players
            or not all(isinstance(n, str) for n in names)):
        raise RecordError(line, "start: names must be %d string(s), record says %s" % (players, fmt(names)))
    if variant == "rota":
        # SPEC: "rota omits" area and has no fields; an explicit null (or [] for
        # fields) is accepted as the same.
        if d.get("area") is not None:
            raise RecordError(line, "start: rota has no area, record says %s" % fmt(d.get("area")))
        if d.get("fields") not in (None, []):
            raise RecordError(line, "start: rota has no fields, record has %s" % fmt(d.get("fields")))
    else:
        geometry = SquareGeometry if variant == "square" else HexGeometry
        expected_area = (geometry.SIDE if variant == "square" else geometry.RADIUS)[players]
        if not is_int(d.get("area")) or d.get("area") != expected_area:
            raise RecordError(line, "start: area for %s with %d player(s) is %d, record says %s"
                              % (variant, players, expected_area, fmt(d.get("area"))))
        check_fields(line, d.get("fields"), geometry.FIELDS)
        if d.get("display") not in (None, []):
            raise RecordError(line, "start: only rota has a display, record has %s" % fmt(d.get("display")))
    return variant, players, mode


def check_fields(line, fields, expected):
    # SPEC: record.md does not fix the order of `fields`; they are compared as a set.
    if not isinstance(fields, list):
        raise RecordError(line, "start: fields must be a list, record says %s" % fmt(fields))
    seen = {}
    for f in fields:
        cell = f.get("cell") if isinstance(f, dict) else None
        if (not isinstance(cell, list) or len(cell) != 2 or not all(is_int(x) for x in cell)
                or not isinstance(f.get("color"), str)):
            raise RecordError(line, "start: a field must be {\"cell\":[a,b],\"color\":...}, record has %s" % fmt(f))
        key = tuple(cell)
        if key in seen:
            raise RecordError(line, "start: field cell %s listed twice" % fmt(cell))
        seen[key] = f["color"]
    for cell, colour in expected.items():
        if cell not in seen:
            raise RecordError(line, "start: fields lack %s %s" % (fmt(list(cell)), colour))
        if seen[cell] != colour:
            raise RecordError(line, "start: field %s must be %s, record says %s"
                              % (fmt(list(cell)), colour, fmt(seen[cell])))
    for cell in seen:
        if cell not in expected:
            raise RecordError(line, "start: %s is not a field, record lists it as %s"
                              % (fmt(list(cell)), fmt(seen[cell])))


# --------------------------------------------------------------------------
# What all variants share
# --------------------------------------------------------------------------

class Replay:
    """Common state and event checks; subclasses play the turns."""

    def __init__(self, stream, variant, players, mode):
        self.s = stream
        self.variant = variant
        self.players = players
        self.mode = mode
        self.colours = COLOURS6 if variant == "hex" else COLOURS5
        self.thresholds, self.bonus_thresholds = MODES[(variant, mode)]
        self.team = mode == "team"
        self.tracks = [[0] * len(self.colours) for _ in range(2 if self.team else players)]
        self.left = []   # seats that left (rules 6), in the order they left

    # --- units and tracks ---
    def unit_of(self, seat):
        return seat % 2 if self.team else seat

    def all_max(self, unit):
        return all(v == self.thresholds[-1] for v in self.tracks[unit])

    def score_map(self, values):
        return {c: v for c, v in zip(self.colours, values)}

    # --- reading events ---
    def expect(self, kind, what):
        event = self.s.peek()
        if event is None:
            raise RecordError(self.s.next_line(),
                              "record ends before the game is over: expected %s" % what)
        if event.ev != kind:
            over = " (the game is not over)" if event.ev == "end" else ""
            raise RecordError(event.line, "expected %s, record has %s%s" % (what, event.describe(), over))
        return self.s.next()

    def need(self, event, key):
        if key not in event.data:
            raise RecordError(event.line, '%s: missing key "%s"' % (event.ev, key))
        return event.data[key]

    def need_bool(self, event, key):
        value = self.need(event, key)
        if not isinstance(value, bool):
            raise RecordError(event.line, "%s: %s must be true or false, record says %s"
                              % (event.ev, key, fmt(value)))
        return value

    def check_player(self, event, seat):
        player = self.need(event, "player")
        if not is_int(player) or player != seat:
            raise RecordError(event.line, "%s: player expected %d, record says %s"
                              % (event.ev, seat, fmt(player)))

    def colour(self, event, value, what):
        if value not in self.colours:
            raise RecordError(event.line, "%s: %s must be a colour of %s (%s), record says %s"
                              % (event.ev, what, self.variant, ", ".join(self.colours), fmt(value)))
        return self.colours.index(value)

    def cell(self, event, value, what):
        if not isinstance(value, list) or len(value) != 2 or not all(is_int(x) for x in value):
            raise RecordError(event.line, "%s: %s must be a cell [a,b] of integers, record says %s"
                              % (event.ev, what, fmt(value)))
        return tuple(value)

    def score_values(self, event, value, what):
        """A score map with exactly the colours of the variant -> list of ints."""
        if (not isinstance(value, dict) or set(value) != set(self.colours)
                or not all(is_int(v) for v in value.values())):
            raise RecordError(event.line, "%s: %s must map each of %s to an integer, record says %s"
                              % (event.ev, what, ", ".join(self.colours), fmt(value)))
        return [value[c] for c in self.colours]

    def compare_map(self, event, what, expected, got, explain=None):
        if got == expected:
            return
        diffs = []
        for c, (e, g) in enumerate(zip(expected, got)):
            if e != g:
                note = explain(c) if explain else ""
                diffs.append("%s expected %d%s, record says %d" % (self.colours[c], e, note, g))
        raise RecordError(event.line, "%s: %s: %s" % (event.ev, what, "; ".join(diffs)))

    # --- one scoring unit: points, score, axio events ---
    def score_unit(self, event, seat, points):
        """Checks points/score of a unit, applies it, reads its axio events.

        Returns the number of bonus moves earned, or None on an immediate win.
        """
        unit = self.unit_of(seat)
        got_points = self.score_values(event, self.need(event, "points"), "points")
        self.compare_map(event, "points", points, got_points)
        old = self.tracks[unit]
        new, reached = apply_thresholds(old, points, self.thresholds)

        def explain(c):
            return " (%d + %d points, thresholds %s)" % (old[c], points[c], fmt(list(self.thresholds)))

        got_score = self.score_values(event, self.need(event, "score"), "score")
        self.compare_map(event, "score" + (" (team %d)" % unit if self.team else ""), new, got_score, explain)
        self.tracks[unit] = new
        self.read_axios(seat, reached)
        if self.all_max(unit):
            return None
        return sum(1 for _, t in reached if t in self.bonus_thresholds)

    def read_axios(self, seat, reached):
        # SPEC: the order of the axio events of one unit is not fixed; any order of
        # exactly the colours that reached a threshold is accepted.
        pending = {c: t for c, t in reached}
        while pending:
            names = ", ".join(self.colours[c] for c in sorted(pending))
            event = self.expect("axio", "axio by seat %d for %s" % (seat, names))
            self.check_player(event, seat)
            c = self.colour(event, self.need(event, "color"), "color")
            if c not in pending:
                raise RecordError(event.line, "axio: %s did not reach a threshold in this unit "
                                  "(expected axio for %s)" % (self.colours[c], names))
            score = self.need(event, "score")
            if not is_int(score) or score != pending[c]:
                raise RecordError(event.line, "axio: score expected %d, record says %s" % (pending[c], fmt(score)))
            bonus = self.need_bool(event, "bonus_move")
            expected_bonus = pending[c] in self.bonus_thresholds
            if bonus != expected_bonus:
                raise RecordError(event.line, "axio: bonus_move expected %s (%s %s at %d), record says %s"
                                  % (fmt(expected_bonus), self.variant, self.mode, pending[c], fmt(bonus)))
            del pending[c]
        event = self.s.peek()
        if event is not None and event.ev == "axio":
            raise RecordError(event.line, "unexpected axio: no (further) track reached a threshold "
                              "in this unit (tracks %s)" % fmt(self.score_map(self.tracks[self.unit_of(seat)])))

    # --- tiles ---
    def take_draw(self, seat, source, count, why, parse, accept):
        """Reads one draw (consecutive draw events of `seat`) of exactly `count` tiles.

        `parse(event, value)` turns a record tile into a tile; `accept(event, tile)`
        takes it from the unseen tiles (or raises). Returns the tiles.
        SPEC: a draw of 0 tiles may be written as an empty draw event or left out.
        SPEC: "consecutive draw events of one player count as one draw": they are
        merged, and each must name the source expected here.
        """
        tiles = []
        last = None
        while True:
            event = self.s.peek()
            if (event is None or event.ev != "draw" or not is_int(event.data.get("player"))
                    or event.data["player"] != seat):
                break
            self.s.next()
            last = event
            if self.need(event, "from") != source:
                raise RecordError(event.line, "draw: from expected %s (%s), record says %s"
                                  % (fmt(source), why, fmt(event.data["from"])))
            listed = self.need(event, "tiles")
            if not isinstance(listed, list):
                raise RecordError(event.line, "draw: tiles must be a list, record says %s" % fmt(listed))
            for value in listed:
                if len(tiles) == count:
                    raise RecordError(event.line, "draw: seat %d draws %d tile(s) here (%s), record draws more"
                                      % (seat, count, why))
                tile = parse(event, value)
                accept(event, tile)
                tiles.append(tile)
        if len(tiles) < count:
            if last is not None:
                line, has = last.line, "draws only %d" % len(tiles)
            elif event is None:
                line, has = self.s.next_line(), "ends"
            else:
                line, has = event.line, "has %s" % event.describe()
            raise RecordError(line, "expected seat %d to draw %d tile(s) from the %s (%s); record %s"
                              % (seat, count, source, why, has))
        return tiles

    # --- leaving (rules 6) ---
    def leaves(self, what):
        """Reads the `leave` events standing where the rules await `what` (a decision).

        Raises GameOver (after checking the end event) when the leaves end the game.
        SPEC: interpretation 12: several leaves may stand where one decision is
        awaited, and none changes whose decision it is: the seat to move decides next.
        """
        while True:
            event = self.s.peek()
            if event is None or event.ev != "leave":
                return
            self.s.next()
            seat = self.need(event, "player")
            if not is_int(seat) or not 0 <= seat < self.players:
                raise RecordError(event.line, "leave: player must be a seat 0..%d, record says %s"
                                  % (self.players - 1, fmt(seat)))
            if seat in self.left:
                raise RecordError(event.line, "leave: seat %d left already (a player who left cannot "
                                  "come back)" % seat)
            reason = self.need(event, "why")
            if reason not in LEAVE_REASONS:
                raise RecordError(event.line, "leave: why must be %s, record says %s"
                                  % (", ".join(LEAVE_REASONS), fmt(reason)))
            self.left.append(seat)
            sides = self.units()
            staying = [side for side in sides if not any(s in self.left for s in side)]
            if len(sides) == 1:
                why = "solo: leaving ends the game"
            elif len(sides) == 2:
                why = "two sides: seat %d left" % seat
            elif len(staying) == 1:
                why = "only %s has not left" % " and ".join("seat %d" % s for s in staying[0])
            else:
                continue   # three or four sides: the game goes on
            self.expect_end("left", why + ", awaiting " + what)
            raise GameOver()

    # --- the end ---
    def expect_end(self, reason, why):
        event = self.expect("end", "end (%s: %s)" % (reason, why))
        got = self.need(event, "reason")
        if got != reason:
            raise RecordError(event.line, "end: reason expected %s (%s), record says %s"
                              % (fmt(reason), why, fmt(got)))
        scores = self.need(event, "scores")
        if not isinstance(scores, list) or len(scores) != self.players:
            raise RecordError(event.line, "end: scores must list %d score map(s) (one per seat), record says %s"
                              % (self.players, fmt(scores)))
        for seat, value in enumerate(scores):
            got_values = self.score_values(event, value, "scores[%d]" % seat)
            self.compare_map(event, "scores[%d]" % seat, self.tracks[self.unit_of(seat)], got_values)
        expected_ranking = ranking_after_leaves(self.units(), self.tracks, self.left)
        got_ranking = self.need(event, "ranking")
        if got_ranking != expected_ranking or not all(is_int(s) for g in got_ranking for s in g):
            raise RecordError(event.line, "end: ranking expected %s, record says %s"
                              % (fmt(expected_ranking), fmt(got_ranking)))
        expected_result = solo_result(self.variant, self.tracks[0]) if self.mode == "solo" else None
        got_result = self.need(event, "result")
        if got_result != expected_result or isinstance(got_result, bool) or isinstance(got_result, float):
            raise RecordError(event.line, "end: result expected %s, record says %s"
                              % (fmt(expected_result), fmt(got_result)))
        if not self.s.at_end():
            raise RecordError(self.s.next_line(), "nothing may follow the end event")

    def units(self):
        if self.team:
            return [(0, 2), (1, 3)]
        return [(seat,) for seat in range(self.players)]


# --------------------------------------------------------------------------
# square and hex
# --------------------------------------------------------------------------

class DominoReplay(Replay):
    """The turn loop of `square` and `hex`, standard, team and solo."""

    def __init__(self, stream, variant, players, mode):
        super().__init__(stream, variant, players, mode)
        geometry = SquareGeometry(players) if variant == "square" else HexGeometry(players)
        self.g = geometry
        self.board = DominoBoard(geometry, self.colours)
        n = len(self.colours)
        self.full = domino_set(n, 8, 4) if variant == "square" else domino_set(n, 6, 5)
        self.bag = Counter(self.full)
        self.bag_count = sum(self.bag.values())
        self.full_rack = 1 if mode == "solo" else (5 if variant == "square" else 6)
        self.racks = [Counter() for _ in range(players)]
        self.placed_first = [False] * players

    # --- tiles ---
    def name(self, tile):
        return [self.colours[tile[0]], self.colours[tile[1]]]

    def rack_text(self, seat):
        return fmt([self.name(t) for t in sorted(self.racks[seat].elements())])

    def parse_tile(self, event, value):
        """Record domino -> its two colour indices, in the order written."""
        if not isinstance(value, list) or len(value) != 2:
            raise RecordError(event.line, "%s: a tile must be two colours, record says %s" % (event.ev, fmt(value)))
        return tuple(self.colour(event, v, "tile symbol") for v in value)

    @staticmethod
    def key(tile):
        return tuple(sorted(tile))

    def take_from_bag(self, event, tile):
        key = self.key(tile)
        if self.bag[key] == 0:
            raise RecordError(event.line, "%s: tile %s is not in the bag (all %d of them are already out)"
                              % (event.ev, fmt(self.name(tile)), self.full[key]))
        self.bag[key] -= 1
        self.bag_count -= 1

    def refill(self, seat, initial=False):
        size = sum(self.racks[seat].values())
        count = min(self.full_rack - size, self.bag_count)
        why = "%s: rack %d/%d, bag %d" % ("initial rack" if initial else "refill", size, self.full_rack, self.bag_count)
        for tile in self.take_draw(seat, "bag", count, why, self.parse_tile, self.take_from_bag):
            self.racks[seat][self.key(tile)] += 1

    # --- the game ---
    def run(self):
        for seat in range(self.players):
            self.refill(seat, initial=True)
        seat = 0
        while True:
            blocked = self.blocked_reason(seat)
            if blocked:
                return self.expect_end("blocked", blocked)
            if not self.play_unit_chain(seat):
                return
            swapped = False
            if self.swap_eligible(seat):
                swapped = self.read_swap(seat)
            else:
                self.reject_swap(seat)
            if not swapped:
                self.refill(seat)
            seat = (seat + 1) % self.players

    def play_unit_chain(self, seat):
        """The turn's placement and all its bonus moves; False when the game ended."""
        earned = self.placement(seat, bonus=False)
        pending = earned or 0
        while earned is not None and pending:
            blocked = self.blocked_reason(seat)
            if blocked:
                # Interpretation b: an unplayable bonus move ends the game.
                self.expect_end("blocked", blocked + " (bonus move pending)")
                return False
            pending -= 1
            earned = self.placement(seat, bonus=True)
            pending += earned or 0
        if earned is None:
            who = "team %d" % self.unit_of(seat) if self.team else "seat %d" % seat
            self.expect_end("all-max", "every track of %s is at %d" % (who, self.thresholds[-1]))
            return False
        return True

    def blocked_reason(self, seat):
        # SPEC: literal 2.2 "or an empty rack": the game ends even when the bag
        # holds tiles again (possible after an accepted swap with a short bag).
        if not self.racks[seat]:
            return "seat %d to move has an empty rack" % seat
        if not self.board.has_free_pair():
            return "no two adjacent empty cells in the play area"
        return None

    def placement(self, seat, bonus):
        """One place event and its pyramids; bonus moves earned, or None (all-max)."""
        what = "place by seat %d%s" % (seat, " (bonus move)" if bonus else "")
        self.leaves(what)
        event = self.expect("place", what)
        self.check_player(event, seat)
        got_bonus = self.need_bool(event, "bonus")
        if got_bonus != bonus:
            raise RecordError(event.line, "place: bonus expected %s, record says %s" % (fmt(bonus), fmt(got_bonus)))
        tile = self.parse_tile(event, self.need(event, "tile"))
        cells = self.need(event, "cells")
        if not isinstance(cells, list) or len(cells) != 2:
            raise RecordError(event.line, "place: cells must be two cells, record says %s" % fmt(cells))
        cells = [self.cell(event, c, "cell") for c in cells]
        if self.racks[seat][self.key(tile)] == 0:
            raise RecordError(event.line, "place: tile %s is not in seat %d's rack %s"
                              % (fmt(self.name(tile)), seat, self.rack_text(seat)))
        self.check_cells(event, cells)
        if not bonus and not self.placed_first[seat]:
            self.check_first_tile(event, seat, cells)
            self.placed_first[seat] = True
        self.racks[seat][self.key(tile)] -= 1
        self.racks[seat] += Counter()   # drop zero counts
        self.board.place(cells, tile)
        points = self.board.tile_points(cells, tile, len(self.colours))
        earned = self.score_unit(event, seat, points)
        if earned is None or not self.g.has_pyramids:
            return earned
        return self.pyramids(seat, cells, earned)

    def check_cells(self, event, cells):
        for c in cells:
            where = fmt(list(c))
            if not self.g.in_area(c):
                raise RecordError(event.line, "place: cell %s is outside the play area (%s)" % (where, self.g.area_text()))
            if c in self.board.fields:
                raise RecordError(event.line, "place: cell %s holds a field" % where)
            if c in self.board.tiles:
                raise RecordError(event.line, "place: cell %s already holds a tile" % where)
            if c in self.board.pyramid_cells:
                raise RecordError(event.line, "place: cell %s holds a pyramid" % where)
        if not self.board.adjacent(cells[0], cells[1]):
            raise RecordError(event.line, "place: cells %s and %s are not adjacent"
                              % (fmt(list(cells[0])), fmt(list(cells[1]))))

    def check_first_tile(self, event, seat, cells):
        """Rules 2.2/4.2 first tile (interpretation h); solo: touch a field."""
        # SPEC: solo's "the first tile must touch a field" is checked with the same
        # code; its fallback can never apply, the solo board is empty then.
        untouched = self.board.untouched_fields()
        if self.board.touches(cells, untouched):
            return
        if self.board.first_tile_possible(untouched):
            names = ", ".join("%s %s" % (fmt(list(f)), self.colours[self.board.fields[f]])
                              for f in sorted(untouched))
            raise RecordError(event.line, "place: the first tile of seat %d must touch a field no tile touches yet "
                              "(untouched: %s)" % (seat, names))

    def pyramids(self, seat, cells, earned):
        for cell in self.board.new_singles(cells):
            event = self.expect("pyramid", "pyramid by seat %d on %s" % (seat, fmt(list(cell))))
            self.check_player(event, seat)
            got = self.cell(event, self.need(event, "cell"), "cell")
            if got != cell:
                raise RecordError(event.line, "pyramid: cell expected %s (row-major order of the new single "
                                  "cells), record says %s" % (fmt(list(cell)), fmt(list(got))))
            moved = self.board.put_pyramid(cell)
            got_moved = self.need(event, "moved_from")
            expected_moved = None if moved is None else list(moved)
            if got_moved != expected_moved:
                why = "the oldest pyramid" if moved else "fewer than %d pyramids on the board" % DominoBoard.MAX_PYRAMIDS
                raise RecordError(event.line, "pyramid: moved_from expected %s (%s), record says %s"
                                  % (fmt(expected_moved), why, fmt(got_moved)))
            points = self.board.pyramid_points(cell, len(self.colours))
            more = self.score_unit(event, seat, points)
            if more is None:
                return None
            earned += more
        event = self.s.peek()
        if event is not None and event.ev == "pyramid":
            raise RecordError(event.line, "unexpected pyramid: the placement on %s made no (further) single cell"
                              % fmt([list(c) for c in cells]))
        return earned

    # --- swap (interpretation c) ---
    def lowest(self, seat):
        tracks = self.tracks[self.unit_of(seat)]
        low = min(tracks)
        return {c for c, v in enumerate(tracks) if v == low}

    def shown(self, seat):
        return {sym for tile in self.racks[seat] for sym in tile}

    def swap_eligible(self, seat):
        if self.mode == "solo" or not self.racks[seat] or self.bag_count == 0:
            return False
        return not (self.shown(seat) & self.lowest(seat))

    def reject_swap(self, seat):
        event = self.s.peek()
        if event is None or event.ev != "swap":
            return
        if self.mode == "solo":
            why = "there is no swap in solo"
        elif not self.racks[seat]:
            why = "the rack is empty"
        elif self.bag_count == 0:
            why = "the bag is empty"
        else:
            both = sorted(self.shown(seat) & self.lowest(seat))
            why = "the rack shows %s, among the lowest tracks" % ", ".join(self.colours[c] for c in both)
        raise RecordError(event.line, "swap: seat %d may not swap: %s" % (seat, why))

    def read_swap(self, seat):
        lows = ", ".join(self.colours[c] for c in sorted(self.lowest(seat)))
        what = "swap decision by seat %d (eligible: lowest tracks %s, rack %s)" % (seat, lows, self.rack_text(seat))
        self.leaves(what)
        event = self.expect("swap", what)
        self.check_player(event, seat)
        if not self.need_bool(event, "accepted"):
            # SPEC: a declined swap may omit returned/drawn or list them empty.
            for key in ("returned", "drawn"):
                if event.data.get(key):
                    raise RecordError(event.line, "swap: a declined swap %s no tiles, record has %s"
                                      % ("returns" if key == "returned" else "draws", fmt(event.data[key])))
            return False
        returned = self.need(event, "returned")
        drawn = self.need(event, "drawn")
        for key, value in (("returned", returned), ("drawn", drawn)):
            if not isinstance(value, list):
                raise RecordError(event.line, "swap: %s must be a list of tiles, record says %s" % (key, fmt(value)))
        returned = Counter(self.key(self.parse_tile(event, t)) for t in returned)
        if returned != self.racks[seat]:
            raise RecordError(event.line, "swap: returned must be the whole rack %s, record says %s"
                              % (self.rack_text(seat), fmt(event.data["returned"])))
        count = min(self.full_rack, self.bag_count)
        if len(drawn) != count:
            raise RecordError(event.line, "swap: drawn expected %d tile(s) (min(%d, bag %d)), record has %d"
                              % (count, self.full_rack, self.bag_count, len(drawn)))
        new_rack = Counter()
        for value in drawn:
            tile = self.parse_tile(event, value)
            self.take_from_bag(event, tile)
            new_rack[self.key(tile)] += 1
        self.bag += returned
        self.bag_count += sum(returned.values())
        self.racks[seat] = new_rack
        event = self.s.peek()
        if event is not None and event.ev == "draw" and is_int(event.data.get("player")) \
                and event.data["player"] == seat:
            raise RecordError(event.line, "draw: no refill follows an accepted swap")
        return True


# --------------------------------------------------------------------------
# rota
# --------------------------------------------------------------------------

class RotaReplay(Replay):
    """The turn loop of `rota`, standard and solo (interpretation f)."""

    STACK = 12

    def __init__(self, stream, variant, players, mode, start):
        super().__init__(stream, variant, players, mode)
        self.board = RotaBoard()
        self.full = rota_set()
        self.unseen = Counter(self.full)    # stacks and supply together
        self.stacks = [self.STACK] * players
        self.supply = sum(self.full.values()) - 4 - self.STACK * players
        self.hands = [None] * players
        self.check_display(start)

    def name(self, tile):
        return [None if c == EMPTY else self.colours[c] for c in tile]

    def parse_tile(self, event, value, what="tile"):
        if not isinstance(value, list) or len(value) != 4:
            raise RecordError(event.line, "%s: a ROTA %s must be four corners, record says %s"
                              % (event.ev, what, fmt(value)))
        return tuple(EMPTY if v is None else self.colour(event, v, "corner") for v in value)

    def take_unseen(self, event, tile):
        # SPEC: a drawn tile's rotation means nothing; tiles are compared up to rotation.
        key = rota_key(tile)
        if key not in self.full:
            raise RecordError(event.line, "%s: %s is not a tile of the ROTA set" % (event.ev, fmt(self.name(tile))))
        if self.unseen[key] == 0:
            raise RecordError(event.line, "%s: tile %s is already out (the set has %d of it)"
                              % (event.ev, fmt(self.name(tile)), self.full[key]))
        self.unseen[key] -= 1

    def check_display(self, start):
        display = start.data.get("display")
        if not isinstance(display, list) or len(display) != 4:
            raise RecordError(start.line, "start: rota display must be 4 tiles, record says %s" % fmt(display))
        for entry in display:
            if not isinstance(entry, dict):
                raise RecordError(start.line, "start: a display entry must be {\"cell\",\"tile\"}, record has %s" % fmt(entry))
            cell = self.cell(start, entry.get("cell"), "display cell")
            if cell not in RotaGeometry.DISPLAY_CELLS:
                raise RecordError(start.line, "start: display cell %s is not one of [0,0] [1,0] [0,1] [1,1]"
                                  % fmt(list(cell)))
            if cell in self.board.tiles:
                raise RecordError(start.line, "start: display cell %s listed twice" % fmt(list(cell)))
            tile = self.parse_tile(start, entry.get("tile"), "display tile")
            self.take_unseen(start, tile)
            centre = RotaGeometry.corner_at(cell, RotaGeometry.CENTRE)
            if EMPTY in tile and tile[centre] != EMPTY:
                raise RecordError(start.line, "start: display tile %s on %s must have its empty corner at the "
                                  "centre vertex (1,1), i.e. corner %d" % (fmt(self.name(tile)), fmt(list(cell)), centre))
            self.board.place(cell, tile)

    def draw(self, seat, source, count, why):
        def accept(event, tile):
            self.take_unseen(event, tile)
        tiles = self.take_draw(seat, source, count, why, self.parse_tile, accept)
        if source == "stack":
            self.stacks[seat] -= count
        else:
            self.supply -= count
        if tiles:
            self.hands[seat] = tiles[0]

    def run(self):
        for seat in range(self.players):
            self.draw(seat, "stack", 1, "first hand tile")
        seat = 0
        while True:
            earned = self.placement(seat, bonus=False)
            pending = earned or 0
            # SPEC: bonus moves still due when the supply runs out are lost (3.3
            # "No bonus moves once the supply is empty").
            while earned is not None and pending and self.supply > 0:
                self.draw(seat, "supply", 1, "bonus move, supply %d" % self.supply)
                pending -= 1
                earned = self.placement(seat, bonus=True)
                pending += earned or 0
            if earned is None:
                return self.expect_end("all-max", "every track of seat %d is at 12" % seat)
            count = 1 if self.stacks[seat] > 0 else 0
            self.draw(seat, "stack", count, "end of turn, stack %d" % self.stacks[seat])
            if all(h is None for h in self.hands):
                return self.expect_end("tiles-out", "every stack is played")
            seat = (seat + 1) % self.players
            while self.hands[seat] is None:   # cannot happen: stacks are equal
                seat = (seat + 1) % self.players

    def placement(self, seat, bonus):
        what = "place by seat %d%s" % (seat, " (bonus move)" if bonus else "")
        self.leaves(what)
        event = self.expect("place", what)
        self.check_player(event, seat)
        got_bonus = self.need_bool(event, "bonus")
        if got_bonus != bonus:
            raise RecordError(event.line, "place: bonus expected %s, record says %s" % (fmt(bonus), fmt(got_bonus)))
        tile = self.parse_tile(event, self.need(event, "tile"))
        cell = self.cell(event, self.need(event, "cell"), "cell")
        hand = self.hands[seat]
        if hand is None:
            raise RecordError(event.line, "place: seat %d has no tile in hand" % seat)
        if rota_key(tile) != rota_key(hand):
            raise RecordError(event.line, "place: tile %s is not a rotation of seat %d's hand tile %s"
                              % (fmt(self.name(tile)), seat, fmt(self.name(hand))))
        if cell in self.board.tiles:
            raise RecordError(event.line, "place: cell %s already holds a tile" % fmt(list(cell)))
        if not self.board.touches_placed(cell):
            raise RecordError(event.line, "place: cell %s shares no side with a placed tile" % fmt(list(cell)))
        # SPEC: `wild` is a listed key: required (null when unused), like `bonus`,
        # `moved_from` and the end's `result`.
        wild = self.need(event, "wild")
        wild = None if wild is None else self.colour(event, wild, "wild")
        if wild is not None and EMPTY not in tile:
            raise RecordError(event.line, "place: wild must be null, the tile has no empty corner")
        points, wild_points = self.board.points(cell, tile, wild)
        if wild is not None and wild_points == 0:
            raise RecordError(event.line, "place: wild %s scores 0 points at the empty corner, so it must be null "
                              "(interpretation f)" % self.colours[wild])
        self.board.place(cell, tile)
        self.hands[seat] = None
        return self.score_unit(event, seat, points)


# --------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------

def check_lines(raw_lines):
    """Checks one record given as a list of byte lines; returns the event count.

    Raises RecordError at the first inconsistency.
    """
    stream = Stream(raw_lines)
    start = stream.next()
    if start is None:
        raise RecordError(1, "empty record: no start line")
    variant, players, mode = check_start(start)
    if variant == "rota":
        replay = RotaReplay(stream, variant, players, mode, start)
    else:
        replay = DominoReplay(stream, variant, players, mode)
    try:
        replay.run()
    except GameOver:
        pass
    return len(raw_lines)


def check_bytes(data):
    return check_lines(split_lines(data))


def check_file(path):
    """Returns (ok, line to print)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        return False, "%s:0: cannot read: %s" % (path, exc.strerror)
    try:
        n = check_bytes(data)
    except RecordError as exc:
        return False, "%s:%d: %s" % (path, exc.line, exc.message)
    except Exception as exc:   # a checker bug must not hide the other files
        return False, "%s:0: internal checker error: %r" % (path, exc)
    return True, "ok %s (%d events)" % (path, n)


USAGE = "usage: python3 axio_check.py FILE|DIR [FILE|DIR ...]"


def collect(args):
    files = []
    for arg in args:
        if os.path.isdir(arg):
            files.extend(os.path.join(arg, n) for n in sorted(os.listdir(arg))
                         if n.endswith(".jsonl") and os.path.isfile(os.path.join(arg, n)))
        elif os.path.isfile(arg):
            files.append(arg)
        else:
            raise FileNotFoundError(arg)
    return files


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if not argv or any(a.startswith("-") and not os.path.exists(a) for a in argv):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        files = collect(argv)
    except FileNotFoundError as exc:
        print("axio_check: no such file or directory: %s" % exc.args[0], file=sys.stderr)
        return 2
    if not files:
        print("axio_check: no *.jsonl records in %s" % " ".join(argv), file=sys.stderr)
        return 2
    all_ok = True
    for path in files:
        ok, text = check_file(path)
        print(text)
        all_ok = all_ok and ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
