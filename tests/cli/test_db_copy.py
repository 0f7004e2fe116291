"""test_db_copy.py - `axio db copy FROM TO` (src/cli/cmd_db.c): a site's SQLite database
holding every kind of row (accounts with skeletons, a deleted one's seats, sessions, a
rated game with its ratings and history, finished, running and waiting games, chat from a
seat and a spectator, analyses, moderation, a notification device with its settings and
digest address, an event with its players and first table) is copied to PostgreSQL and back to a new SQLite file, and
every row of every table arrives equal, games in the order they were stored; a server
started on the copy plays on, logs in and makes new accounts. A copy run again finds
everything there; a copy interrupted part way (rows removed from the target, and a copy
killed with SIGKILL) is completed by running it again; a row that differs in the target is
named and left alone; a game that no longer replays is named; a source that is missing,
empty or in use is refused and left as it was.

Starts its own PostgreSQL cluster (tests/server/pgcluster.py), whatever AXIO_TEST_DB says."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "server"))
from accounts_lib import call, create, join, login, play_to_end, register  # noqa: E402
from harness import (AXIO, TIMEOUT, Client, Server, db_query, pg_cluster,  # noqa: E402
                     play_until_over)

PW = "correct horse"
HUMAN = {"kind": "human"}
CLOCK = {"kind": "realtime", "base_s": 3600, "increment_s": 0}
ILLEGAL = '{"type":"place","rack_index":0,"cells":[[40,40],[40,41]]}'

# Every table and column the store keeps, by key (store_copy.c's description).
TABLES = {
    "accounts": ("id, name, name_key, password_hash, computer, created_at, name_skeleton, role,"
                 " closed", "id"),
    "games": ("id, variant, players, mode, seed, status, created_at, updated_at, creator, clock,"
              " clock_left, rematch, rematch_of, end_summary, rules, damage, rated", "id"),
    "seats": ("game_id, seat, kind, level, name, token_hash, account_id, place", "game_id, seat"),
    "decisions": ("game_id, ply, seat, decision, at", "game_id, ply"),
    "chat": ("game_id, n, seat, name, text, at", "game_id, n"),
    "analyses": ("game_id, seat, result, at", "game_id, seat"),
    "sessions": ("token_hash, account_id, created_at, expires_at", "token_hash"),
    "ratings": ("account_id, variant, mu, sigma, games", "account_id, variant"),
    "rating_history": ("game_id, seat, account_id, variant, mu_before, sigma_before, mu_after,"
                       " sigma_after, at", "game_id, seat"),
    # moderation (docs/moderation.md)
    "blocks": ("account_id, blocked_id, at", "account_id, blocked_id"),
    "reports": ("id, reporter_id, target_id, game_id, chat_n, reason, text, status, created_at,"
                " handled_by, handled_at", "id"),
    "sanctions": ("id, account_id, kind, game_id, detail, until_at, created_at, by_id, lifted_at,"
                  " seen_at", "id"),
    "held_names": ("name_key, skeleton, account_id, at", "name_key"),
    "mod_log": ("id, at, moderator_id, moderator, target_id, target, action, detail, reason", "id"),
    # notifications (docs/notifications.md), with the site's secrets (its VAPID keys)
    "site": ("name, value", "name"),
    "push_subscriptions": ("endpoint, account_id, p256dh, auth, created_at", "endpoint"),
    "notify_settings": ("account_id, lang, prefs", "account_id"),
    "email_addresses": ("account_id, address, verified, token_hash, digest_at", "account_id"),
    # events (docs/tournaments.md)
    "events": ("id, name, organiser_id, format, variant, mode, seats, clock, rated, bots,"
               " starts_at, duration_s, rounds, days_per_round, min_rated_games, status, round,"
               " round_deadline, ends_at, cancel_reason, created_at, creator_addr, runner,"
               " runner_until", "id"),
    "event_players": ("event_id, account_id, joined_at, withdrawn, misses",
                      "event_id, account_id"),
    "event_tables": ("event_id, round, tbl, game_id, seats, players, points, places, running,"
                     " counted, created_at, ended_at, deadline", "event_id, round, tbl"),
}

# RFC 8291's example browser keys: a P-256 point and a 16-byte secret, as a browser sends them
P256DH = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"


def dump(db):
    """Every row of every table, and the games in the order stored."""
    out = {t: db_query(db, f"SELECT {cols} FROM {t} ORDER BY {key}")
           for t, (cols, key) in TABLES.items()}
    out["order"] = db_query(db, "SELECT id FROM games ORDER BY rowid")
    return out


def copy(src, dst, expect=0):
    r = subprocess.run([AXIO, "db", "copy", src, dst], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == expect, f"exit {r.returncode}: {r.stdout}{r.stderr}"
    return r.stdout + r.stderr


def counts(output):
    """{table: (added, there already)} from a copy's report."""
    found = {}
    for line in output.splitlines():
        words = line.split()
        if words and words[0] in TABLES and "added," in words:
            found[words[0]] = (int(words[1]), int(words[3]))
    return found


def chat_line(c, text):
    c.send({"type": "chat", "text": text})
    c.wait_for(lambda m: m["type"] == "chat" and m["text"] == text)


class Site:
    """A source database with every kind of row, made by a real server on SQLite."""

    def __init__(self, test, folder):
        self.db = os.path.join(folder, "site.db")
        self.test = test
        # (--smtp: an address for the digest is kept only where mail can be sent; nothing
        # listens there, so the confirmation is never delivered)
        self.server = Server(self.db, "--msg-rate", "1000", "--judge-playouts", "100",
                             "--smtp", "smtp://127.0.0.1:9", "--mail-from", "axio@example.org",
                             "--public-url", "http://127.0.0.1:8080")
        self.clients = []
        try:
            self.fill()
        finally:
            for c in self.clients:
                c.close()
            assert self.server.stop() == 0, self.server.errors()
        # moderation: a moderator (given on the stopped server's file) warns, times out and
        # renames; a block and reports were made above
        r = subprocess.run([AXIO, "admin", "grant", "Ann", "moderator", "--db", self.db],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        self.server = Server(self.db)
        try:
            s, ann = self.server, self.ann
            for body in [{"action": "warn", "player": "Bo", "reason": "rude", "text": "be kind"},
                         {"action": "timeout", "player": "Bo", "reason": "spam", "minutes": 5},
                         {"action": "rename", "player": "Çy", "reason": "name", "name": "Zed"}]:
                status, value, _ = call(s, "POST", "/api/mod/actions", body, token=ann)
                assert status == 201, value
            status, value, _ = call(s, "POST", f"/api/mod/actions/{value['id'] - 1}/undo",
                                    {"reason": "enough"}, token=ann)
            assert status == 200, value
        finally:
            assert self.server.stop() == 0, self.server.errors()

    def connect(self, game, token=None, seat=None, session=None):
        c = Client(self.server, game, token, seat, session=session)
        c.wait_type("history")
        self.clients.append(c)
        return c

    def fill(self):
        s = self.server
        ann, bo, cy = (register(s, n, PW) for n in ("Ann", "Bo", "Çy"))
        self.bo_again = login(s, "Bo", PW)
        # a rated game to its end: ratings, their history, places
        rated = create(s, ann, {"variant": "square", "players": 2, "clock": CLOCK, "rated": True,
                                "seats": [HUMAN, {"kind": "ai", "level": "random"}]})
        play_to_end(self, [(rated["game"], rated["token"], 0, ann)])
        # a finished casual game and both seats' analyses
        over = s.create("rota", [HUMAN, {"kind": "ai", "level": "greedy"}])
        play_until_over([self.connect(over["game"], over["token"], 0)])
        for seat in (0, 1):
            deadline = time.monotonic() + 120
            while s.http("GET", f"/api/games/{over['game']}/analysis?seat={seat}")[0] != 200:
                assert time.monotonic() < deadline, "no analysis"
                time.sleep(0.2)
        # a running game of two accounts, with chat from a seat and a spectator
        running = create(s, bo, {"variant": "hex", "players": 2, "seats": [HUMAN, HUMAN]})
        joined = join(s, cy, running["game"])
        a = self.connect(running["game"], running["token"], 0, session=bo)
        b = self.connect(running["game"], joined["token"], 1, session=cy)
        for _ in range(5):
            mover = next(c for c in (a, b) if c.my_turn()) if any(
                c.my_turn() for c in (a, b)) else None
            if mover is None:
                a.recv()
                continue
            ply = mover.state["game"]["ply"]
            mover.act()
            for c in (a, b):
                c.wait_for(lambda m: m["type"] == "state" and m["game"]["ply"] > ply)
        chat_line(a, "good luck, Çy ☺")
        chat_line(self.connect(running["game"]), "a spectator's word")
        # a waiting game, and one whose creator then deletes the account
        s.create("square", [HUMAN, HUMAN], name="Dora")
        gone = register(s, "Eve", PW)
        create(s, gone, {"variant": "rota", "players": 3, "seats": [HUMAN, HUMAN, HUMAN]})
        status, _, _ = call(s, "POST", "/api/me/delete", {"password": PW}, token=gone)
        assert status == 204
        self.running = running
        self.tokens = (running["token"], joined["token"])
        self.ann = ann
        assert call(s, "POST", "/api/me/blocks", {"name": "Çy"}, token=ann)[0] == 204
        status, value, _ = call(s, "POST", "/api/reports",
                                {"player": "Çy", "reason": "insults", "text": "rude ☺",
                                 "game": running["game"], "chat": 0}, token=bo)
        assert status == 201, value
        assert call(s, "POST", "/api/reports", {"player": "Bo", "reason": "other"},
                    token=ann)[0] == 201
        # notifications: a device of Ann's, her settings and an address for the digest
        status, value, _ = call(s, "POST", "/api/me/push",
                                {"endpoint": "https://push.example.org/send/ann-1",
                                 "keys": {"p256dh": P256DH, "auth": AUTH}, "lang": "de"}, token=ann)
        assert status == 201, value
        status, value, _ = call(s, "POST", "/api/me/notifications",
                                {"prefs": {"over": {"push": False}}}, token=ann)
        assert status == 200, value
        status, value, _ = call(s, "POST", "/api/me/email", {"address": "ann@example.org"},
                                token=ann)
        assert status == 202, value
        # an event: Ann organises a Swiss, Bo and Çy join, it starts: a table and its game
        status, value, _ = call(s, "POST", "/api/events",
                                {"name": "Copied Swiss ☺", "format": "swiss", "variant": "square",
                                 "seats": 2, "clock": CLOCK, "rounds": 2,
                                 "starts": int(time.time() * 1000) + 3600 * 1000}, token=ann)
        assert status == 201, value
        event = value["event"]["id"]
        for who in (bo, cy):
            assert call(s, "POST", f"/api/events/{event}/join", {}, token=who)[0] == 200
        status, value, _ = call(s, "POST", f"/api/events/{event}/start", {}, token=ann)
        assert status == 200, value
        deadline = time.monotonic() + 30
        while not call(s, "GET", f"/api/events/{event}")[1]["tables"]:
            assert time.monotonic() < deadline, "the event's first round was not paired"
            time.sleep(0.2)


class Copy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.site = Site(cls, cls.tmp.name)
        cls.source = dump(cls.site.db)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_every_kind_of_row(self):
        for table, rows in self.source.items():
            self.assertTrue(rows, f"the site has no {table}")
        self.assertTrue(any(r[4] == "former player" for r in self.source["seats"]))
        self.assertEqual(len(self.source["analyses"]), 2)
        self.assertTrue(any(r[2] is None for r in self.source["chat"]))  # a spectator's

    def test_to_postgresql_and_back(self):
        pg = pg_cluster().new_database()
        out = copy(self.site.db, pg)
        self.assertIn("(SQLite) to postgresql:", out)
        self.assertIn("done: everything is in", out)
        n = counts(out)
        for table in TABLES:
            self.assertEqual(n[table], (len(self.source[table]), 0), table)
        games = len(self.source["games"])
        self.assertIn(f"games replayed: {games} of {games}", out)
        self.assertEqual(dump(pg), self.source)
        # again: everything is there
        out = copy(self.site.db, pg)
        for table in TABLES:
            self.assertEqual(counts(out)[table], (0, len(self.source[table])), table)
        # and back to a new SQLite file
        back = self.path("back.db")
        out = copy(pg, back)
        self.assertIn("(PostgreSQL) to", out)
        self.assertEqual(dump(back), self.source)
        self.assertEqual(dump(pg), self.source, "the source of a copy changed")
        # a server on the PostgreSQL copy plays on, logs in, numbers new accounts after the old
        server = Server(pg, "--msg-rate", "1000")
        try:
            self.assertEqual(login(server, "Bo", PW)[0], 200)
            register(server, "Finn", PW)
            ids = db_query(pg, "SELECT id FROM accounts WHERE name = 'Finn'")
            self.assertGreater(ids[0][0], max(r[0] for r in self.source["accounts"]))
            game, (t0, t1) = self.site.running["game"], self.site.tokens
            clients = [Client(server, game, t, s) for t, s in ((t0, 0), (t1, 1))]
            for c in clients:
                c.wait_type("history")
            ply = clients[0].state["game"]["ply"]
            self.assertEqual(ply, sum(1 for r in self.source["decisions"] if r[0] == game))
            play_until_over(clients)
            for c in clients:
                c.close()
            self.assertEqual(server.http("GET", f"/api/games/{game}/record")[0], 200)
        finally:
            self.assertEqual(server.stop(), 0, server.errors())

    def test_pg_dump_and_restore(self):
        """docs/deploy.md's backup of a PostgreSQL site: pg_dump while a server runs,
        pg_restore into a new database, a server on it numbers new accounts after the old."""
        cluster = pg_cluster()
        pg = cluster.new_database()
        copy(self.site.db, pg)
        schema = pg.rsplit("%3D", 1)[1]
        dumped = self.path("site.dump")
        server = Server(pg)
        try:
            r = subprocess.run([os.path.join(cluster.bin, "pg_dump"), "--format=custom",
                                f"--file={dumped}", "-n", schema, "-d", pg],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        finally:
            self.assertEqual(server.stop(), 0, server.errors())
        restored = cluster.create_database(f"restored_{schema}") + f"&options=-csearch_path%3D{schema}"
        r = subprocess.run([os.path.join(cluster.bin, "pg_restore"), "--no-owner",
                            "--single-transaction", "-d", restored, dumped],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(dump(restored), self.source)
        server = Server(restored)
        try:
            register(server, "Gus", PW)
        finally:
            self.assertEqual(server.stop(), 0, server.errors())
        ids = db_query(restored, "SELECT id FROM accounts WHERE name = 'Gus'")
        self.assertGreater(ids[0][0], max(r[0] for r in self.source["accounts"]))

    def test_interrupted_copy_is_completed(self):
        pg = pg_cluster().new_database()
        copy(self.site.db, pg)
        # as if stopped part way: the later games and every table after them missing
        ids = [r[0] for r in self.source["order"]]
        gone = ids[len(ids) // 2:]
        for table in ("games", "seats", "decisions", "chat", "analyses"):
            key = "id" if table == "games" else "game_id"
            for g in gone:
                db_query(pg, f"DELETE FROM {table} WHERE {key} = ?", g)
        for table in ("sessions", "ratings", "rating_history"):
            db_query(pg, f"DELETE FROM {table}")
        out = copy(self.site.db, pg)
        n = counts(out)
        self.assertEqual(n["games"], (len(gone), len(ids) - len(gone)))
        self.assertEqual(n["sessions"], (len(self.source["sessions"]), 0))
        self.assertEqual(n["accounts"], (0, len(self.source["accounts"])))
        self.assertEqual(dump(pg), self.source)

    def test_killed_copy_is_completed(self):
        back = self.path("killed.db")
        for delay in (0.05, 0.3):
            proc = subprocess.Popen([AXIO, "db", "copy", self.site.db, back],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            proc.stdout.readline()  # the first line: both databases are open
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.wait(TIMEOUT)
            proc.stdout.close()
            proc.stderr.close()
        out = copy(self.site.db, back)
        self.assertIn("done: everything is in", out)
        self.assertEqual(dump(back), self.source)

    def test_a_row_that_differs_is_named_and_left(self):
        back = self.path("differs.db")
        copy(self.site.db, back)
        db_query(back, "UPDATE accounts SET name = 'Robert' WHERE name = 'Bo'")
        out = copy(self.site.db, back, expect=1)
        self.assertIn("differs: accounts (id ", out)
        self.assertIn("with another name", out)
        self.assertEqual(db_query(back, "SELECT count(*) FROM accounts WHERE name = 'Robert'"),
                         [(1,)])

    def test_a_game_that_does_not_replay_is_named(self):
        broken = self.path("broken.db")
        shutil.copy(self.site.db, broken)
        game = self.site.running["game"]
        db_query(broken, "UPDATE decisions SET decision = ? WHERE game_id = ? AND ply = 1",
                 ILLEGAL, game)
        pg = pg_cluster().new_database()
        out = copy(broken, pg, expect=1)
        self.assertIn(f"game {game} (running): does not replay: decision 1 is rejected", out)
        self.assertIn("1 do not replay", out)
        self.assertEqual(db_query(pg, "SELECT decision FROM decisions WHERE game_id = ? AND ply = 1",
                                  game), [(ILLEGAL,)])  # copied as it is

    def test_refusals(self):
        missing = self.path("missing.db")
        out = copy(missing, self.path("t1.db"), expect=1)
        self.assertIn("cannot use", out)
        self.assertFalse(os.path.exists(missing))
        empty = pg_cluster().new_database()
        out = copy(empty, self.path("t2.db"), expect=1)
        self.assertIn("holds no axio database", out)
        self.assertEqual(db_query(empty, "SELECT count(*) FROM pg_tables WHERE schemaname ="
                                  " current_schema()"), [(0,)])
        server = Server(self.site.db)
        try:
            out = copy(self.site.db, pg_cluster().new_database(), expect=1)
            self.assertIn("in use", out)
        finally:
            self.assertEqual(server.stop(), 0, server.errors())
        self.assertEqual(dump(self.site.db), self.source)


if __name__ == "__main__":
    unittest.main()
