#!/usr/bin/env python3
"""Writes testdata/mist/ME_250_bigtarget.yaml from mist's
benchmarks/contrived/ME_250_bigtarget.spec (scripts/suites.sh fetches it):
the net of ME-k-bingham.spec.m4 at k = 250 with its target of 8,989 cubes,
in the style of bingham-h25.yaml (tokens of x0..x250 as processes, the lock
x251/x252 as a boolean). The net's rules are checked to be that net, and
each cube of the target becomes one disjunct, as written.

Usage: scripts/me250-yaml.py SPEC > testdata/mist/ME_250_bigtarget.yaml
"""
import re
import sys

K = 250
LOCK, FREE = K + 1, K + 2  # places x251 (taken) and x252 (free)


def rules_of_bingham():
    """The rules of ME-k-bingham at K, as mist writes them."""
    out = [f"x0 >= 1, x{FREE} >= 1 -> x0'=x0-1, x{FREE}'=x{FREE}-1, x{LOCK}'=x{LOCK}+1, x1'=x1+1;",
           f"x1 >= 1, x{FREE} >= 1 -> x1'=x1-1, x{FREE}'=x{FREE}-1, x{LOCK}'=x{LOCK}+1, x0'=x0+1;"]
    for i in range(1, K + 1):
        out.append(f"x{i} >= 1, x{LOCK} >= 1 -> x{i}'=x{i}-1, x{LOCK}'=x{LOCK}-1, x0'=x0+1, x{FREE}'=x{FREE}+1;")
        if i < K:
            out.append(f"x{i} >= 1 -> x{i}'=x{i}-1, x{i+1}'=x{i+1}+1;")
    return out


def main():
    text = open(sys.argv[1]).read()
    rules = text.split("rules")[1].split("init")[0].split(";")
    rules = sorted(r.strip() + ";" for r in rules if r.strip())
    if rules != sorted(rules_of_bingham()):
        sys.exit("the rules are not those of ME-k-bingham at k = 250")
    init = " ".join(text.split("\ninit")[1].split("target")[0].split())
    want = "x0 >= 1, " + ", ".join(f"x{i} = 0" for i in range(1, LOCK)) + f", x{LOCK} = 0, x{FREE} = 1"
    if init != want:
        sys.exit("the initial markings are not those of ME-k-bingham")

    def atom(place, least):
        if place == LOCK:
            return "lock"
        if place == FREE:
            return "!lock"
        return f"#x{place} >= {least}"

    cubes = []
    for line in text.split("\ntarget")[1].strip().splitlines():
        atoms = re.findall(r"x(\d+) >= (\d+)", line)
        if not atoms or any(int(c) > 1 and int(p) in (LOCK, FREE) for p, c in atoms):
            sys.exit(f"unexpected target line: {line}")
        cubes.append("(" + " & ".join(atom(int(p), int(c)) for p, c in atoms) + ")")

    w = sys.stdout.write
    w(f"""# mist benchmarks/contrived/ME_250_bigtarget.spec
# (github.com/pierreganty/mist @1b1fd97), written by scripts/me250-yaml.py
# from it; no verdict is published (mist's README: with --ic4pn mist ends
# with 10 variables); vsym proves mist's own file.
#
# The net is ME-k-bingham.spec.m4 at k = 250 (bingham-h25.yaml explains
# the style): the tokens of x0..x250 are processes, any number of them,
# all in x0 initially; the places x251 and x252 hold one token between
# them, the lock: lock = x251 >= 1, !lock = x252 >= 1. The rule
# x1, x252 -> x0, x251 and the rule releasing the lock from x1 are the
# two transitions x1 -> x0 (named b and r1). The target is mist's, one
# disjunct per cube ({len(cubes):,} of them): x0 >= 1 and two processes
# past x1, with a few cubes naming the free lock instead of a process.
name: ME_250_bigtarget
states: [{", ".join(f"x{i}" for i in range(K + 1))}]
groups:
  proc: 1..
shared:
  lock: {{type: bool, init: false}}
init: x0
transitions:
  - {{from: x0, to: x1, guard: "!lock", update: "lock := true"}}
  - {{name: b, from: x1, to: x0, guard: "!lock", update: "lock := true"}}
  - {{name: r1, from: x1, to: x0, guard: "lock", update: "lock := false"}}
""")
    for i in range(1, K):
        w(f"  - {{from: x{i}, to: x{i+1}}}\n")
    for i in range(2, K + 1):
        w(f'  - {{from: x{i}, to: x0, guard: "lock", update: "lock := false"}}\n')
    w("properties:\n  # target: the 8,989 cubes of mist's file\n")
    w('  target: "AG !(' + " | ".join(cubes) + ')"\n')


main()
