#!/usr/bin/env python3
"""The engine protocol (docs/engine-protocol.md): `axio engine` and external engines in
`axio arena`.

- `axio engine`: bad usage exits 2 with one line; every request gets exactly one answer line,
  a bad one an `error`, and the engine goes on; `quit` and end of input end it.
- arenas through the protocol: `cmd:axio engine --player P` plays whole arenas of every variant
  and mode to the end without a forfeit, and with --share-seeds exactly as the built-in P does.
- honesty: every line sent to an external engine is recorded (tee) and checked against the
  full records of the same games: a position names only the board's tiles and the seat's own
  rack, exactly as they are at that moment; other racks, the bag and the stacks are counts;
  no seed unless --share-seeds.
- failures: an engine that answers garbage or an error, an illegal decision, dies, or is too
  late forfeits its game (its seat leaves and ranks last; three seats play on); an engine that
  never answers `hello` is a usage error; the records of those games replay.
- time: `axio engine --player strong --movetime 100` decides within 110% of its movetime, in
  the CPU time of the deciding thread it reports (the wall clock of a shared machine is only
  reported, and checked against the forfeit limit of 110% + 1 s).
"""
import collections
import glob
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile

AXIO = os.environ["AXIO"]
HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_engine.py")
PYTHON = os.environ.get("PYTHON3", sys.executable)


def run(*args, check=True):
    p = subprocess.run([AXIO, *args], capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError(f"axio {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p


def test_usage():
    for args in (["--bogus"], ["--player", "deep-blue"], ["extra"], ["--movetime", "-1"],
                 ["--playouts", "x"], ["--seed", "-2"], ["--player"]):
        p = run("engine", *args, check=False)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 2 and len(lines) == 1, (args, p.returncode, p.stderr)
    assert "usage: axio engine" in run("engine", "--help").stdout
    for args in (["--ai", "greedy,cmd:"], ["--ai", "greedy,strong:movetime=x"],
                 ["--ai", "greedy,strong:depth=3"], ["--ai", "greedy,cmd:movetime=x:true"],
                 ["--ai", "greedy,deep:movetime=5"], ["--ai", "greedy:movetime=0"]):
        p = run("arena", "--variant", "square", "--games", "2", "--seed", "1", *args,
                check=False)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 2 and len(lines) == 1, (args, p.returncode, p.stderr)
    print("ok: usage")


class Engine:
    """`axio engine` on pipes; one request, one answer line."""

    def __init__(self, *args):
        self.p = subprocess.Popen([AXIO, "engine", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def answer(self, timeout=30):
        ready, _, _ = select.select([self.p.stdout], [], [], timeout)
        assert ready, "no answer"
        line = self.p.stdout.readline()
        assert line.endswith("\n"), line
        return json.loads(line)

    def ask(self, msg):
        self.send(msg if isinstance(msg, str) else json.dumps(msg))
        return self.answer()

    def close(self):
        self.p.stdin.close()
        assert self.p.wait(timeout=30) == 0


def error_answer(engine, msg, words):
    a = engine.ask(msg)
    assert a["type"] == "error" and words in a["message"], (msg, a)


def test_protocol(position):
    e = Engine("--player", "greedy")
    a = e.ask({"type": "hello", "protocol": "axio-engine/1"})
    assert a == {"type": "ready", "protocol": "axio-engine/1", "name": "axio greedy"}, a
    error_answer(e, {"type": "hello", "protocol": "uci"}, "axio-engine/1")
    error_answer(e, "garbage", "not JSON")
    error_answer(e, "[1]", "\"type\"")
    error_answer(e, '{"type":"go","type":"go"}', "not JSON")
    error_answer(e, {"type": "castle"}, "unknown request")
    error_answer(e, {"type": "go"}, "position")
    error_answer(e, {"type": "newgame", "seed": "x"}, "seed")
    error_answer(e, {"type": "go", "movetime": "fast", "position": position}, "movetime")
    seat = position["seat"]
    other = (seat + 1) % position["players"]
    shown = json.loads(json.dumps(position))
    shown["seats"][other]["rack"] = [position["seats"][seat]["rack"][0]]
    error_answer(e, {"type": "go", "position": shown}, "hidden")
    waiting = json.loads(json.dumps(position))
    waiting["to_move"] = other
    error_answer(e, {"type": "go", "position": waiting}, "not to move")
    error_answer(e, "{" + " " * (1 << 20) + "}", "longer than 1 MiB")
    e.send("")  # blank lines are no requests: the next answer is the next request's
    assert e.ask({"type": "newgame", "seed": "7"}) == {"type": "ok"}
    a = e.ask({"type": "go", "position": position})
    assert a["type"] == "decision", a
    move = a["move"]
    assert move["player"] == seat and move["ev"] in ("place", "swap"), a
    assert set(a["info"]) == {"ms", "cpu_ms", "playouts"}, a
    again = e.ask({"type": "go", "position": position})  # the same position, the same seed:
    assert again["type"] == "decision"  # greedy may choose another of equal tiles
    e.send('{"type":"quit"}')
    assert e.p.wait(timeout=30) == 0
    assert e.p.stdout.read() == "", "an answer to quit"
    e = Engine("--player", "random")
    assert e.ask({"type": "hello", "protocol": "axio-engine/1"})["type"] == "ready"
    e.close()  # end of input
    print("ok: protocol answers, errors and endings")


def arena(variant, players, mode, ai, games, *extra):
    return run("arena", "--variant", variant, "--players", str(players), "--mode", mode,
               "--ai", ai, "--games", str(games), "--seed", "11", *extra)


def results(text, label):
    """The report without timings, the engine's label replaced by the player's name."""
    lines = [l for l in text.splitlines() if "time per decision" not in l
             and "forfeits:" not in l]
    return re.sub(" +", " ", "\n".join(lines).replace(label, label.split()[-1]))


CONFIGS = [("square", 2, "standard"), ("rota", 2, "standard"), ("hex", 2, "standard"),
           ("square", 3, "standard"), ("hex", 4, "team"), ("rota", 1, "solo"),
           ("hex", 1, "solo")]


def test_arenas():
    for variant, players, mode in CONFIGS:
        for player in ("greedy", "strong"):
            label = f"cmd:{AXIO} engine --player {player}"
            other = "random" if player == "strong" else "greedy"
            extra = ["--movetime", "0", "--playouts", "20"]
            games = players if players > 1 else 2
            ext = arena(variant, players, mode, f"{other},{label}", games, "--share-seeds",
                        *extra)
            own = arena(variant, players, mode, f"{other},{player}", games, *extra)
            assert f"{label} forfeits: 0 of {games} games" in ext.stdout, ext.stdout
            assert "is the engine 'axio " + player + "'" in ext.stderr, ext.stderr
            assert results(ext.stdout, label) == results(own.stdout, player), \
                (ext.stdout, own.stdout)
        print(f"ok: {variant} {players}p {mode} through the protocol, as in-process")


def canonical(tile):
    """A tile whatever its orientation: dominoes either way round, ROTA tiles turned."""
    key = lambda t: [c or "" for c in t]
    if len(tile) == 2:
        return tuple(sorted(key(tile)))
    return min(tuple(key(tile[r:] + tile[:r])) for r in range(4))


def snapshots(record):
    """Per decision number (a position's `ply`): every rack and the board's tiles, just
    before that decision, from the full record."""
    racks = collections.defaultdict(list)
    board, snaps = [], []
    for ev in record:
        kind = ev["ev"]
        if kind in ("place", "swap", "leave"):
            snaps.append(({s: list(r) for s, r in racks.items()}, list(board)))
        if kind == "start":
            board += [d["tile"] for d in ev.get("display", [])]
        elif kind == "draw":
            racks[ev["player"]] += ev["tiles"]
        elif kind == "place":
            rack = racks[ev["player"]]
            rack.remove(next(t for t in rack if canonical(t) == canonical(ev["tile"])))
            board.append(ev["tile"])
        elif kind == "swap" and ev["accepted"]:
            racks[ev["player"]] = list(ev["drawn"])
    return snaps


POSITION_KEYS = {"variant", "players", "mode", "seat", "phase", "to_move", "bonus",
                 "bonus_pending", "ply", "area", "fields", "cells", "pyramids", "dead",
                 "display", "frontier", "tiles", "seats", "bag"}
SEAT_KEYS = {"score", "rack", "placed", "stack", "left"}


def check_position(pos, seat, snap):
    racks, board = snap
    assert set(pos) <= POSITION_KEYS, set(pos) - POSITION_KEYS
    assert pos["seat"] == seat == pos["to_move"], pos
    ms = lambda tiles: collections.Counter(canonical(t) for t in tiles)
    assert ms(pos["tiles"]) == ms(board), "the board's tiles"
    if "display" in pos:
        assert ms(d["tile"] for d in pos["display"]) == ms(board)
    for s, entry in enumerate(pos["seats"]):
        assert set(entry) <= SEAT_KEYS, entry
        if s == seat:
            assert ms(entry["rack"]) == ms(racks.get(s, [])), (entry["rack"], racks.get(s))
        else:  # hidden: a count, never a tile
            assert isinstance(entry["rack"], int) and entry["rack"] == len(racks.get(s, [])), \
                entry
        assert isinstance(entry.get("stack", 0), int)
    assert isinstance(pos["bag"], int)


def test_honesty(keep):
    """Every line sent to an engine, recorded by tee, against the full records; the lines
    sent in the last run are kept for the tests that need real positions."""
    for variant, players, mode in [("square", 3, "standard"), ("rota", 3, "standard"),
                                   ("hex", 4, "team"), ("square", 2, "standard")]:
        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "records")
            label = f"cmd:tee -a {d}/sent.$$ | {AXIO} engine --player greedy"
            arena(variant, players, mode, f"greedy,{label}", players, "--record", rec)
            records = {}
            for path in glob.glob(f"{rec}/*.jsonl"):
                game = int(path.rsplit("-game", 1)[1].split(".")[0])
                records[game] = [json.loads(l) for l in open(path)]
            assert len(records) == players, records.keys()
            sent_files = glob.glob(f"{d}/sent.*")
            assert len(sent_files) == players // 2, sent_files
            positions = 0
            for path in sent_files:
                game, seat = 0, None
                for line in open(path):
                    msg = json.loads(line)
                    assert "seed" not in line, line[:200]  # no seed unless --share-seeds
                    if msg["type"] == "newgame":
                        game, seat = game + 1, msg["seat"]
                        assert set(msg) == {"type", "variant", "players", "mode", "seat",
                                            "names"}, msg
                    elif msg["type"] == "go":
                        snaps = snapshots(records[game])
                        check_position(msg["position"], seat, snaps[msg["position"]["ply"]])
                        positions += 1
                    else:
                        assert msg["type"] in ("hello", "quit"), msg
            assert positions > 20, positions
            print(f"ok: {variant} {players}p {mode}: {positions} positions name no hidden tile")
            shutil.copy(sent_files[0], keep)


def forfeit_run(mode, variant, players, extra=()):
    label = f"cmd:{' '.join(extra)}{PYTHON} {FAKE} {mode} 3 {AXIO}"
    with tempfile.TemporaryDirectory() as d:
        p = run("arena", "--variant", variant, "--players", str(players), "--ai",
                f"greedy,{label}", "--games", str(players), "--seed", "5", "--record", d)
        records = [[json.loads(l) for l in open(f)] for f in sorted(glob.glob(f"{d}/*.jsonl"))]
        for f in glob.glob(f"{d}/*.jsonl"):
            run("replay", f)
    return p, label, records


def test_failures():
    kinds = {"garbage": ("bad answer", "resign"), "error": ("bad answer", "resign"),
             "illegal": ("illegal decision", "resign"), "die": ("gone", "absent")}
    for mode, (kind, why) in kinds.items():
        p, label, records = forfeit_run(mode, "square", 2)
        field = {"bad answer": "bad answer 2", "illegal decision": "illegal 2",
                 "gone": "gone 2"}[kind]
        assert f"{label} forfeits: 2 of 2 games (" in p.stdout and field in p.stdout, p.stdout
        assert p.stderr.count(f"forfeits ({kind})") == 2, p.stderr
        assert f"{label} win rate 0.000" in p.stdout, p.stdout
        for record in records:
            leave = [e for e in record if e["ev"] == "leave"]
            assert len(leave) == 1 and leave[0]["why"] == why, leave
            end = record[-1]
            assert end["reason"] == "left" and end["ranking"][-1] == [leave[0]["player"]], end
        print(f"ok: an engine that answers {mode} forfeits ({kind}, leaves: {why})")
    # three seats: the late engine's seat leaves, greedy plays it on, the others finish
    p, label, records = forfeit_run("slow", "hex", 3, ["movetime=100:"])
    assert "late 3" in p.stdout and p.stderr.count("forfeits (late)") == 3, p.stdout + p.stderr
    for record in records:
        leave = next(i for i, e in enumerate(record) if e["ev"] == "leave")
        seat = record[leave]["player"]
        assert record[leave]["why"] == "timeout"
        assert any(e["ev"] == "place" and e["player"] == seat for e in record[leave:])
        assert record[-1]["reason"] != "left" and record[-1]["ranking"][-1] == [seat]
    print("ok: a late engine forfeits (timeout); three seats play on")
    p = run("arena", "--variant", "hex", "--ai", f"greedy,cmd:{PYTHON} {FAKE} noready 0 {AXIO}",
            "--games", "2", "--seed", "1", check=False)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    p = run("arena", "--variant", "hex", "--ai", "greedy,cmd:exit 0", "--games", "2", "--seed",
            "1", check=False)
    # gone before its first line: found by the read (ended) or the write (closed its input),
    # whichever comes first
    gone = "ended" in p.stderr or "closed its input" in p.stderr
    assert p.returncode == 2 and gone and len(p.stderr.strip().splitlines()) == 1, p.stderr
    print("ok: an engine that does not start is a usage error")


def test_time_budget(transcript):
    """Positions of a real game, asked of strong with 100 ms each."""
    gos = [json.loads(l) for l in open(transcript) if '"type":"go"' in l][:12]
    e = Engine("--player", "strong", "--movetime", "100")
    cpu, wall = [], []
    for go in gos:
        del go["movetime"], go["playouts"]  # the command line's movetime applies
        a = e.ask(go)
        assert a["type"] == "decision", a
        cpu.append(a["info"]["cpu_ms"])
        wall.append(a["info"]["ms"])
    e.close()
    print(f"strong --movetime 100: cpu max {max(cpu):.1f} ms, wall mean "
          f"{sum(wall) / len(wall):.1f} max {max(wall):.1f} ms over {len(gos)} decisions")
    assert max(cpu) <= 110, cpu
    label = f"cmd:movetime=100:{AXIO} engine --player strong"
    p = arena("hex", 2, "standard", f"greedy,{label}", 2)
    assert f"{label} forfeits: 0 of 2 games" in p.stdout, p.stdout
    line = next(l for l in p.stdout.splitlines() if label in l and "time per decision" in l)
    print("arena:", line.strip())
    assert float(line.split("max cpu ")[1].split(" ms")[0]) <= 110, line
    print("ok: decisions within the time budget")


def main():
    test_usage()
    with tempfile.TemporaryDirectory() as d:
        sent = os.path.join(d, "sent")
        test_honesty(sent)
        gos = [json.loads(l) for l in open(sent) if '"type":"go"' in l]
        test_protocol(gos[3]["position"])
        test_arenas()
        test_failures()
        test_time_budget(sent)
    print("engine protocol ok")


if __name__ == "__main__":
    main()
