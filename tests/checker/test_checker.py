"""Tests of the independent record checker (axio_check.py).

Run: python3 -m unittest discover -s tests/checker

* Rules pieces against hand-computed values (scoring of all three variants,
  pyramids, thresholds, ranking, the tile sets).
* Hand-made records, built below event by event with hand-computed points: a
  `square` opening (16 lines, with a swap and a pyramid) and a complete `rota` solo
  game. The right ones pass; each one-thing-wrong copy fails at the right line.
* Whole games written by gamegen.py for every variant and mode: they pass, and
  copies with one thing wrong fail at the right line.
* Leaving (rules 6): games where seats leave at planned or random moments pass
  (two sides and solo end at once, three or four sides play on, the ranking puts
  leavers last); bad, repeated or misplaced leave events fail at their line.
"""

import copy
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from collections import Counter
from contextlib import redirect_stdout, redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import axio_check as ac  # noqa: E402
import gamegen  # noqa: E402

R, G, B, O, P, Y = range(6)
C5 = ac.COLOURS5


def lines_of(events):
    return [json.dumps(e).encode() for e in events]


def verdict(events):
    """('ok', n) or (line, message)."""
    try:
        return "ok", ac.check_lines(lines_of(events))
    except ac.RecordError as exc:
        return exc.line, exc.message


def smap(colours=C5, **values):
    return {c: values.get(c, 0) for c in colours}


# --------------------------------------------------------------------------
# Rules pieces
# --------------------------------------------------------------------------

class SquareScoring(unittest.TestCase):
    def board(self, players=2):
        return ac.DominoBoard(ac.SquareGeometry(players), C5)

    def test_one_matching_neighbour_scores_one(self):
        b = self.board()
        b.place([(5, 5), (5, 4)], (B, G))
        b.place([(4, 5), (3, 5)], (B, R))
        self.assertEqual(b.tile_points([(4, 5), (3, 5)], (B, R), 5), [0, 0, 1, 0, 0])

    def test_three_blue_two_red(self):
        # blue line of 3 to the left of the blue half; red half sees 2 reds above
        b = self.board()
        b.place([(4, 3), (4, 4)], (B, B))
        b.place([(4, 5), (5, 5)], (B, G))
        b.place([(2, 7), (3, 7)], (R, R))
        b.place([(4, 6), (4, 7)], (B, R))
        self.assertEqual(b.tile_points([(4, 6), (4, 7)], (B, R), 5), [2, 0, 3, 0, 0])

    def test_lines_stop_at_other_half_empty_field_and_edge(self):
        b = self.board()
        # field [2,6] red is above [3,6]; the area ends at row 2
        b.place([(3, 6), (3, 7)], (R, R))
        self.assertEqual(b.tile_points([(3, 6), (3, 7)], (R, R), 5), [1, 0, 0, 0, 0])
        # a double does not score itself
        b.place([(8, 8), (8, 9)], (G, G))
        self.assertEqual(b.tile_points([(8, 8), (8, 9)], (G, G), 5), [0, 0, 0, 0, 0])

    def test_outside_the_area_stops_a_line(self):
        b3 = self.board(3)   # rows 1..11
        b3.place([(1, 1), (1, 2)], (O, O))
        b3.place([(2, 1), (3, 1)], (O, G))
        self.assertEqual(b3.tile_points([(2, 1), (3, 1)], (O, G), 5), [0, 0, 0, 1, 0])
        self.assertFalse(ac.SquareGeometry(3).in_area((0, 5)))
        self.assertTrue(ac.SquareGeometry(4).in_area((0, 5)))

    def test_pyramid_green_red_blue(self):
        # rules 5: a pyramid touching green, red and blue gives 1 each
        b = self.board()
        b.place([(2, 2), (2, 3)], (G, O))
        b.place([(3, 3), (4, 3)], (R, O))
        self.assertEqual(b.new_singles([(3, 3), (4, 3)]), [])
        b.place([(4, 2), (5, 2)], (B, O))
        self.assertEqual(b.new_singles([(4, 2), (5, 2)]), [(3, 2)])
        self.assertEqual(b.pyramid_points((3, 2), 5), [1, 1, 1, 0, 0])

    def test_singles_row_major_and_fields_close_cells(self):
        b = self.board()
        # [2,5] lies beside the red field [2,6] on the area's top edge
        for cells in ([(2, 3), (2, 4)], [(3, 3), (3, 4)], [(4, 2), (4, 3)], [(5, 4), (5, 5)]):
            b.place(cells, (G, G))
            self.assertEqual(b.new_singles(cells), [])
        b.place([(4, 5), (3, 5)], (R, R))
        self.assertEqual(b.new_singles([(4, 5), (3, 5)]), [(2, 5), (4, 4)])
        # a cell a pyramid left never gets one again
        b.vacated.add((2, 5))
        self.assertEqual(b.new_singles([(4, 5), (3, 5)]), [(4, 4)])

    def test_twentieth_pyramid_then_oldest_moves(self):
        b = self.board()
        for i in range(20):
            self.assertIsNone(b.put_pyramid((i, 0)))
        self.assertEqual(b.put_pyramid((5, 5)), (0, 0))
        self.assertEqual(b.put_pyramid((5, 6)), (1, 0))
        self.assertIn((0, 0), b.vacated)
        self.assertEqual(list(b.pyramids)[-2:], [(5, 5), (5, 6)])


class HexScoring(unittest.TestCase):
    def board(self):
        return ac.DominoBoard(ac.HexGeometry(2), ac.COLOURS6)

    def test_double_touching_one_hex_scores_one_turned_two(self):
        b = self.board()
        b.place([(0, 0), (0, 3)], (O, G))       # one orange hex (other half far away)
        # double orange east of it, in line: only the near half sees it
        b.place([(1, 0), (2, 0)], (O, O))
        self.assertEqual(b.tile_points([(1, 0), (2, 0)], (O, O), 6)[O], 1)
        del b.tiles[(1, 0)], b.tiles[(2, 0)]
        # turned so both halves touch [0,0]: [1,0] and [1,-1] are both its neighbours
        b.place([(1, 0), (1, -1)], (O, O))
        self.assertEqual(b.tile_points([(1, 0), (1, -1)], (O, O), 6)[O], 2)

    def test_five_directions_and_start_symbols(self):
        b = self.board()
        # yellow start symbol at [-5,5]; a yellow half next to it scores 1
        b.place([(-4, 4), (-3, 3)], (Y, B))
        self.assertEqual(b.tile_points([(-4, 4), (-3, 3)], (Y, B), 6)[Y], 1)
        self.assertEqual(len(ac.HexGeometry(2).cells), 91)
        self.assertEqual(len(ac.HexGeometry(3).cells), 127)
        self.assertEqual(len(ac.HexGeometry(4).cells), 169)


class RotaScoring(unittest.TestCase):
    def test_circles(self):
        circle = ac.RotaGeometry.circle((1, 1))
        self.assertEqual(sorted(circle), [((0, 0), 2), ((0, 1), 1), ((1, 0), 3), ((1, 1), 0)])

    def test_corner_scores_matches_in_its_circle(self):
        b = ac.RotaBoard()
        b.place((0, 0), (R, G, B, O))
        b.place((1, 0), (P, R, B, G))
        b.place((0, 1), (G, B, P, R))
        # new tile at [1,1]: NW corner meets [0,0] SE (blue), [1,0] SW (green), [0,1] NE (blue);
        # NE meets [1,0] SE (blue), SW meets [0,1] SE (purple), SE meets nothing
        pts, wild = b.points((1, 1), (B, R, G, O), None)
        self.assertEqual(pts, [0, 0, 2, 0, 0])
        self.assertIsNone(wild)
        pts, _ = b.points((1, 1), (G, B, R, P), None)
        self.assertEqual(pts, [0, 1, 1, 0, 1])
        # an empty NW naming blue scores 2, naming red 0
        pts, wild = b.points((1, 1), (ac.EMPTY, R, G, O), B)
        self.assertEqual((pts, wild), ([0, 0, 2, 0, 0], 2))
        pts, wild = b.points((1, 1), (ac.EMPTY, R, G, O), R)
        self.assertEqual((pts, wild), ([0, 0, 0, 0, 0], 0))

    def test_earlier_empty_corners_never_score(self):
        b = ac.RotaBoard()
        b.place((0, 0), (R, G, ac.EMPTY, O))
        pts, _ = b.points((1, 0), (R, G, B, O), None)   # SW of new tile meets the empty SE
        self.assertEqual(pts, [0, 0, 0, 0, 0])
        pts, _ = b.points((1, 0), (G, R, B, O), None)   # NW meets [0,0] NE green
        self.assertEqual(pts, [0, 1, 0, 0, 0])

    def test_rotation_convention(self):
        # rotation r: placed corner i = printed corner (i - r) mod 4
        self.assertEqual(ac.rotations((R, G, B, O))[1], (O, R, G, B))

    def test_tile_set(self):
        full = ac.rota_set()
        self.assertEqual(sum(full.values()), 60)
        corners = Counter()
        for key, n in full.items():
            for c in key:
                corners[c] += n
        self.assertEqual([corners[c] for c in range(5)], [46] * 5)
        self.assertEqual(corners[ac.EMPTY], 10)


class Tracks(unittest.TestCase):
    def test_threshold_caps_the_unit(self):
        new, reached = ac.apply_thresholds([16, 0, 18, 3, 0], [5, 2, 4, 0, 0], (18,))
        self.assertEqual(new, [18, 2, 18, 3, 0])
        self.assertEqual(reached, [(0, 18)])

    def test_two_thresholds(self):
        new, reached = ac.apply_thresholds([17, 18, 30, 36, 0, 0], [9, 20, 9, 4, 0, 1], (18, 36))
        self.assertEqual(new, [18, 36, 36, 36, 0, 1])
        self.assertEqual(reached, [(0, 18), (1, 36), (2, 36)])

    def test_ranking_examples(self):
        # rules 5 square: A lowest 11 beats B lowest 8
        self.assertEqual(ac.ranking([((0,), [11, 12, 13, 14, 15]), ((1,), [8, 18, 18, 18, 18])]), [[0], [1]])
        # three players all lowest 9; A second 11, B and C 12; B third 12, C 15: C wins
        units = [((0,), [9, 11, 18, 18, 18]), ((1,), [9, 12, 12, 18, 18]), ((2,), [9, 12, 15, 16, 16])]
        self.assertEqual(ac.ranking(units), [[2], [1], [0]])
        # rota: all lowest 7, then 8 vs 9 vs 9, then 9 vs 10: the 10 wins
        units = [((0,), [7, 8, 12, 12, 12]), ((1,), [7, 9, 9, 12, 12]), ((2,), [7, 9, 10, 10, 10])]
        self.assertEqual(ac.ranking(units), [[2], [1], [0]])
        # colours never matter; equal players share a place; seats ascending
        units = [((0,), [1, 2, 3, 4, 5]), ((1,), [5, 4, 3, 2, 1]), ((2,), [0, 9, 9, 9, 9])]
        self.assertEqual(ac.ranking(units), [[0, 1], [2]])
        self.assertEqual(ac.ranking([((0, 2), [3] * 6), ((1, 3), [3] * 6)]), [[0, 1, 2, 3]])

    def test_solo_results(self):
        self.assertEqual(ac.solo_result("hex", [18, 14, 30, 12, 20, 22]), 121418)
        self.assertEqual(ac.solo_result("square", [20, 36, 36, 36, 9]), 9)

    def test_domino_sets(self):
        self.assertEqual(sum(ac.domino_set(5, 8, 4).values()), 100)
        self.assertEqual(sum(ac.domino_set(6, 6, 5).values()), 120)


# --------------------------------------------------------------------------
# Hand-made square opening
# --------------------------------------------------------------------------

SQUARE_FIELDS = [{"cell": [2, 6], "color": "red"}, {"cell": [6, 10], "color": "green"},
                 {"cell": [10, 6], "color": "blue"}, {"cell": [6, 2], "color": "orange"},
                 {"cell": [6, 6], "color": "purple"}]


def square_opening():
    """16 lines of a 2-player game; points computed by hand (see comments)."""
    def place(p, tile, cells, pts, score):
        return {"ev": "place", "player": p, "tile": tile, "cells": cells,
                "points": smap(**pts), "score": smap(**score), "bonus": False}

    def draw(p, tiles):
        return {"ev": "draw", "player": p, "from": "bag", "tiles": tiles}

    rr = ["red", "red"]
    return [
        {"ev": "start", "format": "axio-record/1", "variant": "square", "players": 2, "mode": "standard",
         "seed": "7", "names": ["Ann", "Bo"], "area": 9, "fields": SQUARE_FIELDS},                     # 1
        draw(0, [["red", "blue"], rr, rr, rr, rr]),                                                     # 2
        draw(1, [["blue", "green"], ["purple", "purple"], ["orange", "orange"], ["green", "green"],
                 ["red", "purple"]]),                                                                   # 3
        # red on [3,6] sees the red field [2,6] above: 1 red; blue on [4,6]: nothing
        place(0, ["red", "blue"], [[3, 6], [4, 6]], {"red": 1}, {"red": 1}),                          # 4
        # rack shows only red; lowest tracks are green, blue, orange, purple: eligible
        {"ev": "swap", "player": 0, "accepted": True, "returned": [rr, rr, rr, rr],
         "drawn": [["blue", "blue"], ["green", "red"], ["orange", "purple"], ["green", "blue"],
                   ["orange", "green"]]},                                                               # 5
        # purple on [5,6] sees the purple field [6,6] below (first tile touches it)
        place(1, ["purple", "purple"], [[5, 6], [5, 7]], {"purple": 1}, {"purple": 1}),               # 6
        draw(1, [["blue", "blue"]]),                                                                    # 7
        # blue on [4,5] sees blue [4,6] to the right
        place(0, ["blue", "blue"], [[4, 5], [4, 4]], {"blue": 1}, {"red": 1, "blue": 1}),             # 8
        draw(0, [rr]),                                                                                  # 9
        place(1, ["orange", "orange"], [[2, 3], [3, 3]], {}, {"purple": 1}),                          # 10
        draw(1, [["red", "orange"]]),                                                                   # 11
        # orange [3,2] sees orange [3,3]; [2,2] becomes single (edge, [2,3], [3,2])
        place(0, ["orange", "purple"], [[3, 2], [4, 2]], {"orange": 1},
              {"red": 1, "blue": 1, "orange": 1}),                                                      # 12
        {"ev": "pyramid", "player": 0, "cell": [2, 2], "moved_from": None,
         "points": smap(orange=2), "score": smap(red=1, blue=1, orange=3)},                            # 13
        draw(0, [["purple", "blue"]]),                                                                  # 14
        # blue [4,7]: 3 blues to the left; purple below stops; [3,7]: red to the left
        place(1, ["blue", "blue"], [[4, 7], [3, 7]], {"blue": 3}, {"blue": 3, "purple": 1}),          # 15
        draw(1, [["green", "orange"]]),                                                                 # 16
    ]


class HandMadeSquare(unittest.TestCase):
    def setUp(self):
        self.ev = square_opening()

    def assertFailsAt(self, events, line, *words):
        got_line, message = verdict(events)
        self.assertEqual(got_line, line, message)
        for w in words:
            self.assertIn(w, message)
        return message

    def at(self, line):
        return self.ev[line - 1]

    def test_right_opening_passes_until_it_stops(self):
        self.assertFailsAt(self.ev, 17, "record ends before the game is over", "place by seat 0")

    def test_draw_split_over_events_is_one_draw(self):
        first = self.at(2)
        ev = self.ev[:1] + [dict(first, tiles=first["tiles"][:2]), dict(first, tiles=first["tiles"][2:])] + self.ev[2:]
        self.assertFailsAt(ev, 18, "record ends before")

    def test_changed_points(self):
        self.at(4)["points"]["red"] = 2
        self.assertFailsAt(self.ev, 4, "points", "red expected 1, record says 2")

    def test_changed_score(self):
        self.at(15)["score"]["blue"] = 4
        self.assertFailsAt(self.ev, 15, "score", "blue expected 3")

    def test_occupied_cell(self):
        self.at(8)["cells"] = [[4, 6], [4, 7]]
        self.assertFailsAt(self.ev, 8, "[4,6] already holds a tile")

    def test_field_cell(self):
        self.at(8)["cells"] = [[6, 6], [6, 7]]
        self.assertFailsAt(self.ev, 8, "[6,6] holds a field")

    def test_pyramid_cell(self):
        self.at(15)["cells"] = [[2, 2], [1, 2]]
        self.assertFailsAt(self.ev, 15, "[2,2] holds a pyramid")

    def test_outside_area_and_not_adjacent(self):
        self.at(8)["cells"] = [[1, 5], [2, 5]]
        self.assertFailsAt(self.ev, 8, "outside the play area")
        self.at(8)["cells"] = [[5, 4], [4, 3]]
        self.assertFailsAt(self.ev, 8, "not adjacent")

    def test_tile_not_in_rack(self):
        self.at(8)["tile"] = ["green", "green"]
        self.assertFailsAt(self.ev, 8, '["green","green"] is not in seat 0\'s rack')

    def test_first_tile_must_touch_an_untouched_field(self):
        self.at(6)["cells"] = [[8, 8], [8, 9]]
        self.assertFailsAt(self.ev, 6, "first tile of seat 1")
        self.at(6)["cells"] = [[2, 5], [2, 4]]     # touches only the red field, touched at line 4
        self.assertFailsAt(self.ev, 6, "first tile of seat 1")

    def test_missing_pyramid(self):
        del self.ev[12]
        self.assertFailsAt(self.ev, 13, "expected pyramid by seat 0 on [2,2]")

    def test_extra_pyramid(self):
        self.ev.insert(10, {"ev": "pyramid", "player": 1, "cell": [2, 2], "moved_from": None,
                            "points": smap(orange=2), "score": smap(orange=2, purple=1)})
        self.assertFailsAt(self.ev, 11, "unexpected pyramid")

    def test_pyramid_wrong_cell_and_moved_from(self):
        self.at(13)["cell"] = [2, 4]
        self.assertFailsAt(self.ev, 13, "cell expected [2,2]")
        self.ev = square_opening()
        self.at(13)["moved_from"] = [3, 3]
        self.assertFailsAt(self.ev, 13, "moved_from expected null")

    def test_pyramid_points(self):
        self.at(13)["points"]["orange"] = 1
        self.assertFailsAt(self.ev, 13, "orange expected 2")

    def test_missing_swap_offer(self):
        del self.ev[4]
        self.assertFailsAt(self.ev, 5, "expected swap decision by seat 0", "place by seat 1")

    def test_swap_when_not_eligible(self):
        self.ev.insert(8, {"ev": "swap", "player": 0, "accepted": False})
        self.assertFailsAt(self.ev, 9, "seat 0 may not swap", "green")

    def test_swap_must_return_the_rack_and_draw_five(self):
        self.at(5)["returned"] = self.at(5)["returned"][:3]
        self.assertFailsAt(self.ev, 5, "returned must be the whole rack")
        self.ev = square_opening()
        self.at(5)["drawn"] = self.at(5)["drawn"][:4]
        self.assertFailsAt(self.ev, 5, "drawn expected 5")

    def test_no_refill_after_accepted_swap(self):
        self.ev.insert(5, {"ev": "draw", "player": 0, "from": "bag", "tiles": []})
        self.assertFailsAt(self.ev, 6, "no refill follows an accepted swap")

    def test_declined_swap_is_followed_by_the_refill(self):
        self.ev[4] = {"ev": "swap", "player": 0, "accepted": False}
        self.ev.insert(5, {"ev": "draw", "player": 0, "from": "bag", "tiles": [["blue", "blue"]]})
        # seat 0 keeps four red doubles and gets blue-blue, placed at line 9 (was 8);
        # its rack then shows only red again, lowest are green/orange/purple: eligible
        self.assertFailsAt(self.ev, 10, "expected swap decision by seat 0", "draw by seat 0")

    def test_refill_count(self):
        self.at(7)["tiles"] = [["blue", "blue"], ["red", "green"]]
        self.assertFailsAt(self.ev, 7, "draws 1 tile(s) here", "record draws more")
        self.ev = square_opening()
        self.at(7)["tiles"] = []
        self.assertFailsAt(self.ev, 7, "expected seat 1 to draw 1 tile(s)", "draws only 0")

    def test_tile_not_in_bag(self):
        self.at(3)["tiles"][0] = ["red", "red"]    # seat 0 holds all four red doubles
        self.assertFailsAt(self.ev, 3, '["red","red"] is not in the bag')

    def test_wrong_player_and_bonus_flag(self):
        self.at(6)["player"] = 0
        self.assertFailsAt(self.ev, 6, "player expected 1")
        self.ev = square_opening()
        self.at(6)["bonus"] = True
        self.assertFailsAt(self.ev, 6, "bonus expected false")

    def test_unexpected_axio(self):
        self.ev.insert(4, {"ev": "axio", "player": 0, "color": "red", "score": 18, "bonus_move": True})
        self.assertFailsAt(self.ev, 5, "unexpected axio")

    def test_bad_lines(self):
        raw = lines_of(self.ev)
        raw[8] = b"{bad"
        with self.assertRaises(ac.RecordError) as cm:
            ac.check_lines(raw)
        self.assertEqual(cm.exception.line, 9)
        raw[8] = b""
        with self.assertRaises(ac.RecordError) as cm:
            ac.check_lines(raw)
        self.assertEqual(cm.exception.line, 9)
        self.at(3)["tiles"][0] = ["pink", "red"]
        self.assertFailsAt(self.ev, 3, "must be a colour of square")

    def test_start_line(self):
        for key, value, words in [("area", 11, "area for square with 2 player(s) is 9"),
                                  ("mode", "solo", "allows mode standard"),
                                  ("players", 5, "players must be 1..4"),
                                  ("format", "axio-record/2", "format expected"),
                                  ("variant", "chess", "variant must be"),
                                  ("names", ["Ann"], "names must be 2 string(s)")]:
            ev = square_opening()
            ev[0][key] = value
            self.assertFailsAt(ev, 1, words)
        ev = square_opening()
        ev[0]["fields"] = SQUARE_FIELDS[:4] + [{"cell": [6, 6], "color": "yellow"}]
        self.assertFailsAt(ev, 1, "field [6,6] must be purple")
        ev = square_opening()
        ev[0]["fields"] = SQUARE_FIELDS[:4]
        self.assertFailsAt(ev, 1, "fields lack [6,6] purple")
        ev = square_opening()
        ev[0]["fields"] = list(reversed(SQUARE_FIELDS))    # order is free
        self.assertFailsAt(ev, 17, "record ends before")
        ev = square_opening()
        ev.insert(0, ev[1])
        self.assertFailsAt(ev, 1, "first line must be the start event")


# --------------------------------------------------------------------------
# Hand-made rota solo game, complete
# --------------------------------------------------------------------------

def rota_solo_game():
    """A whole ROTA solo game: 12 tiles in a row to the right of the display.

    Tile k goes on [k+1, 0]; its NW corner meets the NE corner of the tile to its
    left, its SW corner that tile's SE corner (and, for the first, the NE corner of
    the display tile [1,1]); its NE and SE corners meet nothing yet.
    """
    n = None
    display = [{"cell": [0, 0], "tile": ["red", "green", "blue", "orange"]},
               {"cell": [1, 0], "tile": ["blue", "red", "orange", "green"]},
               {"cell": [0, 1], "tile": ["green", "blue", "purple", "red"]},
               {"cell": [1, 1], "tile": [n, "red", "green", "blue"]}]
    # (drawn as printed, placed, wild, points)
    tiles = [
        (["green", "blue", "orange", "red"], ["red", "green", "blue", "orange"], n, {"red": 1, "orange": 1}),
        (["green", "red", "purple", "blue"], ["green", "red", "purple", "blue"], n, {"green": 1, "blue": 1}),
        (["purple", "red", "blue", "green"], ["red", "blue", "green", "purple"], n, {"red": 1, "purple": 1}),
        (["green", "orange", "purple", n], [n, "green", "orange", "purple"], "blue", {"blue": 1}),
        (["green", "purple", "red", "orange"], ["green", "purple", "red", "orange"], n, {"green": 1, "orange": 1}),
        (["purple", "blue", "orange", "red"], ["purple", "blue", "orange", "red"], n, {"purple": 1, "red": 1}),
        (["blue", "green", "red", "orange"], ["blue", "green", "red", "orange"], n, {"blue": 1, "orange": 1}),
        (["green", "orange", "purple", "red"], ["green", "orange", "purple", "red"], n, {"green": 1, "red": 1}),
        (["orange", "red", "blue", "purple"], ["orange", "red", "blue", "purple"], n, {"orange": 1, "purple": 1}),
        (["red", "purple", "green", "blue"], ["red", "purple", "green", "blue"], n, {"red": 1, "blue": 1}),
        (["purple", "orange", "red", "green"], ["purple", "orange", "red", "green"], n, {"purple": 1, "green": 1}),
        (["red", "blue", "orange", n], ["orange", n, "red", "blue"], n, {"orange": 1}),
    ]
    events = [{"ev": "start", "format": "axio-record/1", "variant": "rota", "players": 1, "mode": "solo",
               "seed": "1", "names": ["Solo"], "display": display}]
    score = Counter()
    for k, (printed, placed, wild, pts) in enumerate(tiles):
        score.update(pts)
        events.append({"ev": "draw", "player": 0, "from": "stack", "tiles": [printed]})
        events.append({"ev": "place", "player": 0, "tile": placed, "cell": [k + 2, 0], "wild": wild,
                       "points": smap(**pts), "score": smap(**score), "bonus": False})
    final = smap(red=5, green=4, blue=4, orange=5, purple=4)
    assert smap(**score) == final
    events.append({"ev": "end", "reason": "tiles-out", "scores": [final], "ranking": [[0]], "result": 4})
    return events


class HandMadeRota(unittest.TestCase):
    def setUp(self):
        self.ev = rota_solo_game()

    def assertFailsAt(self, events, line, *words):
        got_line, message = verdict(events)
        self.assertEqual(got_line, line, message)
        for w in words:
            self.assertIn(w, message)

    def test_right_game_passes(self):
        self.assertEqual(verdict(self.ev), ("ok", 26))

    def test_changed_points(self):
        self.ev[2]["points"]["red"] = 2
        self.assertFailsAt(self.ev, 3, "red expected 1, record says 2")

    def test_wild(self):
        self.ev[8]["wild"] = "green"                   # the empty corner meets only blue
        self.assertFailsAt(self.ev, 9, "wild green scores 0 points")
        self.ev[8]["wild"] = None
        self.assertFailsAt(self.ev, 9, "blue expected 0, record says 1")
        self.ev = rota_solo_game()
        self.ev[2]["wild"] = "red"                     # no empty corner on that tile
        self.assertFailsAt(self.ev, 3, "no empty corner")

    def test_tile_must_be_a_rotation_of_the_hand(self):
        self.ev[4]["tile"] = ["green", "blue", "purple", "red"]   # mirror image
        self.assertFailsAt(self.ev, 5, "not a rotation of seat 0's hand tile")

    def test_placement_must_touch_and_be_empty(self):
        self.ev[2]["cell"] = [5, 5]
        self.assertFailsAt(self.ev, 3, "shares no side")
        self.ev[2]["cell"] = [1, 1]
        self.assertFailsAt(self.ev, 3, "already holds a tile")

    def test_tile_set_accounting(self):
        # red-green-blue-orange exists twice: display [0,0] and the first draw
        self.ev[3]["tiles"] = [["orange", "red", "green", "blue"]]
        self.assertFailsAt(self.ev, 4, "is already out")
        self.ev[3]["tiles"] = [["red", "red", "blue", "green"]]
        self.assertFailsAt(self.ev, 4, "not a tile of the ROTA set")

    def test_stack_holds_twelve(self):
        self.ev.insert(25, {"ev": "draw", "player": 0, "from": "stack", "tiles": [["red", "green", "purple", "blue"]]})
        self.assertFailsAt(self.ev, 26, "draws 0 tile(s) here", "stack 0")

    def test_end(self):
        for key, value, words in [("result", 5, "result expected 4"), ("reason", "blocked", 'reason expected "tiles-out"'),
                                  ("ranking", [[1]], "ranking expected [[0]]")]:
            ev = rota_solo_game()
            ev[-1][key] = value
            self.assertFailsAt(ev, 26, words)
        ev = rota_solo_game()
        ev[-1]["scores"][0]["red"] = 6
        self.assertFailsAt(ev, 26, "scores[0]", "red expected 5")

    def test_truncated_and_trailing(self):
        self.assertFailsAt(self.ev[:-1], 26, "record ends before the game is over", "end (tiles-out")
        self.assertFailsAt(self.ev + [self.ev[-1]], 27, "nothing may follow the end")

    def test_display(self):
        self.ev[0]["display"][3]["tile"] = ["red", "green", "blue", None]
        self.assertFailsAt(self.ev, 1, "empty corner at the centre vertex")
        self.ev = rota_solo_game()
        self.ev[0]["display"][3]["cell"] = [2, 2]
        self.assertFailsAt(self.ev, 1, "display cell [2,2]")
        self.ev = rota_solo_game()
        self.ev[0]["display"] = self.ev[0]["display"][:3]
        self.assertFailsAt(self.ev, 1, "display must be 4 tiles")

    def test_supply_draw_without_bonus(self):
        self.ev[3]["from"] = "supply"
        self.assertFailsAt(self.ev, 4, 'from expected "stack"')


# --------------------------------------------------------------------------
# Whole generated games
# --------------------------------------------------------------------------

COMBOS = [("square", 2, "standard"), ("square", 3, "standard"), ("square", 4, "standard"),
          ("square", 1, "solo"), ("hex", 2, "standard"), ("hex", 3, "standard"), ("hex", 4, "standard"),
          ("hex", 4, "team"), ("hex", 1, "solo"), ("rota", 1, "solo"), ("rota", 2, "standard"),
          ("rota", 3, "standard"), ("rota", 4, "standard")]

_cache = {}


def game(variant, players, mode, seed, **kw):
    key = (variant, players, mode, seed, tuple(sorted(kw.items())))
    if key not in _cache:
        _cache[key] = gamegen.build(variant, players, mode, seed, **kw)
    return _cache[key]


def find(events, pred, start=0):
    for i in range(start, len(events)):
        if pred(events[i]):
            return i
    raise AssertionError("no such event")


class GeneratedGames(unittest.TestCase):
    def assertFailsAt(self, events, line, *words):
        got_line, message = verdict(events)
        self.assertEqual(got_line, line, message)
        for w in words:
            self.assertIn(w, message)

    def test_every_variant_and_mode_passes(self):
        for combo in COMBOS:
            for seed in range(2):
                with self.subTest(combo=combo, seed=seed):
                    b = game(*combo, seed)
                    self.assertEqual(verdict(b.events), ("ok", len(b.events)))

    def test_pyramids_moved_when_all_twenty_are_used(self):
        b = game("square", 4, "standard", 0, style="singles")
        self.assertEqual(verdict(b.events)[0], "ok")
        i = find(b.events, lambda e: e["ev"] == "pyramid" and e["moved_from"])
        ev = copy.deepcopy(b.events)
        ev[i]["moved_from"] = None
        self.assertFailsAt(ev, i + 1, "moved_from expected")
        ev = copy.deepcopy(b.events)
        j = find(ev, lambda e: e["ev"] == "pyramid")
        del ev[j]
        self.assertFailsAt(ev, j + 1, "expected pyramid")

    def test_immediate_win(self):
        b = game("square", 4, "standard", 32, sample=300)
        self.assertEqual(b.events[-1]["reason"], "all-max")
        self.assertEqual(verdict(b.events)[0], "ok")
        ev = copy.deepcopy(b.events)
        ev[-1]["reason"] = "blocked"
        self.assertFailsAt(ev, len(ev), 'reason expected "all-max"')
        ev = copy.deepcopy(b.events)
        ev.insert(len(ev) - 1, {"ev": "draw", "player": 0, "from": "bag", "tiles": []})
        self.assertFailsAt(ev, len(ev) - 1, "expected end (all-max")
        r = gamegen.RotaBuilder(1, 158, sample=600)
        r.play()
        self.assertEqual(r.events[-1]["reason"], "all-max")
        self.assertEqual(verdict(r.events), ("ok", len(r.events)))

    def test_wrong_score_after_threshold(self):
        for combo in [("square", 2, "standard"), ("hex", 4, "team"), ("hex", 1, "solo"),
                      ("square", 1, "solo"), ("rota", 3, "standard")]:
            b, line, points, reached = next((b, *u) for b in (game(*combo, seed) for seed in range(6))
                                            for u in b.units if u[2])
            c, threshold = reached[0]
            ev = copy.deepcopy(b.events)
            name = b.colours[c]
            ev[line - 1]["score"][name] = threshold + 1
            with self.subTest(combo=combo):
                self.assertFailsAt(ev, line, "%s expected %d" % (name, threshold))

    def test_axio_events_and_bonus_moves(self):
        b = game("hex", 4, "team", 0)
        i = find(b.events, lambda e: e["ev"] == "axio" and e["bonus_move"])
        ev = copy.deepcopy(b.events)
        del ev[i]
        self.assertFailsAt(ev, i + 1, "expected axio by seat")
        ev = copy.deepcopy(b.events)
        ev[i]["bonus_move"] = False
        self.assertFailsAt(ev, i + 1, "bonus_move expected true")
        j = find(b.events, lambda e: e["ev"] == "place" and e["bonus"])
        ev = copy.deepcopy(b.events)
        ev[j]["bonus"] = False
        self.assertFailsAt(ev, j + 1, "bonus expected true")
        # solo: axio without bonus move
        s = game("square", 1, "solo", 0)
        k = find(s.events, lambda e: e["ev"] == "axio")
        self.assertFalse(s.events[k]["bonus_move"])

    def test_team_tracks_and_ranking(self):
        b = game("hex", 4, "team", 1)
        end = b.events[-1]
        self.assertEqual(end["scores"][0], end["scores"][2])
        self.assertIn(end["ranking"], ([[0, 2], [1, 3]], [[1, 3], [0, 2]], [[0, 1, 2, 3]]))
        ev = copy.deepcopy(b.events)
        ev[-1]["ranking"] = [[0], [2], [1], [3]]
        self.assertFailsAt(ev, len(ev), "ranking expected")
        ev = copy.deepcopy(b.events)
        ev[-1]["scores"][2]["red"] += 1
        self.assertFailsAt(ev, len(ev), "scores[2]")
        # seat 2 scores on the team's tracks, shared with seat 0: its own points alone are wrong
        i = find(b.events, lambda e: e["ev"] == "place" and e["player"] == 2 and e["score"] != e["points"])
        ev = copy.deepcopy(b.events)
        ev[i]["score"] = ev[i]["points"]
        self.assertFailsAt(ev, i + 1, "score (team 0)")

    def test_wrong_ranking(self):
        b = game("square", 3, "standard", 0)
        ev = copy.deepcopy(b.events)
        ev[-1]["ranking"] = list(reversed(ev[-1]["ranking"]))
        self.assertFailsAt(ev, len(ev), "ranking expected")
        ev = copy.deepcopy(b.events)
        ev[-1]["scores"][1]["red"] += 1
        self.assertFailsAt(ev, len(ev), "scores[1]")

    def test_missing_swap_offer_and_swap_details(self):
        b = game("hex", 2, "standard", 1)
        i = find(b.events, lambda e: e["ev"] == "swap")
        ev = copy.deepcopy(b.events)
        del ev[i]
        self.assertFailsAt(ev, i + 1, "expected swap decision")
        accepted = [e["accepted"] for e in b.events if e["ev"] == "swap"]
        self.assertIn(True, accepted)
        self.assertIn(False, accepted)

    def test_tile_not_in_rack_and_occupied_cell(self):
        for combo in [("square", 2, "standard"), ("hex", 3, "standard"), ("hex", 1, "solo")]:
            b = game(*combo, 0)
            lines = sorted(k for k in b.info if isinstance(k, int))
            line = lines[len(lines) // 2]
            rack = Counter(tuple(sorted(t)) for t in b.info[line]["rack"])
            missing = next(k for k in ac.domino_set(b.nc, 1, 1) if k not in rack)
            ev = copy.deepcopy(b.events)
            ev[line - 1]["tile"] = [b.colours[missing[0]], b.colours[missing[1]]]
            with self.subTest(combo=combo):
                self.assertFailsAt(ev, line, "is not in seat")
            ev = copy.deepcopy(b.events)
            ev[line - 1]["cells"] = [list(c) for c in b.info[lines[0]]["cells"]]
            with self.subTest(combo=combo):
                self.assertFailsAt(ev, line, "already holds a tile")

    def test_record_must_not_stop_early(self):
        b = game("hex", 3, "standard", 0)
        self.assertFailsAt(b.events[:-1], len(b.events), "record ends before the game is over", "end (blocked")
        self.assertFailsAt(b.events[:40], 41, "record ends before the game is over")

    def test_premature_end(self):
        b = game("square", 2, "standard", 0)
        i = find(b.events, lambda e: e["ev"] == "place", 30)
        ev = b.events[:i] + [b.events[-1]]
        self.assertFailsAt(ev, i + 1, "expected place by seat", "record has end")

    def test_rota_bonus_moves_from_the_supply(self):
        b = game("rota", 3, "standard", 5)
        i = find(b.events, lambda e: e["ev"] == "place" and e["bonus"])
        self.assertEqual(b.events[i - 1]["from"], "supply")
        ev = copy.deepcopy(b.events)
        del ev[i - 1]
        self.assertFailsAt(ev, i, "expected seat")
        ev = copy.deepcopy(b.events)
        ev[i - 1]["from"] = "stack"
        self.assertFailsAt(ev, i, 'from expected "supply"')

    def test_hex_solo_result(self):
        b = game("hex", 1, "solo", 0)
        ev = copy.deepcopy(b.events)
        ev[-1]["result"] += 1
        self.assertFailsAt(ev, len(ev), "result expected %d" % b.events[-1]["result"])
        ev[-1]["result"] = None
        self.assertFailsAt(ev, len(ev), "result expected")


class SmallBag(unittest.TestCase):
    """White-box: a record played from a short bag (and preset tracks), checked by a
    replay given the same bag, shows shrinking racks and the blocked ends."""

    def run_small(self, variant, players, mode, seed, n, tracks=None):
        import random
        rng = random.Random(seed)
        nc = 6 if variant == "hex" else 5
        full = ac.domino_set(nc, 8, 4) if variant == "square" else ac.domino_set(nc, 6, 5)
        bag = list(full.elements())
        rng.shuffle(bag)
        bag = bag[:n]
        b = gamegen.DominoBuilder(variant, players, mode, seed, bag=bag, tracks=tracks, sample=40)
        b.play()
        return b, Counter(tuple(sorted(t)) for t in bag)

    def check(self, events, bag, tracks=None):
        stream = ac.Stream(lines_of(events))
        variant, players, mode = ac.check_start(stream.next())
        replay = ac.DominoReplay(stream, variant, players, mode)
        replay.bag, replay.bag_count = Counter(bag), sum(bag.values())
        if tracks is not None:
            replay.tracks = [list(tracks) for _ in replay.tracks]
        try:
            replay.run()
            return "ok", None
        except ac.RecordError as exc:
            return exc.line, exc.message

    def test_racks_shrink_then_empty_rack_blocks(self):
        b, bag = self.run_small("square", 2, "standard", 3, 14)
        self.assertEqual(self.check(b.events, bag), ("ok", None))
        self.assertEqual(b.events[-1]["reason"], "blocked")
        self.assertIn([], b.racks)
        # a refill that draws although the bag is empty
        ev = copy.deepcopy(b.events)
        last = [e for e in ev if e["ev"] == "place"][-1]["player"]
        ev.insert(len(ev) - 1, {"ev": "draw", "player": last, "from": "bag", "tiles": [["red", "blue"]]})
        line, message = self.check(ev, bag)
        self.assertEqual(line, len(ev) - 1, message)
        self.assertIn("draws 0 tile(s) here", message)

    def test_solo_ends_when_no_tile_can_be_drawn(self):
        b, bag = self.run_small("hex", 1, "solo", 4, 10)
        self.assertEqual(self.check(b.events, bag), ("ok", None))
        self.assertEqual(len([e for e in b.events if e["ev"] == "place"]), 10)
        ev = b.events[:-1] + [{"ev": "place", "player": 0, "tile": ["red", "red"], "cells": [[0, 0], [1, 0]],
                               "points": smap(ac.COLOURS6), "score": b.events[-1]["scores"][0], "bonus": False}]
        line, message = self.check(ev, bag)
        self.assertEqual(line, len(ev), message)
        self.assertIn("expected end (blocked", message)

    def test_pending_bonus_move_with_empty_rack_ends_blocked(self):
        tracks = [16, 16, 16, 16, 0]
        b, bag = self.run_small("square", 2, "standard", 0, 14, tracks=tracks)
        self.assertTrue(b.events[-2]["ev"] == "axio" and b.events[-2]["bonus_move"])
        self.assertEqual(b.events[-1]["reason"], "blocked")
        self.assertEqual(self.check(b.events, bag, tracks), ("ok", None))


# --------------------------------------------------------------------------
# Leaving (rules 6)
# --------------------------------------------------------------------------

def leave_at(plan):
    """A leave plan: {decision number: [(seat, why), ...]} (decisions count from 1)."""
    return lambda b, kind, seat: plan.get(b.decisions, [])


def leave_before(kind_wanted, who="mover", why="timeout"):
    """The first time a decision of kind `kind_wanted` is awaited, the seat to move
    (or seat `who`) leaves."""
    def plan(b, kind, seat):
        if kind != kind_wanted or b.left:
            return []
        return [(seat if who == "mover" else who, why)]
    return plan


def random_leaves(seed, every):
    rng = __import__("random").Random(seed)

    def plan(b, kind, seat):
        staying = [s for s in range(b.players) if s not in b.left]
        if rng.randrange(every) == 0:
            return [(rng.choice(staying), rng.choice(ac.LEAVE_REASONS))]
        return []
    return plan


def build(variant, players, mode, seed, leaves, **kw):
    return gamegen.build(variant, players, mode, seed, leaves=leaves, **kw)


class Leaving(unittest.TestCase):
    def assertFailsAt(self, events, line, *words):
        got_line, message = verdict(events)
        self.assertEqual(got_line, line, message)
        for w in words:
            self.assertIn(w, message)

    def assertPasses(self, b):
        self.assertEqual(verdict(b.events), ("ok", len(b.events)))

    def test_every_variant_and_mode_with_random_leaves(self):
        ended = Counter()
        for combo in COMBOS:
            for seed in range(3):
                with self.subTest(combo=combo, seed=seed):
                    b = build(*combo, seed, random_leaves(seed, 15 if combo[1] > 1 else 25))
                    self.assertPasses(b)
                    ended[b.events[-1]["reason"] == "left"] += 1
        self.assertTrue(ended[True] and ended[False])

    def test_two_players_end_at_once(self):
        for leaver in (0, 1):
            b = build("square", 2, "standard", 0, leave_at({5: [(leaver, "resign")]}))
            self.assertPasses(b)
            self.assertEqual(b.events[-2], {"ev": "leave", "player": leaver, "why": "resign"})
            end = b.events[-1]
            self.assertEqual((end["reason"], end["ranking"]), ("left", [[1 - leaver], [leaver]]))
        n = len(b.events)
        ev = copy.deepcopy(b.events)
        ev[-1]["reason"] = "blocked"
        self.assertFailsAt(ev, n, 'reason expected "left"', "two sides: seat 1 left")
        ev = copy.deepcopy(b.events)
        ev[-1]["ranking"] = [[1], [0]]   # the leaver first, as its tracks might have it
        self.assertFailsAt(ev, n, "ranking expected [[0],[1]]")
        self.assertFailsAt(b.events[:-1], n, "record ends before the game is over", "end (left")
        ev = b.events + [b.events[-3]]
        self.assertFailsAt(ev, n + 1, "nothing may follow")
        ev = b.events[:-2] + b.events[-1:]   # the leave taken out: an end where a place is due
        self.assertFailsAt(ev, n - 1, "expected place by seat", "record has end")

    def test_team_partner_leaves(self):
        b = build("hex", 4, "team", 1, leave_at({7: [(2, "absent")]}))
        self.assertPasses(b)
        self.assertEqual(b.events[-1]["ranking"], [[1, 3], [0, 2]])
        ev = copy.deepcopy(b.events)
        ev[-1]["ranking"] = [[1, 3], [0], [2]]
        self.assertFailsAt(ev, len(ev), "ranking expected [[1,3],[0,2]]")

    def test_three_and_four_players_go_on(self):
        b = build("square", 3, "standard", 0, leave_at({4: [(2, "resign")]}))
        self.assertPasses(b)
        i = find(b.events, lambda e: e["ev"] == "leave")
        find(b.events, lambda e: e["ev"] == "place" and e["player"] == 2, i)   # seat 2 plays on
        end = b.events[-1]
        self.assertNotEqual(end["reason"], "left")
        self.assertEqual(end["ranking"][-1], [2])
        ev = copy.deepcopy(b.events)
        ev[-1]["ranking"] = [[2]] + [g for g in end["ranking"] if g != [2]]
        self.assertFailsAt(ev, len(ev), "ranking expected")

        b = build("hex", 4, "standard", 0, leave_at({3: [(1, "resign")], 10: [(3, "timeout")]}))
        self.assertPasses(b)
        self.assertEqual(b.events[-1]["ranking"][-2:], [[3], [1]])   # the later leaver higher
        b = build("hex", 4, "standard", 0,
                  leave_at({3: [(1, "resign")], 10: [(3, "timeout")], 20: [(0, "absent")]}))
        self.assertPasses(b)
        self.assertEqual(b.events[-1]["reason"], "left")
        self.assertEqual(b.events[-1]["ranking"], [[2], [0], [3], [1]])
        ev = copy.deepcopy(b.events)
        ev[-1]["ranking"] = [[2], [1], [3], [0]]
        self.assertFailsAt(ev, len(ev), "ranking expected [[2],[0],[3],[1]]")

    def test_last_player_who_stayed_ends_the_game(self):
        # two leaves in a row where one decision is awaited
        b = build("rota", 3, "standard", 2, leave_at({2: [(0, "resign"), (1, "absent")]}))
        self.assertPasses(b)
        self.assertEqual([e["ev"] for e in b.events[-3:]], ["leave", "leave", "end"])
        self.assertEqual(b.events[-1]["ranking"], [[2], [1], [0]])
        ev = copy.deepcopy(b.events)
        ev[-2]["player"] = 0
        self.assertFailsAt(ev, len(ev) - 1, "seat 0 left already")

    def test_solo(self):
        for variant in ("square", "hex", "rota"):
            with self.subTest(variant=variant):
                mode = "solo"
                b = build(variant, 1, mode, 3, leave_at({6: [(0, "resign")]}))
                self.assertPasses(b)
                end = b.events[-1]
                self.assertEqual((end["reason"], end["ranking"]), ("left", [[0]]))
                ev = copy.deepcopy(b.events)
                ev[-1]["result"] = (end["result"] or 0) + 1
                self.assertFailsAt(ev, len(ev), "result expected")

    def test_leave_before_a_swap_and_a_bonus_move(self):
        b = build("square", 3, "standard", 1, leave_before("swap"))
        self.assertPasses(b)
        i = find(b.events, lambda e: e["ev"] == "leave")
        self.assertEqual(b.events[i + 1]["ev"], "swap")
        self.assertEqual(b.events[i + 1]["player"], b.events[i]["player"])   # the leaver's seat decides
        for variant in ("square", "hex", "rota"):
            with self.subTest(variant=variant):
                b = build(variant, 3, "standard", 0, leave_before("bonus"), **({} if variant == "rota" else {"sample": 200}))
                self.assertPasses(b)
                i = find(b.events, lambda e: e["ev"] == "leave")
                self.assertTrue(b.events[i + 1]["bonus"])
                if variant == "rota":
                    self.assertEqual(b.events[i - 1]["from"], "supply")   # drawn before the decision

    def test_bad_leaves(self):
        b = build("square", 3, "standard", 0, leave_at({4: [(1, "resign")]}))
        self.assertPasses(b)
        i = find(b.events, lambda e: e["ev"] == "leave")
        line = i + 1
        for key, value, words in (("player", 3, "player must be a seat 0..2"),
                                  ("player", "1", "player must be a seat"),
                                  ("player", True, "player must be a seat"),
                                  ("why", "bored", "why must be resign, timeout, absent"),
                                  ("why", None, "why must be")):
            ev = copy.deepcopy(b.events)
            ev[i][key] = value
            with self.subTest(key=key, value=value):
                self.assertFailsAt(ev, line, words)
        ev = copy.deepcopy(b.events)
        del ev[i]["why"]
        self.assertFailsAt(ev, line, 'missing key "why"')
        # the same seat again, before a later placement
        j = find(b.events, lambda e: e["ev"] == "place", i + 5)
        ev = b.events[:j] + [b.events[i]] + b.events[j:]
        self.assertFailsAt(ev, j + 1, "seat 1 left already", "cannot come back")
        # inside a unit or a turn: between a place and its draw, axio or pyramid
        k = find(b.events, lambda e: e["ev"] == "place", i + 1)
        ev = b.events[:k + 1] + [b.events[i]] + b.events[k + 1:]
        self.assertFailsAt(ev, k + 2, "a leave stands only where a decision is awaited")
        # after the end
        ev = b.events + [{"ev": "leave", "player": 0, "why": "resign"}]
        self.assertFailsAt(ev, len(ev), "nothing may follow")
        # an unknown event is still an error
        ev = copy.deepcopy(b.events)
        ev[i]["ev"] = "quit"
        self.assertFailsAt(ev, line, "unknown event")
        # a two-side game does not go on after a leave
        b2 = build("hex", 2, "standard", 0, None)
        k = find(b2.events, lambda e: e["ev"] == "place", 10)
        ev = b2.events[:k] + [{"ev": "leave", "player": 0, "why": "timeout"}] + b2.events[k:]
        self.assertFailsAt(ev, k + 2, "expected end (left")


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

class CommandLine(unittest.TestCase):
    def run_main(self, args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = ac.main(args)
        return code, out.getvalue(), err.getvalue()

    def test_files_directories_and_exit_codes(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "a.jsonl")
            bad = os.path.join(d, "b.jsonl")
            with open(good, "wb") as f:
                f.write(b"\n".join(lines_of(rota_solo_game())) + b"\n")
            ev = rota_solo_game()
            ev[2]["points"]["red"] = 2
            with open(bad, "wb") as f:
                f.write(b"\n".join(lines_of(ev)) + b"\n")
            with open(os.path.join(d, "notes.txt"), "w") as f:
                f.write("not a record")
            self.assertEqual(self.run_main([good]), (0, "ok %s (26 events)\n" % good, ""))
            code, out, _ = self.run_main([d])
            self.assertEqual(code, 1)
            self.assertEqual(out.splitlines(), ["ok %s (26 events)" % good,
                                                "%s:3: place: points: red expected 1, record says 2" % bad])
            self.assertEqual(self.run_main([])[0], 2)
            self.assertEqual(self.run_main([os.path.join(d, "missing.jsonl")])[0], 2)
            self.assertEqual(self.run_main(["--frobnicate"])[0], 2)
            empty = os.path.join(d, "empty")
            os.mkdir(empty)
            self.assertEqual(self.run_main([empty])[0], 2)
            proc = subprocess.run([sys.executable, os.path.join(HERE, "axio_check.py"), good, bad],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 1)
            self.assertEqual(len(proc.stdout.splitlines()), 2)


if __name__ == "__main__":
    unittest.main()
