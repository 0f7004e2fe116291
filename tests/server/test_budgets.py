"""test_budgets.py - what one address, name or account may ask of the site, and the
computers first (docs/server.md, "Limits" and "Computer players under load"). Attackers
on addresses of their own (127.0.0.2 and up, or X-Forwarded-For behind --trusted-proxy)
while a victim plays on 127.0.0.1. Each failed on the server before these limits:

- a hint flood: hints queued in every game of one address made every computer player
  wait behind them; now hints have a worker of their own, below the computers, 16 wait at
  most, and a hint is dropped when its asker goes;
- hints per address and per account;
- right passwords: 575 password checks in 30 s from 3 addresses, 599 sessions of one
  account; now password checks per address, logins per account, 20 sessions an account;
- rematch chains: a rematch is a game created, counted like any;
- analyses: any finished game's, queued by anyone, one address filled the queue; now
  per address and per account, two at a time per address, a player's own game first;
- waiting games: 480 from 20 addresses buried a real one; now 5 per address.
"""
import http.client
import json
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts_lib import call, login, register, session_of  # noqa: E402
from harness import (HOST, TIMEOUT, Client, Server, ServerTest, db_query,  # noqa: E402
                     play_until_over)
from wsclient import Closed  # noqa: E402

PW = "correct horse"
HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "level": "random"}
STRONG = {"kind": "ai", "level": "strong"}


def http_from(server, source, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection(HOST, server.port, timeout=TIMEOUT,
                                      source_address=(source, 0))
    h = dict(headers or {})
    if body is not None:
        h.setdefault("Content-Type", "application/json")
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
    resp = conn.getresponse()
    text = resp.read().decode(errors="replace")
    conn.close()
    value = json.loads(text) if resp.getheader("content-type", "").startswith("application/json") \
        else text
    return resp.status, value, {k.lower(): v for k, v in resp.getheaders()}


def create_from(server, source, seats, **extra):
    status, value, _ = http_from(server, source, "POST", "/api/games",
                                 {"variant": "square", "players": len(seats), "seats": seats,
                                  **extra})
    assert status == 201, (status, value)
    return value


def queues(server):
    return server.http("GET", "/api/health")[1]["queues"]


def wait_until(pred, timeout, what):
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


class HintFlood(ServerTest):
    # a hint of a million playouts takes minutes: what is not dropped never ends here
    server_args = ("--judge-playouts", "1000000", "--msg-rate", "1000")

    def test_hints_wait_behind_the_computers_and_go_with_their_asker(self):
        askers = []
        for _ in range(18):
            g = create_from(self.server, "127.0.0.2", [HUMAN, RANDOM])
            c = Client(self.server, g["game"], g["token"], 0, source="127.0.0.2")
            c.wait_type("history")
            askers.append(c)
        answers = []
        for c in askers:
            c.send({"type": "hint"})
            time.sleep(0.05)

        # the victim's computer answers at once all the same
        victim = self.server.create("square", [HUMAN, STRONG])
        me = self.connect(victim["game"], victim["token"], 0)
        for _ in range(3):
            if not me.my_turn():
                me.wait_for(lambda m: m["type"] == "state" and me.my_turn(), timeout=15)
            me.act()
            start = time.monotonic()
            me.wait_for(lambda m: m["type"] == "state" and me.my_turn(), timeout=15)
            answers.append(time.monotonic() - start)
        # strong thinks 300 ms; behind a million-playout hint it waited minutes
        self.assertLess(max(answers), 10.0, answers)
        # one hint searched, 16 waiting, the eighteenth refused
        last = askers[17].wait_for(lambda m: m["type"] == "error")
        self.assertEqual(last["code"], "busy")
        self.assertEqual(queues(self.server)["hints"], 17)

        # the askers go: their hints go with them, searched or waiting
        for c in askers:
            c.close()
        wait_until(lambda: queues(self.server)["hints"] == 0, 10, "the hints of those who left")


class HintBudget(ServerTest):
    server_args = ("--judge-playouts", "100", "--msg-rate", "1000", "--trusted-proxy", "127.0.0.1")

    def ask(self, c):
        c.send({"type": "hint"})
        return c.wait_for(lambda m: m["type"] in ("hint", "error"))

    def test_hints_per_address_and_per_account(self):
        g = create_from(self.server, "127.0.0.3", [HUMAN, RANDOM])
        c = Client(self.server, g["game"], g["token"], 0, source="127.0.0.3")
        c.wait_type("history")
        got = [self.ask(c)["type"] for _ in range(61)]
        self.assertEqual(got, ["hint"] * 60 + ["error"])
        self.assertEqual(c.raw and json.loads(c.raw[-1])["code"], "rate_limited")
        # an account asks from two addresses: sixty in all
        token = register(self.server, "Hinter", PW)
        g = create_from(self.server, "127.0.0.4", [HUMAN, RANDOM],
                        name="Hinter")
        a = Client(self.server, g["game"], g["token"], 0, source="127.0.0.4", session=token)
        a.wait_type("history")
        got = [self.ask(a)["type"] for _ in range(30)]
        a.close()
        b = Client(self.server, g["game"], g["token"], 0, source="127.0.0.5", session=token)
        b.wait_type("history")
        got += [self.ask(b)["type"] for _ in range(31)]
        self.assertEqual(got, ["hint"] * 60 + ["error"])
        b.close()
        c.close()


class Logins(ServerTest):
    server_args = ("--trusted-proxy", "127.0.0.1")

    def test_right_passwords_are_counted_too(self):
        for name in ("Mal", "Vic", "Al1", "Al2", "Al3"):
            register(self.server, name, PW, headers={"X-Forwarded-For": f"10.7.1.{len(name)}"})
        # one account: ten logins in 15 minutes, from anywhere
        got = [login(self.server, "Mal", PW, ip=f"10.7.0.{i % 3}")[:2] for i in range(11)]
        self.assertEqual([s for s, _ in got], [200] * 10 + [429])
        self.assertEqual(got[10][1]["error"]["reason"], "login_account")
        # one address: twenty password checks in 15 minutes, right ones too
        got = [login(self.server, f"Al{1 + i % 3}", PW, ip="10.7.0.9")[0] for i in range(21)]
        self.assertEqual(got, [200] * 20 + [429])
        status, body, headers = login(self.server, "Al1", PW, ip="10.7.0.9")
        self.assertEqual(body["error"]["reason"], "login_rate")
        self.assertGreater(int({k.lower(): v for k, v in headers.items()}["retry-after"]), 800)
        # the victim logs in all along
        self.assertEqual(login(self.server, "Vic", PW, ip="10.7.2.1")[0], 200)

    def test_an_account_keeps_its_twenty_newest_sessions(self):
        register(self.server, "Many", PW)
        self.assertEqual(self.server.stop(), 0)
        account = db_query(self.db, "SELECT id FROM accounts WHERE name = ?", "Many")[0][0]
        far = int(time.time()) + 86400
        for i in range(25):
            db_query(self.db, "INSERT INTO sessions(token_hash, account_id, created_at, expires_at)"
                     " VALUES(?, ?, ?, ?)", f"{i:064x}", account, 1000 + i, far)
        self.server = Server(self.db, *self.server_args)
        status, _, headers = login(self.server, "Many", PW)
        self.assertEqual(status, 200)
        self.assertEqual(call(self.server, "GET", "/api/me", token=session_of(headers))[0], 200)
        self.assertEqual(self.server.stop(), 0)
        left = sorted(r[0] for r in db_query(
            self.db, "SELECT created_at FROM sessions WHERE account_id = ?", account))
        # the sign-up's, the login's and the newest 18 of the 25 old ones
        self.assertEqual(len(left), 20)
        self.assertEqual(left[:18], list(range(1000 + 7, 1000 + 25)), "the oldest went")
        self.server = Server(self.db, *self.server_args)


class Creating(ServerTest):
    server_args = ("--trusted-proxy", "127.0.0.1", "--max-games-per-ip", "3", "--msg-rate", "1000")

    def test_a_rematch_is_a_game_created(self):
        g = create_from(self.server, "127.0.0.6", [HUMAN], mode="solo", players=1)
        me = Client(self.server, g["game"], g["token"], 0, source="127.0.0.6")
        for n in range(3):
            play_until_over([me])
            me.send({"type": "rematch"})
            answer = me.wait_for(lambda m: m["type"] in ("rematch", "error"))
            if n < 2:
                self.assertEqual(answer["type"], "rematch", answer)
                me.close()
                me = Client(self.server, answer["game"], answer["token"], answer["seat"],
                            source="127.0.0.6")
            else:  # the game, two rematches: three games; the third rematch is one too many
                self.assertEqual((answer["type"], answer["code"]), ("error", "rate_limited"))
        me.close()
        self.assertEqual(create_from(self.server, "127.0.0.7", [HUMAN], mode="solo",
                                     players=1)["seat"], 0)


class Waiting(ServerTest):
    server_args = ("--trusted-proxy", "127.0.0.1")

    def test_waiting_games_per_address(self):
        def make(ip):
            return self.server.http("POST", "/api/games",
                                    {"variant": "hex", "players": 2, "seats": [HUMAN, HUMAN]},
                                    headers={"X-Forwarded-For": ip})
        made = [make("10.8.0.1") for _ in range(6)]
        self.assertEqual([s for s, _, _ in made], [201] * 5 + [429])
        self.assertEqual(made[5][1]["error"]["reason"], "waiting")
        self.assertEqual(make("10.8.0.2")[0], 201)  # another address waits too
        # one starts (its second player joins): there is room for another
        self.server.join(made[0][1]["game"])
        self.assertEqual(make("10.8.0.1")[0], 201)
        self.assertEqual(make("10.8.0.1")[0], 429)


class Analyses(ServerTest):
    server_args = ("--trusted-proxy", "127.0.0.1", "--judge-playouts", "1000000",
                   "--msg-rate", "1000", "--max-games-per-ip", "1000")

    def finished(self, token=None, name="Ann"):
        body = {"variant": "square", "players": 2, "seats": [HUMAN, RANDOM], "name": name}
        status, g, _ = call(self.server, "POST", "/api/games", body, token=token)
        self.assertEqual(status, 201, g)
        me = Client(self.server, g["game"], g["token"], 0, session=token)
        play_until_over([me])
        me.close()
        return g["game"]

    def analysis(self, game, ip, token=None):
        return call(self.server, "GET", f"/api/games/{game}/analysis?seat=0", token=token,
                    headers={"X-Forwarded-For": ip})[:2]

    def test_a_players_own_game_first(self):
        token = register(self.server, "Owner", PW)
        own = self.finished(token, "Owner")
        others = [self.finished() for _ in range(10)]
        # two at a time per address
        self.assertEqual([self.analysis(g, "10.9.9.9")[0] for g in others[:3]], [202, 202, 503])
        # eight of others' in all, however many addresses ask
        got = [self.analysis(g, f"10.9.0.{i}")[0] for i, g in enumerate(others[2:10])]
        self.assertEqual(got, [202] * 6 + [503] * 2)
        self.assertEqual(queues(self.server)["analyses"], 8)
        # the player of a game is not kept waiting by them
        status, value = self.analysis(own, "10.9.1.1", token)
        self.assertEqual(status, 202, value)
        self.assertEqual(queues(self.server)["analyses"], 9)


class AnalysisBudget(ServerTest):
    server_args = ("--trusted-proxy", "127.0.0.1", "--judge-playouts", "100", "--msg-rate", "1000")

    def test_analyses_per_address(self):
        """Ten an hour per address (a seat's analysis asked again is no new one)."""
        seats = []
        for _ in range(3):
            created = self.server.create("square", [HUMAN, RANDOM, RANDOM, RANDOM])
            me = self.connect(created["game"], created["token"], 0)
            play_until_over([me])
            seats += [(created["game"], s) for s in range(4)]
        statuses = []
        for g, s in seats[:10] + [seats[0], seats[10]]:
            deadline = time.monotonic() + 120
            while True:
                status, value, _ = self.server.http(
                    "GET", f"/api/games/{g}/analysis?seat={s}",
                    headers={"X-Forwarded-For": "10.9.2.2"})
                if status != 202:
                    break
                self.assertLess(time.monotonic(), deadline)
                time.sleep(0.2)
            statuses.append((status, value.get("error", {}).get("reason")))
        self.assertEqual(statuses, [(200, None)] * 11 + [(429, "analyses")])


if __name__ == "__main__":
    unittest.main()
