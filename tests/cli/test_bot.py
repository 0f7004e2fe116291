#!/usr/bin/env python3
"""`axio bot` on a fake Bot API site (fake_bot_site.py, real games held by the
engine): challenges answered by the filters, games played to the end with
every decision checked, the clock's share, streams cut and the site restarted
mid-game, 429 and its Retry-After, decisions whose answers were lost, a game of three seats with two bots, a
refused token, two bots with one token, and SIGTERM."""
import json
import os
import threading
import time

from bot_testlib import AXIO, GREEDY, TMP, Bot, check_game, moves, replay, site, wait_for

REALTIME = lambda base, inc: {"kind": "realtime", "base_s": base, "increment_s": inc}  # noqa


def test_filters_and_games():
    fake = site()
    fake.add_account("Bot", "axio_filters0000000000000000000000000000000000")
    want = {
        fake.challenge("Bot", "rota"): "variant",
        fake.challenge("Bot", "hex", players=3): "generic",
        fake.challenge("Bot", "hex", rated=True, clock=REALTIME(180, 2)): "rated",
        fake.challenge("Bot", "hex", clock={"kind": "daily", "per_move_s": 86400}):
            "timeControl",
        fake.challenge("Bot", "hex", clock=REALTIME(30, 0)): "tooFast",
        fake.challenge("Bot", "hex", clock=REALTIME(1800, 0)): "tooSlow",
        fake.challenge("Bot", "hex", clock=REALTIME(60, 0)): None,  # accepted
        fake.challenge("Bot", "square"): "later",  # one game at a time
    }
    gos = os.path.join(TMP, "gos.jsonl")
    bot = Bot(fake, "axio_filters0000000000000000000000000000000000", "--variants", "hex,square",
              "--players", "2", "--rated", "no", "--clocks", "none,1-10+0-5", "--max-games", "1",
              "--movetime", "5000", engine="tee -a %s | %s" % (gos, GREEDY))
    wait_for(lambda: len(fake.finished) == 1, 60, "the accepted game's end")
    wait_for(lambda: all(fake.challenges[c]["status"] != "open" for c in want), 10,
             "every challenge answered")
    for cid, reason in want.items():
        c = fake.challenges[cid]
        if reason:
            assert (c["status"], c["reason"]) == ("declined", reason), (c, reason, bot.log())
        else:
            assert c["status"] == "accepted", c
    first = check_game(fake, fake.finished[0])
    # a challenge while connected, now that the bot is free again
    cid = fake.challenge("Bot", "square")
    wait_for(lambda: len(fake.finished) == 2, 60, "the second game's end")
    assert fake.challenges[cid]["status"] == "accepted"
    second = check_game(fake, fake.finished[1])
    bot.wait_log("game %s: over" % second.id)
    bot.stop()
    # the clock's share: 60 s over the decisions to come; no clock: --movetime
    timed, untimed = [], []
    with open(gos) as f:
        for line in f:
            msg = json.loads(line)
            if msg["type"] == "go":
                (timed if msg["position"]["variant"] == "hex" else untimed).append(msg["movetime"])
    assert len(timed) == len(first.decisions) and len(untimed) == len(second.decisions)
    # (60 s - 1 s of reserve) over 26 decisions at first (bot_time.c), then larger
    # shares as fewer decisions are left, never over --movetime
    assert 2000 <= timed[0] <= 2300 and timed[-1] > timed[0], timed
    assert all(t <= 5000 for t in timed) and 5000 in timed, timed
    assert set(untimed) == {5000}, untimed
    fake.stop()
    print("ok: declines with their reasons, two games played, movetimes from the clock")


def test_reconnect_restart_429():
    fake = site()
    token = "axio_reconnect000000000000000000000000000000000"
    fake.add_account("Bot", token)
    done = {}

    def after_move(g, seat, ply):
        n = len(g.decisions)
        if n == 3:
            fake.drop_streams()  # both streams cut mid-game
        elif n == 6:
            threading.Thread(target=fake.restart, args=(1.5,), daemon=True).start()
        elif n == 9:
            fake.fail_next("/api/bot/game/%s/move" % g.id, 429, retry_after=2)
        elif n == 12:
            fake.fail_next("/api/bot/game/%s/move" % g.id, 503, code="internal")
        elif n == 15:
            # the first attempt and all 5 retries: the decision is lost, and asked again
            fake.fail_next("/api/bot/game/%s/move" % g.id, 503, count=6, code="internal")
        done[n] = time.monotonic()

    fake.after_move = after_move
    bot = Bot(fake, token)
    cid = fake.challenge("Bot", "hex")
    wait_for(lambda: fake.finished, 90, "the game's end")
    g = check_game(fake, fake.challenges[cid]["game"])
    answers = moves(fake, g.id)
    limited = [i for i, r in enumerate(answers) if r["status"] == 429]
    assert len(limited) == 1, answers
    wait = answers[limited[0] + 1]["t"] - answers[limited[0]]["t"]
    assert wait >= 1.95, "sent again after %.2f s, before Retry-After: 2" % wait
    assert sum(r["status"] == 503 for r in answers) == 7, answers
    assert not any(r["status"] == 409 for r in fake.requests), "a decision sent twice"
    assert bot.saw("the decision is asked for again"), bot.log()
    for path in ("/api/bot/stream/event", "/api/bot/game/stream/" + g.id):
        opened = [r["t"] for r in fake.requests if r["path"] == path]
        assert len(opened) >= 2 and opened[-1] > fake.restarts[0], (path, bot.log())
    assert bot.saw("stream lost"), bot.log()
    bot.stop()
    fake.stop()
    print("ok: streams cut, a restart, 429, a 503 and a decision lost after every retry: "
          "it ends, no decision twice")


def test_lost_answers():
    """Decisions taken whose answers never come (a server killed after its commit): the
    bot sends each again with its ply, the site answers 409, and nothing is taken twice."""
    fake = site()
    token = "axio_lostanswer" + "0" * 33
    fake.add_account("Bot", token)

    def after_move(g, seat, ply):
        if len(g.decisions) in (2, 5):
            fake.lose_next_answers()

    fake.after_move = after_move
    bot = Bot(fake, token)
    cid = fake.challenge("Bot", "hex")
    wait_for(lambda: fake.finished, 90, "the game's end")
    g = fake.games[fake.challenges[cid]["game"]]
    assert g.status == "over" and not fake.timeouts, fake.timeouts
    assert not any(r["path"].endswith("/resign") for r in fake.requests), fake.requests
    replay(g.record)
    # each lost answer's decision is sent again half a second later, when the game has gone
    # on (or ended): refused as no longer due
    wait_for(lambda: sum(r["status"] == 409 for r in moves(fake, g.id)) >= 2, 20, "the retries")
    answers = moves(fake, g.id)
    lost = [i for i, r in enumerate(answers) if r["status"] == 0]
    assert len(lost) == 2, answers
    for i in lost:
        again = [r for r in answers[i + 1:] if r["body"] == answers[i]["body"]]
        assert [r["status"] for r in again] == [409], answers
    assert sum(r["status"] == 409 for r in answers) == 2, answers
    plies = [p for _, p, _ in g.decisions]
    assert len(plies) == len(set(plies)), "a decision taken twice: %s" % plies
    assert not bot.saw("resigning"), bot.log()
    bot.stop()
    fake.stop()
    print("ok: two decisions whose answers were lost: sent again, refused as taken, the game ends")


def test_three_seats_two_bots():
    fake = site()
    fake.add_account("BotA", "axio_a" + "0" * 42)
    fake.add_account("BotB", "axio_b" + "0" * 42)
    a = Bot(fake, "axio_a" + "0" * 42, "--players", "3")
    b = Bot(fake, "axio_b" + "0" * 42, "--players", "3,4")
    cid = fake.challenge(["BotA", "BotB"], "hex", players=3, clock=REALTIME(300, 5))
    wait_for(lambda: fake.finished, 90, "the game's end")
    g = check_game(fake, fake.challenges[cid]["game"])
    assert {s for s, _, _ in g.decisions} == set(g.bot_seats) and len(g.bot_seats) == 2
    a.stop()
    b.stop()
    fake.stop()
    print("ok: a game of three seats with two bots")


def test_refusals():
    fake = site()
    fake.add_account("Person", "axio_person" + "0" * 37, bot=False)
    bot = Bot(fake, "axio_wrong" + "0" * 38)
    assert bot.p.wait(timeout=20) == 1, bot.log()
    bot.reader.join(timeout=5)
    assert bot.saw("refused the token"), bot.log()
    bot.check_log()
    bot = Bot(fake, "axio_person" + "0" * 37)
    assert bot.p.wait(timeout=20) == 1, bot.log()
    bot.reader.join(timeout=5)
    assert bot.saw("not a bot"), bot.log()
    fake.stop()
    print("ok: a refused token and an account that is not a bot end the bot (exit 1)")


def test_signals_and_two_bots_one_token():
    fake = site()
    token = "axio_signal" + "0" * 37
    fake.add_account("Bot", token)
    older = Bot(fake, token)
    wait_for(lambda: fake.event_streams.get("Bot"), 20, "the event stream")
    # the site keeps one event stream per token, the newer: two bots with one
    # token take it from each other until the older sees it taken twice and ends
    newer = Bot(fake, token)
    newer.wait_log("connecting to")
    assert older.p.wait(timeout=30) == 1, older.log()
    older.reader.join(timeout=5)
    assert older.saw("ended the event stream twice"), older.log()
    older.check_log()
    assert newer.p.poll() is None, newer.log()
    wait_for(lambda: len(fake.event_streams.get("Bot", [])) == 1, 10, "the newer's stream")
    start = time.monotonic()
    newer.stop()
    assert time.monotonic() - start < 5
    wait_for(lambda: not fake.event_streams.get("Bot"), 10, "the stream's end")
    fake.stop()
    print("ok: two bots with one token: the older ends (exit 1), SIGTERM ends the newer")


def test_unanswered_acceptance():
    """An acceptance that gets no answer (5xx every time) is not remembered as
    answered: the challenge, listed again when the event stream reconnects, is
    accepted then."""
    fake = site()
    token = "axio_unanswered" + "0" * 33
    fake.add_account("Bot", token)
    bot = Bot(fake, token)
    wait_for(lambda: fake.event_streams.get("Bot"), 20, "the event stream")
    fake.fail_next("/api/challenges/", 503, count=4, code="internal")  # the first and 3 more
    cid = fake.challenge("Bot", "square")
    bot.wait_log("challenge %s: the acceptance was not taken: HTTP 503" % cid)
    assert fake.challenges[cid]["status"] == "open"
    fake.drop_streams(games=False)
    wait_for(lambda: fake.finished, 60, "the game's end")
    assert fake.challenges[cid]["status"] == "accepted"
    check_game(fake, fake.challenges[cid]["game"])
    bot.stop()
    fake.stop()
    print("ok: an acceptance without an answer is sent again after a reconnect")


if __name__ == "__main__":
    test_refusals()
    test_signals_and_two_bots_one_token()
    test_filters_and_games()
    test_reconnect_restart_429()
    test_lost_answers()
    test_three_seats_two_bots()
    test_unanswered_acceptance()
