"""slow_engine.py AXIO SECONDS - `axio engine --player greedy` that takes SECONDS over
each decision (asleep, not computing): games that last while a test kills a server,
without the CPU a strong engine would burn."""
import subprocess
import sys
import time

engine = subprocess.Popen([sys.argv[1], "engine", "--player", "greedy"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    if '"go"' in line:
        time.sleep(float(sys.argv[2]))
    engine.stdin.write(line)
    engine.stdin.flush()
    sys.stdout.write(engine.stdout.readline())
    sys.stdout.flush()
engine.stdin.close()
engine.wait()
