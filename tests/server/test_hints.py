"""Hints ({"type":"hint"}): the engine's advice for the seat to move, searched
from that seat's view on the computer players' workers, sent to the asker only.
Every variant: the hinted message is a legal decision as it stands (the server
accepts it unchanged); the checks every decision passes (spectators, the seat
not to move, a game not started or over); one search per seat at a time; the
other connections never see a hint."""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import CLOCK, create, register  # noqa: E402
from harness import TIMEOUT, ServerTest, play_until_over  # noqa: E402

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "random"}


def wait_state(client, pred):
    """Until the client's latest state satisfies pred(game)."""
    if client.state is None or not pred(client.state["game"]):
        client.wait_for(lambda m: m["type"] == "state" and pred(m["game"]))


class Hints(ServerTest):
    # a hint is the judge's: fewer playouts than a server's 6000 keep the sanitizer build quick
    server_args = ("--msg-rate", "1000", "--judge-playouts", "1000")

    def two_humans(self, variant):
        created = self.server.create(variant, [HUMAN, HUMAN])
        joined = self.server.join(created["game"])
        ann = self.connect(created["game"], created["token"], created["seat"], hint=False)
        bo = self.connect(created["game"], joined["token"], joined["seat"], hint=False)
        watcher = self.connect(created["game"], hint=False)
        for c in (ann, bo, watcher):
            wait_state(c, lambda g: g["status"] == "running")
        return created["game"], ann, bo, watcher

    def to_move(self, clients):
        ply = max(c.state["game"]["ply"] for c in clients)
        for c in clients:
            wait_state(c, lambda g, p=ply: g["ply"] >= p)
        seat = clients[0].state["game"]["to_move"]
        return next(c for c in clients if c.seat == seat)

    def ask(self, client):
        client.send({"type": "hint"})
        return client.wait_for(lambda m: m["type"] in ("hint", "error"), timeout=TIMEOUT)

    def play_hints(self, variant, decisions):
        """The seat to move asks and plays what it is told, `decisions` times."""
        _, ann, bo, watcher = self.two_humans(variant)
        for _ in range(decisions):
            mover = self.to_move([ann, bo])
            if mover.state["game"]["status"] != "running":
                break
            hint = self.ask(mover)
            self.assertEqual(hint["type"], "hint", hint)
            move = hint["move"]
            self.assertIn(move["type"], ("place", "swap"))
            ply = mover.state["game"]["ply"]
            mover.send(move)
            mover.wait_for(lambda m, p=ply: m["type"] == "error" or
                           (m["type"] == "state" and m["game"]["ply"] > p))
            self.assertEqual(mover.state["game"]["ply"], ply + 1, "the hinted decision was refused")
        for c in (ann, bo, watcher):
            c.drain()
        # nobody but the asker ever received a hint
        for c, asked in ((watcher, False),):
            self.assertFalse(any('"type":"hint"' in t for t in c.raw))

    def test_square_hints_are_legal_decisions(self):
        self.play_hints("square", 6)

    def test_hex_hints_are_legal_decisions(self):
        self.play_hints("hex", 6)

    def test_rota_hints_are_legal_decisions(self):
        self.play_hints("rota", 6)

    def test_only_the_asker_gets_the_hint(self):
        _, ann, bo, watcher = self.two_humans("square")
        mover = self.to_move([ann, bo])
        other = bo if mover is ann else ann
        hint = self.ask(mover)
        self.assertEqual(hint["type"], "hint")
        time.sleep(0.3)
        for c in (other, watcher):
            c.drain()
            self.assertFalse(any('"type":"hint"' in t for t in c.raw), "a hint reached another client")

    def test_who_may_ask(self):
        game, ann, bo, watcher = self.two_humans("square")
        mover = self.to_move([ann, bo])
        other = bo if mover is ann else ann
        self.assertEqual(self.ask(other)["code"], "not_your_turn")
        self.assertEqual(self.ask(watcher)["code"], "unauthorized")

    def test_one_search_per_seat(self):
        _, ann, bo, _ = self.two_humans("square")
        mover = self.to_move([ann, bo])
        mover.send({"type": "hint"})
        mover.send({"type": "hint"})
        first = mover.wait_for(lambda m: m["type"] in ("hint", "error"))
        second = mover.wait_for(lambda m: m["type"] in ("hint", "error"))
        kinds = sorted([first["type"], second["type"]])
        self.assertEqual(kinds, ["error", "hint"], (first, second))
        err = first if first["type"] == "error" else second
        self.assertEqual(err["code"], "rate_limited")
        # once answered, the seat may ask again
        self.assertEqual(self.ask(mover)["type"], "hint")

    def test_not_before_the_start_nor_after_the_end(self):
        created = self.server.create("square", [HUMAN, HUMAN])
        ann = self.connect(created["game"], created["token"], created["seat"], hint=False)
        self.assertEqual(self.ask(ann)["code"], "not_your_turn")
        created = self.server.create("square", [HUMAN, AI])
        me = self.connect(created["game"], created["token"], created["seat"])
        play_until_over([me])
        self.assertEqual(self.ask(me)["code"], "game_over")

    def test_a_hint_for_a_position_that_is_gone_is_not_sent(self):
        _, ann, bo, _ = self.two_humans("square")
        mover = self.to_move([ann, bo])
        ply = mover.state["game"]["ply"]
        mover.send({"type": "hint"})
        mover.send({"type": "resign"})  # the position changes before the search ends
        mover.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline:
            try:
                msg = mover.recv(0.2)
            except TimeoutError:
                continue
            self.assertNotEqual(msg["type"], "hint", "a stale hint was sent")

    def test_rated_games_have_no_hints(self):
        ann = register(self.server, "Ann", "correct horse")
        game = create(self.server, ann, {"variant": "square", "players": 2, "clock": CLOCK,
                                         "rated": True, "seats": [HUMAN, AI]})
        me = self.connect(game["game"], game["token"], game["seat"], hint=False, session=ann)
        wait_state(me, lambda g: g["status"] == "running" and g["to_move"] == game["seat"])
        self.assertEqual(self.ask(me)["code"], "forbidden")

    def test_state_says_whether_the_computer_was_hurried(self):
        created = self.server.create("square", [HUMAN, AI])
        me = self.connect(created["game"], created["token"], created["seat"])
        self.assertIn("ai_hurried", me.state["game"])
        self.assertFalse(me.state["game"]["ai_hurried"])


if __name__ == "__main__":
    unittest.main()
