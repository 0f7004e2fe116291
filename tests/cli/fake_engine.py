#!/usr/bin/env python3
"""A misbehaving external engine for tests/cli/test_engine.py.

usage: fake_engine.py MODE GOOD AXIO

Relays the engine protocol to `AXIO engine --player random` for the first GOOD
`go` requests of each process, then answers the next one as MODE says:
  garbage  a line that is not JSON
  error    {"type":"error",...}
  illegal  a decision the rules forbid (an occupied cell, or a placement when
           the swap is asked)
  die      exits without answering
  slow     answers (correctly) after 3 seconds
  noready  never answers `hello`
"""
import json
import subprocess
import sys
import time


def illegal_move(position):
    seat = position["seat"]
    rack = position["seats"][seat]["rack"]
    tile = rack[0] if rack else ["red", "red"]
    if position["variant"] == "rota":
        return {"ev": "place", "player": seat, "tile": tile,
                "cell": position["display"][0]["cell"], "wild": None}
    fields = position["fields"]
    return {"ev": "place", "player": seat, "tile": tile,
            "cells": [fields[0]["cell"], fields[1]["cell"]]}


def main():
    mode, good, axio = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    real = subprocess.Popen([axio, "engine", "--player", "random"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    answered = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "quit":
            break
        if msg["type"] == "hello" and mode == "noready":
            time.sleep(60)
        if msg["type"] == "go" and answered >= good:
            if mode == "garbage":
                print("this is not json", flush=True)
                continue
            if mode == "error":
                print(json.dumps({"type": "error", "message": "I give up"}), flush=True)
                continue
            if mode == "illegal":
                print(json.dumps({"type": "decision",
                                  "move": illegal_move(msg["position"])}), flush=True)
                continue
            if mode == "die":
                sys.exit(3)
            if mode == "slow":
                time.sleep(3)
        real.stdin.write(line)
        real.stdin.flush()
        print(real.stdout.readline(), end="", flush=True)
        if msg["type"] == "go":
            answered += 1
    real.stdin.close()
    real.wait()


if __name__ == "__main__":
    main()
