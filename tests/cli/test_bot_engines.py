#!/usr/bin/env python3
"""`axio bot` and its engines, on the fake Bot API site: an engine that answers
garbage, an illegal decision or too late resigns its game (and is started
afresh for the next); one that dies is started again and asked again; the
clock of a short game is kept with `strong`; bad usage and token files."""
import os
import subprocess

from bot_testlib import AXIO, HERE, PYTHON, Bot, check_game, site, token_file, wait_for

FAKE_ENGINE = "%s %s/fake_engine.py" % (PYTHON, HERE)


def failing(mode, words, *args, games=2):
    """Each game: two good decisions, then the failure: the bot resigns."""
    fake = site()
    token = "axio_engine" + "0" * 37
    fake.add_account("Bot", token)
    bot = Bot(fake, token, *args, engine="%s %s 2 %s" % (FAKE_ENGINE, mode, AXIO))
    for n in range(games):
        cid = fake.challenge("Bot", "hex")
        wait_for(lambda: len(fake.finished) == n + 1, 60, "game %d's end" % (n + 1))
        g = check_game(fake, fake.challenges[cid]["game"])
        assert len(g.decisions) == 2, g.decisions  # fresh engine each game: 2 good ones
        seat = g.bot_seats[0]
        assert '"ev":"leave","player":%d,"why":"resign"' % seat in g.record.replace(" ", ""), \
            g.record[-400:]
    resigns = [r for r in fake.requests if r["path"].endswith("/resign")]
    assert len(resigns) == games and all(r["status"] == 200 for r in resigns), resigns
    bot.wait_log("resigning: engine failure, " + words)
    bot.stop()
    fake.stop()
    return bot


def test_failures():
    failing("garbage", "a bad answer")
    failing("error", "a bad answer")
    bot = failing("illegal", "an illegal decision")
    assert bot.saw("the rules forbid") or bot.saw("cell") or bot.saw("first"), bot.log()
    failing("slow", "too late", "--movetime", "100", games=1)
    print("ok: garbage, an error, an illegal decision, too late: the bot resigns")


def test_engine_dies():
    fake = site()
    token = "axio_dies" + "0" * 39
    fake.add_account("Bot", token)
    bot = Bot(fake, token, engine="%s die 3 %s" % (FAKE_ENGINE, AXIO))
    cid = fake.challenge("Bot", "square")
    wait_for(lambda: fake.finished, 90, "the game's end")
    g = check_game(fake, fake.challenges[cid]["game"])
    assert len(g.decisions) > 6, g.decisions
    assert "resign" not in g.record, g.record[-300:]
    assert bot.saw("died deciding"), bot.log()
    bot.stop()
    fake.stop()
    print("ok: an engine that dies is started again and asked again")


def test_clock_kept():
    """10 s for the whole game, `strong` thinking what the bot gives it."""
    fake = site()
    token = "axio_clock" + "0" * 38
    fake.add_account("Bot", token)
    bot = Bot(fake, token, engine="%s engine --player strong" % AXIO)
    cid = fake.challenge("Bot", "hex", clock={"kind": "realtime", "base_s": 10,
                                              "increment_s": 0})
    wait_for(lambda: fake.finished, 90, "the game's end")
    g = check_game(fake, fake.challenges[cid]["game"])
    assert not fake.timeouts, bot.log()
    left = [ms for _, _, ms in g.decisions]
    assert left[-1] > 0, left  # time to spare at the end, and most of it used
    assert left[-1] < 6000, left
    bot.stop()
    fake.stop()
    print("ok: a game of 10 s with strong: %d decisions, %.1f s left at the last" %
          (len(left), left[-1] / 1000))


def usage(args, words, token_mode=0o600):
    path = token_file("axio_usage" + "0" * 38, token_mode)
    r = subprocess.run([AXIO, "bot", *[a.replace("TOKEN", path) for a in args]],
                       capture_output=True, text=True, timeout=30)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and words in lines[0], (args, r.stderr)
    assert "axio_usage" not in r.stderr


def test_usage():
    base = ["--url", "http://127.0.0.1:9", "--token-file", "TOKEN", "--engine", "true"]
    usage(base, "open to other users", 0o644)
    usage(base, "open to other users", 0o604)
    usage(["--url", "http://127.0.0.1:9", "--token-file", "/nonexistent", "--engine", "x"],
          "cannot read the token file")
    usage(["--url", "ftp://x", "--token-file", "TOKEN", "--engine", "x"], "--url")
    usage(base, "the engine does not start")  # `true` never answers hello
    usage(base[:4], "are needed")
    usage(base + ["--clocks", "3"], "--clocks")
    usage(base + ["--clocks", "10-1+0"], "--clocks")
    usage(base + ["--variants", "chess"], "unknown variant")
    usage(base + ["--players", "5"], "players")
    usage(base + ["--rated", "maybe"], "--rated")
    usage(base + ["--max-games", "51"], "--max-games")
    usage(base + ["--movetime", "0"], "--movetime")
    empty = token_file("")
    r = subprocess.run([AXIO, "bot", "--url", "http://127.0.0.1:9", "--token-file", empty,
                        "--engine", "x"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "alone on one line" in r.stderr, r.stderr
    r = subprocess.run([AXIO, "bot", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "--token-file" in r.stdout and "--clocks" in r.stdout
    print("ok: bad usage and token files: exit 2 with one line")


if __name__ == "__main__":
    test_usage()
    test_failures()
    test_engine_dies()
    test_clock_kept()
