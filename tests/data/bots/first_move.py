#!/usr/bin/env python3
"""A bot program written without the library: it speaks the line protocol on
standard input and output and plays the first legal move it is offered.

Usage: python first_move.py [FAULT], where FAULT makes it misbehave on its first
move: "illegal" (a move that is not legal), "garbage" (a line that is not JSON),
"silent" (no answer), "crash" (exits), "slow-setup" (no setup answer), "flood" (2 MiB
without a line end), "deaf" (after its setup it never reads its input again),
"mirrored" (it sets up its own army, then plays a legal move mirrored left to right, as a
program that wrote its setup rows from the wrong side would), "mirrored-dealt" (the same
moves from the army the host deals it), "setup TEXT" (it answers TEXT as its setup, then
plays the first legal move), "orphan PIDFILE" (at its start it runs a child process
that sleeps, writing the child's pid to PIDFILE, and plays on), "leave" (on its first move
it runs a child that keeps its output open, then exits with status 4), "bom" (its
answers begin with a UTF-8 byte order mark, as .NET programs write them), "twice" (it
answers its first move twice), "chatter" (on its first move it writes 3 MiB of lines to
its standard error, then "last words" and exits with status 3).

Each start message it is sent goes to its standard error as "start message: JSON".
"""

import json
import subprocess
import sys
import time


def mirrored(move: str) -> str:
    """'a4-a5' -> 'j4-j5': each square's file mirrored (a <-> j)."""
    return "-".join(chr(ord("a") + ord("j") - ord(square[0])) + square[1:]
                    for square in move.split("-"))


fault = sys.argv[1] if len(sys.argv) > 1 else ""
OWN_SETUP = "FBNNNNNBTT/BBTTLLLLKK/BBKKJJJCCS/XXXXXXXXMG"  # a classic army, back row first
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(f"starting as {message['player']} under {message['rules']}", file=sys.stderr)
        print(f"start message: {json.dumps(message)}", file=sys.stderr)
        if fault == "orphan":
            child = subprocess.Popen(["sleep", "300"], stdout=subprocess.DEVNULL,
                                     stdin=subprocess.DEVNULL)
            with open(sys.argv[2], "w") as pid_file:
                pid_file.write(str(child.pid))
        if fault == "slow-setup":
            time.sleep(60)
        reply = {"type": "setup", "setup": None}
        if fault == "mirrored":
            reply["setup"] = OWN_SETUP
        elif fault == "setup":
            reply["setup"] = sys.argv[2]
        if fault == "deaf":
            print(json.dumps(reply), flush=True)
            time.sleep(60)
    elif message["type"] == "move":
        legal = message["legal"]
        if fault == "illegal":
            reply = {"type": "move", "move": "a1-j10"}
        elif fault == "garbage":
            print("hello, host", flush=True)
            continue
        elif fault == "silent":
            time.sleep(60)
            continue
        elif fault in ("mirrored", "mirrored-dealt"):
            steps = [m for m in legal if "-" in m and m != "--" and mirrored(m) not in legal]
            reply = {"type": "move", "move": mirrored(steps[0])}
        elif fault == "crash":
            sys.exit(3)
        elif fault == "chatter":
            line = "thinking " + "." * 1000 + "\n"
            for _ in range(3 << 10):
                sys.stderr.write(line)
            print("last words", file=sys.stderr, flush=True)
            sys.exit(3)
        elif fault == "leave":
            subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL)  # our stdout
            sys.exit(4)
        elif fault == "flood":
            sys.stdout.write("x" * (2 << 20))
            sys.stdout.flush()
            time.sleep(60)
            continue
        else:
            reply = {"type": "move", "move": legal[0]}
    else:  # "end": wait for the next game or the end of the input
        print(f"end: {message['winner']} ({message['termination']})", file=sys.stderr)
        continue
    print(("\ufeff" if fault == "bom" else "") + json.dumps(reply), flush=True)
    if fault == "twice" and message["type"] == "move":
        print(json.dumps(reply), flush=True)
        fault = ""
