"""Every WebSocket error code of protocol.md and a malformed-input suite: bad JSON,
wrong types, huge numbers, unknown fields, oversize and fragmented frames, binary
frames, bad tokens. After each, the connection still works (except where the
protocol ends it) and the game is exactly as before."""
import json
import unittest

from harness import Client, Closed, HandshakeError, ServerTest, play_until_over
from wsclient import OP_BINARY, OP_CONT, OP_TEXT

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "random"}


class Errors(ServerTest):
    server_args = ("--msg-rate", "1000", "--request-rate", "1000")

    def setUp(self):
        super().setUp()
        created = self.server.create("square", [HUMAN, HUMAN])
        self.game = created["game"]
        self.ann = self.connect(self.game, created["token"], 0)
        joined = self.server.join(self.game, "Bo")
        self.bo = self.connect(self.game, joined["token"], 1)
        self.ann.drain()

    def public_state(self):
        status, game, _ = self.server.http("GET", f"/api/games/{self.game}")
        self.assertEqual(status, 200)
        for seat in game["seats"]:
            seat.pop("connected")
            seat.pop("away_ms")
        game.pop("spectators")
        return game

    def expect_error(self, client, code, message=None, raw=None):
        before = self.public_state()
        if raw is not None:
            client.ws.send_text(raw)
        else:
            client.send(message)
        reply = client.wait_for(lambda m: m["type"] in ("error", "pong", "preview"))
        self.assertEqual(reply["type"], "error", f"{message or raw!r} was accepted: {reply}")
        self.assertEqual(reply["code"], code, f"{message or raw!r}: {reply}")
        self.assertIsInstance(reply["message"], str)
        self.assertEqual(self.public_state(), before, "an error changed the game")
        self.assert_alive(client)
        return reply

    def assert_alive(self, client):
        client.send({"type": "ping"})
        client.wait_type("pong")

    def hint(self):
        return self.ann.state["you"]["hint"]

    def test_bad_json(self):
        for raw in ["{", "not json", "{'type': 'ping'}", '{"type":"ping",}', "", "[1,2",
                    '{"type":"ping","type":"ping"}']:
            with self.subTest(raw=raw):
                self.expect_error(self.ann, "bad_json", raw=raw)

    def test_invalid_utf8_is_bad_json(self):
        before = self.public_state()
        self.ann.ws.send_frame(OP_TEXT, b'{"type":"\xff\xfe"}')
        try:
            reply = self.ann.wait_type("error")
            self.assertEqual(reply["code"], "bad_json")
            self.assert_alive(self.ann)
        except Closed:
            pass  # closing on invalid UTF-8 is allowed by RFC 6455
        self.assertEqual(self.public_state(), before)

    def test_bad_message(self):
        hint = self.hint()
        cases = [
            [], 42, "place", None, {}, {"type": 7}, {"type": "dance"}, {"type": "PLACE"},
            {"type": "place"},
            {"type": "place", "rack_index": "0", "cells": hint["cells"]},
            {"type": "place", "rack_index": 0.0, "cells": hint["cells"]},
            {"type": "place", "rack_index": True, "cells": hint["cells"]},
            {"type": "place", "rack_index": 0},
            {"type": "place", "rack_index": 0, "cells": [[6, 7]]},
            {"type": "place", "rack_index": 0, "cells": [[6, 7], [6, 8], [6, 9]]},
            {"type": "place", "rack_index": 0, "cells": [[6, 7], [6]]},
            {"type": "place", "rack_index": 0, "cells": [[6, 7], ["6", 8]]},
            {"type": "place", "rack_index": 0, "cells": [[6, 7], [6.5, 8]]},
            {"type": "place", "rack_index": 0, "cells": [[1e300, 7], [6, 8]]},
            {"type": "place", "rack_index": 0, "cells": {"a": 1}},
            {"type": "place", "rack_index": 0, "cell": [6, 7], "rotation": 0},
            {"type": "swap"},
            {"type": "swap", "accept": "yes"},
            {"type": "swap", "accept": 1},
            {"type": "preview", "rack_index": 0},
        ]
        for msg in cases:
            with self.subTest(msg=msg):
                self.expect_error(self.ann, "bad_message", msg)

    def test_huge_numbers(self):
        for raw in ['{"type":"place","rack_index":99999999999999999999999999,"cells":[[6,7],[6,8]]}',
                    '{"type":"place","rack_index":0,"cells":[[1e999,7],[6,8]]}',
                    '{"type":"ping","n":-99999999999999999999999999}']:
            with self.subTest(raw=raw):
                self.expect_error(self.ann, "bad_message", raw=raw)
        hint = self.hint()
        for msg in [{"type": "place", "rack_index": 2**62, "cells": hint["cells"]},
                    {"type": "place", "rack_index": -1, "cells": hint["cells"]},
                    {"type": "place", "rack_index": 0, "cells": [[2**62, -2**62], [6, 8]]},
                    {"type": "place", "rack_index": 0, "cells": [[-9223372036854775808, 0], [0, 1]]}]:
            with self.subTest(msg=msg):
                self.expect_error(self.ann, "illegal_move", msg)

    def test_unknown_fields_are_ignored(self):
        self.ann.send({"type": "ping", "extra": {"deep": [1, 2, 3]}, "x": None})
        self.ann.wait_type("pong")
        move = dict(self.hint(), comment="unknown fields are ignored", seq=99)
        ply = self.ann.state["game"]["ply"]
        self.ann.send(move)
        state = self.ann.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        self.assertEqual(state["game"]["ply"], ply + 1)

    def test_too_large(self):
        self.expect_error(self.ann, "too_large", raw=json.dumps({"type": "ping", "pad": "x" * 5000}))
        # the limit is on the whole message, also when it comes in fragments
        before = self.public_state()
        self.ann.ws.send_frame(OP_TEXT, '{"type":"ping","pad":"' + "x" * 3000, fin=False)
        self.ann.ws.send_frame(OP_CONT, "y" * 3000, fin=False)
        self.ann.ws.send_frame(OP_CONT, '"}', fin=True)
        self.assertEqual(self.ann.wait_type("error")["code"], "too_large")
        self.assertEqual(self.public_state(), before)
        self.assert_alive(self.ann)

    def test_fragmented_message_within_limit(self):
        self.ann.ws.send_frame(OP_TEXT, '{"type":', fin=False)
        self.ann.ws.send_frame(OP_CONT, '"ping"', fin=False)
        self.ann.ws.send_frame(OP_CONT, "}", fin=True)
        self.ann.wait_type("pong")

    def test_binary_frame(self):
        before = self.public_state()
        self.ann.ws.send_frame(OP_BINARY, b'{"type":"ping"}')
        self.assertEqual(self.ann.wait_type("error")["code"], "bad_message")
        self.assertEqual(self.public_state(), before)
        self.assert_alive(self.ann)

    def test_huge_frame_closes_the_connection(self):
        before = self.public_state()
        with self.assertRaises(Closed):
            # 2 MiB in one frame: read and dropped, then the connection goes (on a busy
            # machine it may go while the frame is still being sent)
            try:
                self.ann.ws.send_frame(OP_TEXT, "x" * (2 * 1024 * 1024))
            except (BrokenPipeError, ConnectionResetError) as e:
                raise Closed(None, str(e)) from e
            self.ann.wait_for(lambda m: False, timeout=30)
        self.assertEqual(self.public_state(), before)
        self.assert_alive(self.bo)

    def test_unauthorized(self):
        watcher = self.connect(self.game)
        self.expect_error(watcher, "unauthorized", self.hint())
        self.expect_error(watcher, "unauthorized", dict(self.hint(), type="preview"))
        self.expect_error(watcher, "unauthorized", {"type": "swap", "accept": True})

    def test_bad_tokens(self):
        for token in ["x" * 32, "AAAA", "%00", "a" * 500, "../../etc", self.game]:
            with self.subTest(token=token):
                before = self.public_state()
                try:
                    c = Client(self.server, self.game, token=token, seat=None)
                except HandshakeError:
                    continue  # refused at the handshake: fine too
                msg = c.wait_type("error")
                self.assertEqual(msg["code"], "unauthorized")
                with self.assertRaises(Closed):
                    c.recv(10)
                c.close()
                self.assertEqual(self.public_state(), before)

    def test_token_of_another_game(self):
        other = self.server.create("hex", [HUMAN, AI])
        c = Client(self.server, self.game, token=other["token"], seat=None)
        self.assertEqual(c.wait_type("error")["code"], "unauthorized")
        c.close()

    def test_unknown_game(self):
        for path in ["/ws/AAAAAAAAAAAA", "/ws/nope", "/ws/" + "A" * 300]:
            with self.subTest(path=path):
                try:
                    ws = self.server.websocket(path)
                except HandshakeError:
                    continue
                msg = json.loads(ws.recv(10))
                self.assertEqual(msg["type"], "error")
                self.assertEqual(msg["code"], "not_found")
                ws.close()
        with self.assertRaises(HandshakeError):
            self.server.websocket("/api/health")

    def test_not_your_turn(self):
        self.assertEqual(self.ann.state["game"]["to_move"], 0)
        move = self.hint()
        self.expect_error(self.bo, "not_your_turn", move)
        self.expect_error(self.bo, "not_your_turn", dict(move, type="preview"))
        self.expect_error(self.bo, "not_your_turn", {"type": "swap", "accept": False})

    def test_not_started(self):
        created = self.server.create("hex", [HUMAN, HUMAN])
        c = self.connect(created["game"], created["token"], 0, hint=False)
        self.assertEqual(c.state["game"]["status"], "waiting")
        c.send({"type": "place", "rack_index": 0, "cells": [[4, 0], [4, 1]]})
        self.assertEqual(c.wait_type("error")["code"], "not_your_turn")

    def test_illegal_move(self):
        hint = self.hint()
        a, b = hint["cells"][0]
        # each with the engine's reason (its id), which clients translate
        cases = [
            (dict(hint, rack_index=9), "rack"),
            (dict(hint, cells=[[a, b], [a, b]]), "adjacent"),
            (dict(hint, cells=[[0, 0], [0, 1]]), "cell"),  # outside the 2-player area
            (dict(hint, cells=[[2, 6], [2, 7]]), "cell"),  # on a start symbol
            (dict(hint, cells=[[4, 4], [4, 6]]), "adjacent"),  # inside the area, not neighbours
            (dict(hint, cells=[[-1, 0], [0, 0]]), "cell"),
            (dict(hint, cells=[[4, 4], [4, 5]]), "first_tile"),  # must touch a start symbol
            ({"type": "swap", "accept": True}, "phase"),  # not the swap phase
        ]
        for msg, reason in cases:
            with self.subTest(msg=msg):
                reply = self.expect_error(self.ann, "illegal_move", msg)
                self.assertEqual(reply["reason"], reason, reply)
        first = self.expect_error(self.ann, "illegal_move", cases[6][0])
        self.assertIn("start symbol", first["message"], "the player sees start symbols, not fields")

    def test_preview(self):
        before = self.public_state()
        hint = self.hint()
        self.ann.send(dict(hint, type="preview"))
        p = self.ann.wait_type("preview")
        self.assertTrue(p["legal"])
        self.assertIsNone(p["error"])
        self.assertEqual(set(p["points"]), set(self.ann.state["game"]["colors"]))
        self.ann.send(dict(hint, type="preview", cells=[[4, 4], [4, 5]]))
        p = self.ann.wait_type("preview")
        self.assertFalse(p["legal"])
        self.assertIsInstance(p["error"], str)
        self.assertEqual(p["reason"], "first_tile")
        self.assertIn("start symbol", p["error"])
        self.assertEqual(sum(p["points"].values()), 0)
        self.assertEqual(self.public_state(), before)
        # previews go to the asker only
        self.bo.drain()
        self.assertFalse(any(json.loads(t)["type"] == "preview" for t in self.bo.raw))

    def test_game_over(self):
        play_until_over([self.ann, self.bo])
        for client in (self.ann, self.bo):
            self.expect_error(client, "game_over", {"type": "place", "rack_index": 0,
                                                    "cells": [[6, 7], [6, 8]]})
            self.expect_error(client, "game_over", {"type": "swap", "accept": True})


class RateLimit(ServerTest):
    server_args = ("--msg-rate", "5")

    def test_rate_limited(self):
        created = self.server.create("rota", [HUMAN, AI])
        c = self.connect(created["game"], created["token"], 0)
        ply = c.state["game"]["ply"]
        for _ in range(40):
            c.send({"type": "ping"})
        codes = []
        while len(codes) < 40:
            msg = c.wait_for(lambda m: m["type"] in ("pong", "error"))
            codes.append(msg["type"] if msg["type"] == "pong" else msg["code"])
        self.assertIn("rate_limited", codes)
        self.assertGreaterEqual(codes.count("pong"), 5)
        # a rate-limited move is not played
        c.send(c.state["you"]["hint"])
        msg = c.wait_for(lambda m: m["type"] in ("error", "state"))
        if msg["type"] == "error":
            self.assertEqual(msg["code"], "rate_limited")
            self.assertEqual(c.state["game"]["ply"], ply)


if __name__ == "__main__":
    unittest.main()
