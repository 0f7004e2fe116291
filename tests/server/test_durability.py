"""Nothing lost: a server killed with SIGKILL in the middle of games restarts on the
same database with every acknowledged move and the turn intact, resumes computer
players, and lets players reconnect with their tokens. Also: a clean SIGTERM
shutdown, reconnecting during a game, and a database that must not be used (not a
database, another program's, damaged, of a newer version, in use) stops the server and
is left unchanged. On PostgreSQL (AXIO_TEST_DB=postgresql) also: the database server
stopped in the middle of a game refuses the next decisions with `internal`, none of
them acknowledged, and the game goes on once it is back; a session ended by
pg_terminate_backend is replaced before the next decision; a bot's decision over HTTP is
answered only once stored (with the store's write held up by a lock, no answer comes; killed
meanwhile, the server answers nothing), and sent again with its ply it is taken once."""
import hashlib
import json
import http.client
import os
import random
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import unittest

from accounts_lib import register
from botlib import PW, Engine, Stream, api, bearer, make_bot, to_decide

from harness import (AXIO, HOST, ON_POSTGRESQL, TIMEOUT, Client, Server, db_query,
                     new_database, pg_cluster, play_until_over)

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "level": "random"}
FAST = ("--msg-rate", "1000", "--request-rate", "1000")


def comparable(state):
    """A state's game without what depends on who is connected (and since when)."""
    game = dict(state["game"])
    game.pop("spectators")
    game["seats"] = [{k: v for k, v in s.items() if k not in ("connected", "away_ms")}
                     for s in game["seats"]]
    return game


def file_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Servers(unittest.TestCase):
    """A server on a new database, restarted by the tests."""

    args = FAST  # the default --sync normal: a commit survives a killed server

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.db = new_database(self.tmp.name)
        self.server = Server(self.db, *self.args)
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        if self.server:
            self.assertEqual(self.server.stop(), 0, self.server.errors())
        self.tmp.cleanup()

    def client(self, game, token, seat):
        c = Client(self.server, game, token, seat)
        c.wait_type("history")
        self.clients.append(c)
        return c

    def restart(self, kill=True):
        for c in self.clients:
            c.close()
        self.clients = []
        if kill:
            self.server.kill()
        else:
            self.assertEqual(self.server.stop(), 0, self.server.errors())
        self.server = Server(self.db, *self.args)

    def two_humans(self, variant):
        created = self.server.create(variant, [HUMAN, HUMAN])
        joined = self.server.join(created["game"], "Bo")
        return created["game"], [(created["token"], 0), (joined["token"], 1)]

    def play_acked(self, clients, moves):
        """Plays `moves` decisions, each acknowledged (the state after it
        arrived at every client); returns the last state."""
        for _ in range(moves):
            mover = next((c for c in clients if c.my_turn()), None)
            if mover is None or mover.state["game"]["status"] == "over":
                break
            ply = mover.state["game"]["ply"]
            mover.act()
            for c in clients:
                c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        return clients[0].state


class Restart(Servers):
    def test_sigkill_keeps_every_acknowledged_move(self):
        rng = random.Random(5)
        games = [self.two_humans(v) for v in ("square", "rota", "hex")]
        for round_ in range(3):
            last = {}
            for game, seats in games:
                clients = [self.client(game, t, s) for t, s in seats]
                state = self.play_acked(clients, rng.randint(3, 12))
                last[game] = comparable(state)
            self.restart(kill=True)
            for game, seats in games:
                for token, seat in seats:
                    c = self.client(game, token, seat)
                    self.assertEqual(comparable(c.state), last[game],
                                     f"round {round_}: game {game} differs after SIGKILL")
                    self.assertEqual(c.state["you"]["seat"], seat)
            for c in self.clients:
                c.close()
            self.clients = []

    def test_sigkill_with_a_move_in_flight(self):
        game, seats = self.two_humans("square")
        clients = [self.client(game, t, s) for t, s in seats]
        acked = self.play_acked(clients, 6)
        mover = next(c for c in clients if c.my_turn())
        mover.act()  # not waited for
        self.restart(kill=True)
        c = self.client(game, *seats[0])
        ply = c.state["game"]["ply"]
        self.assertIn(ply, (acked["game"]["ply"], acked["game"]["ply"] + 1))
        if ply == acked["game"]["ply"]:
            self.assertEqual(comparable(c.state), comparable(acked))

    def test_computer_players_resume(self):
        created = self.server.create("hex", [HUMAN, AI, AI, AI], mode="team")
        me = self.client(created["game"], created["token"], 0)
        acked = self.play_acked([me], 4)
        self.restart(kill=True)
        me = self.client(created["game"], created["token"], 0)
        self.assertGreaterEqual(me.state["game"]["ply"], acked["game"]["ply"])
        final = play_until_over([me])
        self.assertEqual(final["game"]["status"], "over")
        status, text, _ = self.server.http("GET", f"/api/games/{created['game']}/record")
        self.assertEqual(status, 200)

    def test_sigterm_then_resume(self):
        game, seats = self.two_humans("rota")
        clients = [self.client(game, t, s) for t, s in seats]
        state = self.play_acked(clients, 5)
        self.restart(kill=False)
        c = self.client(game, *seats[1])
        self.assertEqual(comparable(c.state), comparable(state))

    def test_finished_game_after_restart(self):
        created = self.server.create("square", [HUMAN, AI])
        me = self.client(created["game"], created["token"], 0)
        final = play_until_over([me])
        self.restart(kill=False)
        game = created["game"]
        # not resumed (it is over), but found on demand
        _, games, _ = self.server.http("GET", "/api/games")
        self.assertNotIn(game, [g["id"] for g in games])
        status, state, _ = self.server.http("GET", f"/api/games/{game}")
        self.assertEqual(status, 200)
        self.assertEqual(comparable({"game": state}), comparable(final))
        status, text, _ = self.server.http("GET", f"/api/games/{game}/record")
        self.assertEqual(status, 200)
        watcher = self.client(game, None, None)
        self.assertEqual(watcher.events[0]["seed"], final["game"]["seed"])
        me = self.client(game, created["token"], 0)
        self.assertEqual(me.state["game"]["status"], "over")

    def test_sigint(self):
        self.server.proc.send_signal(signal.SIGINT)
        self.assertEqual(self.server.proc.wait(TIMEOUT), 0)
        self.server._close_pipes()
        self.server = Server(self.db, *self.args)
        self.assertEqual(self.server.http("GET", "/api/health")[0], 200)

    def test_reconnect_with_token(self):
        game, seats = self.two_humans("hex")
        ann, bo = [self.client(game, t, s) for t, s in seats]
        self.play_acked([ann, bo], 3)
        bo.close()
        self.clients.remove(bo)
        state = ann.wait_presence(lambda g: not g["seats"][1]["connected"])
        self.assertTrue(state["game"]["seats"][0]["connected"])
        bo = self.client(game, *seats[1])
        self.assertEqual(bo.state["you"]["seat"], 1)
        self.assertEqual(len(bo.state["you"]["rack"]), bo.state["game"]["seats"][1]["rack_size"])
        ann.wait_presence(lambda g: g["seats"][1]["connected"])
        self.assertEqual(comparable(bo.state), comparable(ann.state))
        # two connections of one seat: both get its view
        bo2 = self.client(game, *seats[1])
        self.assertEqual(bo2.state["you"]["rack"], bo.state["you"]["rack"])
        play_until_over([ann, bo, bo2], before_move=lambda c: c is not bo2)


@unittest.skipIf(ON_POSTGRESQL, "--sync is SQLite's; PostgreSQL flushes every commit")
class RestartFullSync(Restart):
    """The same with an fsync per commit."""

    args = FAST + ("--sync", "full")


@unittest.skipIf(ON_POSTGRESQL, "files that are not SQLite databases")
class BadDatabase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def refused(self, db, why):
        before = file_hash(db)
        r = subprocess.run([AXIO, "serve", "--port", "0", "--db", db], capture_output=True, text=True,
                           timeout=TIMEOUT)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("cannot use database", r.stderr)
        self.assertIn(why, r.stderr)
        self.assertNotIn("listening", r.stdout)
        self.assertEqual(file_hash(db), before, "the database was changed")
        self.assertFalse(os.path.exists(db + "-wal") and os.path.getsize(db + "-wal") > 0)

    def make_axio_db(self, name):
        db = self.path(name)
        server = Server(db, *FAST)
        try:
            for _ in range(30):
                server.create("square", [HUMAN, AI], name="x" * 24)
        finally:
            self.assertEqual(server.stop(), 0, server.errors())
        return db

    def test_not_a_database(self):
        db = self.path("text.db")
        with open(db, "w") as f:
            f.write("these are not the games you are looking for\n" * 200)
        self.refused(db, "not a database")

    def test_another_programs_database(self):
        db = self.path("other.db")
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE accounts(id INTEGER PRIMARY KEY, balance INTEGER)")
            conn.execute("INSERT INTO accounts VALUES (1, 100)")
        conn.close()
        self.refused(db, "not an axio database")

    def test_damaged_database(self):
        db = self.make_axio_db("damaged.db")
        size = os.path.getsize(db)
        self.assertGreater(size, 4 * 4096)
        with open(db, "r+b") as f:
            for page in range(1, size // 4096):
                f.seek(page * 4096 + 10)
                f.write(b"\xde\xad\xbe\xef" * 64)
        self.refused(db, "damaged")

    def test_in_use(self):
        db = self.path("busy.db")
        first = Server(db)
        try:
            r = subprocess.run([AXIO, "serve", "--port", "0", "--db", db], capture_output=True,
                               text=True, timeout=TIMEOUT)
            self.assertEqual(r.returncode, 1)
            self.assertIn("in use", r.stderr)
            self.assertEqual(first.http("GET", "/api/health")[0], 200)
        finally:
            self.assertEqual(first.stop(), 0, first.errors())

    def test_missing_directory(self):
        r = subprocess.run([AXIO, "serve", "--port", "0", "--db", self.path("no/such/dir.db")],
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 1)
        self.assertIn("cannot use database", r.stderr)


def catalog_and_rows(db):
    """What a PostgreSQL database holds, to compare before and after: every relation of its
    schema, axio_meta and the foreign table's rows."""
    rels = db_query(db, "SELECT relname, relkind FROM pg_class c JOIN pg_namespace n"
                    " ON n.oid = c.relnamespace WHERE n.nspname = current_schema() ORDER BY 1")
    names = [r[0] for r in rels]
    rows = {t: db_query(db, f"SELECT * FROM {t} ORDER BY 1") for t in ("axio_meta", "ledger")
            if t in names}
    return rels, rows


@unittest.skipUnless(ON_POSTGRESQL, "PostgreSQL's refusals")
class BadPostgresDatabase(unittest.TestCase):
    def serve(self, db):
        return subprocess.run([AXIO, "serve", "--port", "0", "--db", db], capture_output=True,
                              text=True, timeout=TIMEOUT)

    def refused(self, db, why):
        before = catalog_and_rows(db)
        r = self.serve(db)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("cannot use database", r.stderr)
        self.assertIn(why, r.stderr)
        self.assertNotIn("listening", r.stdout)
        self.assertEqual(catalog_and_rows(db), before, "the database was changed")

    def test_another_programs_database(self):
        db = new_database(None)
        db_query(db, "CREATE TABLE ledger(id BIGINT PRIMARY KEY, balance BIGINT)")
        db_query(db, "INSERT INTO ledger VALUES(1, 100)")
        self.refused(db, "not an axio database")

    def test_a_newer_version(self):
        db = new_database(None)
        server = Server(db, *FAST)
        server.create("square", [HUMAN, AI])
        self.assertEqual(server.stop(), 0, server.errors())
        db_query(db, "UPDATE axio_meta SET version = 99")
        self.refused(db, "unknown axio database version 99")

    def test_in_use(self):
        """Servers share a database (one site, docs/server.md "Several servers"); a copy
        into it waits for them all to stop."""
        db = new_database(None)
        first = Server(db)
        second = Server(db)
        try:
            ids = {s.http("GET", "/api/health")[1]["instance"] for s in (first, second)}
            self.assertEqual(len(ids), 2, "each server has an instance id of its own")
            tmp = tempfile.mkdtemp()
            r = subprocess.run([AXIO, "db", "copy", db, os.path.join(tmp, "copy.db")],
                               capture_output=True, text=True, timeout=TIMEOUT)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("in use", r.stderr)
        finally:
            self.assertEqual(first.stop(), 0, first.errors())
            self.assertEqual(second.stop(), 0, second.errors())

    def test_no_such_server_or_database(self):
        for db in (pg_cluster().uri("nosuchdb"),
                   "postgresql:///x?host=/nonexistent/folder", "postgres://"):
            with self.subTest(db=db):
                r = self.serve(db)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn("cannot use database", r.stderr)

    def test_a_password_in_the_uri_is_never_shown(self):
        db = new_database(None).replace("postgresql:///", "postgresql://axio:hunter2secret@/")
        self.assertIn("hunter2secret", db)
        server = Server(db, quiet=False)
        try:
            self.assertEqual(server.http("GET", "/api/health")[0], 200)
        finally:
            self.assertEqual(server.stop(), 0, server.errors())
        self.assertIn("postgresql://axio:***@/", server.first_line)
        self.assertNotIn("hunter2secret", server.first_line + server.errors())
        r = self.serve(db.replace("@/axio?", "@/missing?"))
        self.assertEqual(r.returncode, 1)
        self.assertNotIn("hunter2secret", r.stdout + r.stderr)


@unittest.skipUnless(ON_POSTGRESQL, "PostgreSQL's connection")
class ConnectionLoss(Servers):
    """The database server goes away in the middle of a game."""

    def decide(self, mover, clients):
        """Sends mover's hinted decision: the state after it, or the error it got."""
        ply = mover.state["game"]["ply"]
        mover.act()
        msg = mover.wait_for(lambda m: m["type"] == "error" or
                             (m["type"] == "state" and m["game"]["ply"] > ply))
        if msg["type"] == "state":
            for c in clients:
                if c is not mover:
                    c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        return msg

    def test_database_stopped_and_started_again(self):
        game, seats = self.two_humans("square")
        clients = [self.client(game, t, s) for t, s in seats]
        acked = self.play_acked(clients, 4)
        pg_cluster().stop_server()
        try:
            for attempt in range(3):
                mover = next(c for c in clients if c.my_turn() or
                             c.state["you"] and "hint" in c.state["you"])
                msg = self.decide(mover, clients)
                self.assertEqual(msg["type"], "error", msg)
                self.assertEqual(msg["code"], "internal")
                self.assertIn("could not be stored", msg["message"])
            status, _, _ = self.server.http("GET", "/api/players/Nobody")
            self.assertIn(status, (404, 500))  # a read fails cleanly (or finds nothing)
            for c in clients:
                c.drain()
                self.assertEqual(c.state["game"]["ply"], acked["game"]["ply"])
            self.assertEqual(self.server.http("GET", "/api/health")[0], 200)
        finally:
            pg_cluster().start()
        # back: the same decision is taken once the new connection is made
        mover = next(c for c in clients if "hint" in (c.state["you"] or {}))
        deadline = time.monotonic() + 30
        while True:
            msg = self.decide(mover, clients)
            if msg["type"] == "state":
                break
            self.assertEqual(msg["code"], "internal")
            self.assertLess(time.monotonic(), deadline, "the server did not reconnect")
            time.sleep(0.3)
        self.assertEqual(msg["game"]["ply"], acked["game"]["ply"] + 1)
        state = self.play_acked(clients, 3)
        self.restart(kill=True)
        c = self.client(game, *seats[0])
        self.assertEqual(comparable(c.state), comparable(state))
        self.assertEqual(db_query(self.db, "SELECT count(*) FROM decisions WHERE game_id = ?", game),
                         [(state["game"]["ply"],)])

    def test_session_terminated(self):
        game, seats = self.two_humans("hex")
        clients = [self.client(game, t, s) for t, s in seats]
        self.play_acked(clients, 3)
        self.assertGreaterEqual(pg_cluster().terminate_sessions(), 1)
        time.sleep(0.2)
        mover = next(c for c in clients if c.my_turn())
        msg = self.decide(mover, clients)
        self.assertEqual(msg["type"], "state", msg)  # a new session, at once
        state = self.play_acked(clients, 3)
        self.restart(kill=True)
        c = self.client(game, *seats[1])
        self.assertEqual(comparable(c.state), comparable(state))


@unittest.skipUnless(ON_POSTGRESQL, "a lock held in PostgreSQL")
class BotDecisionAnsweredOnceStored(Servers):
    """POST /api/bot/game/{id}/move answers 200 only after the decision's commit."""

    def lock_decisions(self):
        """A session of its own holding the table of decisions: the server's writes wait."""
        cluster = pg_cluster()
        locker = subprocess.Popen([os.path.join(cluster.bin, "psql"), "-X", "-q", "-A", "-t",
                                   "-d", self.db], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        locker.stdin.write("BEGIN; LOCK TABLE decisions IN EXCLUSIVE MODE; SELECT 'locked';\n")
        locker.stdin.flush()
        self.assertEqual(locker.stdout.readline().strip(), "locked")
        return locker

    def post_move(self, game, bot, body, answers):
        conn = http.client.HTTPConnection(HOST, self.server.port, timeout=TIMEOUT)
        try:
            conn.request("POST", f"/api/bot/game/{game}/move", body=json.dumps(body),
                         headers={**bearer(bot), "Content-Type": "application/json"})
            answers.append(conn.getresponse().status)
        except (OSError, http.client.HTTPException) as e:
            answers.append(e)
        finally:
            conn.close()

    def ply(self, game):
        status, g, _ = self.server.http("GET", f"/api/games/{game}")
        self.assertEqual(status, 200, g)
        return g["ply"]

    def test_answered_once_stored(self):
        ann = register(self.server, "Ann", PW)
        _, bot = make_bot(self.server, "Robo")
        status, c, _ = api(self.server, "POST", "/api/challenges", {"to": "Robo",
                           "variant": "square"}, session=ann)
        self.assertEqual(status, 201, c)
        status, accepted, _ = api(self.server, "POST",
                                  f"/api/challenges/{c['challenge']['id']}/accept", token=bot)
        self.assertEqual(status, 200, accepted)
        game, seat = accepted["game"], accepted["seat"]
        person = Client(self.server, game, None, 1 - seat, session=ann)
        self.clients.append(person)
        person.wait_type("history")
        if person.my_turn():
            person.act()
        stream = Stream(self.server, f"/api/bot/game/stream/{game}", bot)
        line = stream.wait(lambda l: l["type"] == "state" and to_decide(l))
        stream.close()
        engine = Engine()
        try:
            body = {"move": engine.decide(line["position"]), "ply": line["position"]["ply"]}
        finally:
            engine.close()
        ply = self.ply(game)
        locker = self.lock_decisions()
        answers = []
        try:
            poster = threading.Thread(target=self.post_move, args=(game, bot, body, answers))
            poster.start()
            poster.join(1.5)
            self.assertTrue(poster.is_alive(), f"answered before it was stored: {answers}")
            self.server.kill()  # before the commit: no answer at all
            poster.join(TIMEOUT)
            self.assertEqual(len(answers), 1)
            self.assertIsInstance(answers[0], Exception, "a killed server answered")
        finally:
            locker.stdin.close()  # its transaction ends: the lock goes
            locker.wait(TIMEOUT)
        self.clients = []
        self.server = Server(self.db, *self.args)
        # the decision was never acknowledged; its transaction may have ended either way
        self.assertIn(self.ply(game), (ply, ply + 1))
        # sent again with its ply: taken if it was not, and never twice
        status, reply, _ = api(self.server, "POST", f"/api/bot/game/{game}/move", body, token=bot)
        self.assertIn((status, reply.get("ok") or reply["error"]["code"]),
                      ((200, True), (409, "not_your_turn")), reply)
        self.assertEqual(self.ply(game), ply + 1)
        status, reply, _ = api(self.server, "POST", f"/api/bot/game/{game}/move", body, token=bot)
        self.assertEqual((status, reply["error"]["code"]), (409, "not_your_turn"), reply)
        self.assertEqual(self.ply(game), ply + 1)
        self.assertEqual(db_query(self.db, "SELECT count(*) FROM decisions WHERE game_id = ?",
                                  game), [(ply + 1,)])


if __name__ == "__main__":
    unittest.main()
