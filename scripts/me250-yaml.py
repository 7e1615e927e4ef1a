#!/usr/bin/env python3
"""Writes testdata/mist/ME_250_bigtarget.yaml from mist's
benchmarks/contrived/ME_250_bigtarget.spec (scripts/suites.sh fetches it):
the net of ME-k-bingham.spec.m4 at k = 250 with its target of 8,989 cubes,
in the style of bingham-h25.yaml (tokens of x0..x250 as processes, the lock
x251/x252 as a boolean). The net's rules are checked to be that net, and
each cube of the target becomes one disjunct, as written. With
--lock-process the lock is a group of one process in the states x251
and x252 instead, each rule that takes or releases it a rendezvous with
that process: the net as a Petri-net reader writes it, every place a
state (testdata/styles/ME_250-lockproc.yaml).

Usage: scripts/me250-yaml.py [--lock-process] SPEC > FILE.yaml
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
    args = sys.argv[1:]
    lockproc = args[:1] == ["--lock-process"]
    if lockproc:
        args = args[1:]
    text = open(args[0]).read()
    rules = text.split("rules")[1].split("init")[0].split(";")
    rules = sorted(r.strip() + ";" for r in rules if r.strip())
    if rules != sorted(rules_of_bingham()):
        sys.exit("the rules are not those of ME-k-bingham at k = 250")
    init = " ".join(text.split("\ninit")[1].split("target")[0].split())
    want = "x0 >= 1, " + ", ".join(f"x{i} = 0" for i in range(1, LOCK)) + f", x{LOCK} = 0, x{FREE} = 1"
    if init != want:
        sys.exit("the initial markings are not those of ME-k-bingham")

    def atom(place, least):
        if lockproc and place in (LOCK, FREE):
            return f"#x{place} >= 1"
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
    if lockproc:
        write_lockproc(w, cubes)
        return
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



def write_lockproc(w, cubes):
    """Writes the net with its lock as a process (--lock-process)."""
    w(f"""# mist benchmarks/contrived/ME_250_bigtarget.spec
# (github.com/pierreganty/mist @1b1fd97), written by
# scripts/me250-yaml.py --lock-process from it; no verdict is published;
# vsym proves mist's own file (testdata/mist/ME_250_bigtarget.yaml).
#
# As ME_250_bigtarget.yaml, but the lock is not a boolean: its places
# x251 (taken) and x252 (free) are the states of a group lk of one
# process, and a rule that takes or releases the lock is a rendezvous of
# a token with that process. The target is mist's, one disjunct per cube
# ({len(cubes):,} of them), the free lock read as #x252 >= 1.
name: ME_250_lockproc
states: [{", ".join(f"x{i}" for i in range(FREE + 1))}]
groups:
  proc: 1..
  lk: 1
init: {{proc: x0, lk: x{FREE}}}
transitions:
""")
    for i in range(1, K):
        w(f"  - {{from: x{i}, to: x{i+1}}}\n")
    w("rendezvous:\n")

    def take(frm, to, name=""):
        w(f"  - {{{name}parts: [{{from: x{frm}, to: x{to}, groups: [proc]}}, {{from: x{FREE}, to: x{LOCK}, groups: [lk]}}]}}\n")

    take(0, 1)
    take(1, 0, "name: b, ")
    for i in range(1, K + 1):
        name = "name: r1, " if i == 1 else ""
        w(f"  - {{{name}parts: [{{from: x{i}, to: x0, groups: [proc]}}, {{from: x{LOCK}, to: x{FREE}, groups: [lk]}}]}}\n")
    w("properties:\n  # target: the 8,989 cubes of mist's file\n")
    w('  target: "AG !(' + " | ".join(cubes) + ')"\n')


main()
