#!/usr/bin/env python3
"""Hand-written NuSMV 2.6 models of the Table 4 families, the yardstick
for vsym's NuSMV export (BENCHMARKS.md, "NuSMV 2.6 on the exported
models").

Written from the families' definitions (section 6 of Wei, Gurfinkel and
Chechik; `vsym gen grw --help`, `vsym gen asr --help`), not from vsym's
output, so that a difference in speed shows what vsym's encoding costs.

  nusmv-handwritten.py grw D Q M        total-counter model, encoding 2
  nusmv-handwritten.py asr N R B        total-counter model, encoding 2
  nusmv-handwritten.py grw-concrete D Q M
      the straightforward concrete model: one variable per process, one
      TRANS disjunct per process and local transition with frame
      conditions, count() DEFINEs for the counts the guards read

Encoding 2 is the one in ../shared/NUSMV-NOTES.md: an IVAR choosing the
transition, one ASSIGN case per counter, x < n on increments (NuSMV's
range check does not know the sum invariant), stutter exactly when no
transition is enabled, no INVAR, no INVARSPEC. The model goes to stdout.
"""
import sys


def encoding2(counters, n, init, trans, specs):
    """counters: names; init: name -> value; trans: (name, src, dst, guard);
    specs: (name, CTL text)."""
    out = ["MODULE main", "VAR"]
    out += ["  %s : 0..%d;" % (c, n) for c in counters]
    out.append("IVAR")
    out.append("  t : {%s};" % ", ".join([t[0] for t in trans] + ["stutter"]))
    out.append("DEFINE")
    for name, src, dst, guard in trans:
        g = "%s >= 1" % src + (" & " + guard if guard else "")
        out.append("  en_%s := %s;" % (name, g))
    out.append("  en_any := %s;" % " | ".join("en_" + t[0] for t in trans))
    out.append("ASSIGN")
    out += ["  init(%s) := %d;" % (c, init.get(c, 0)) for c in counters]
    for c in counters:
        cases = []
        for name, src, dst, _ in trans:
            if c == src:
                cases.append("t = %s & en_%s : %s - 1;" % (name, name, c))
            elif c == dst:
                cases.append("t = %s & en_%s & %s < %d : %s + 1;" % (name, name, c, n, c))
        out.append("  next(%s) := case %s TRUE : %s; esac;" % (c, " ".join(cases), c))
    out.append("TRANS (t = stutter -> !en_any) & (t != stutter -> (%s));"
               % " | ".join("t = %s & en_%s" % (t[0], t[0]) for t in trans))
    out += ["CTLSPEC NAME %s := %s;" % s for s in specs]
    return "\n".join(out) + "\n"


def grw(d, q, m):
    # Li -> Li+1 free; L(m-1) -> Lm for group j when #Lm = 0 and no process
    # of a higher-priority group is in L(m-1). In the total-counter model
    # the highest-priority group's condition, #Lm = 0, is the guard: some
    # process in L(m-1) of the best group present may always go.
    x = ["x%d" % i for i in range(1, m + 1)]
    trans = [("t%d" % i, x[i - 1], x[i], "") for i in range(1, m - 1)]
    trans.append(("t%d" % (m - 1), x[m - 2], x[m - 1], "%s = 0" % x[m - 1]))
    trans.append(("t%d" % m, x[m - 1], x[0], ""))
    return encoding2(x, d * q, {x[0]: d * q}, trans, [("mutex", "AG %s <= 1" % x[m - 1])])


def asr(n, r, b):
    # N -> Wj while #Wj + #Cj < b; Wj -> Cj when #Cj = 0 (an owner may
    # always go then, and a non-owner when no owner waits: in the total
    # model some waiting process may go); Cj -> N free.
    w = ["w%d" % j for j in range(1, r + 1)]
    c = ["c%d" % j for j in range(1, r + 1)]
    trans = [("nw%d" % j, "xn", w[j - 1], "%s + %s < %d" % (w[j - 1], c[j - 1], b)) for j in range(1, r + 1)]
    trans += [("wc%d" % j, w[j - 1], c[j - 1], "%s = 0" % c[j - 1]) for j in range(1, r + 1)]
    trans += [("cn%d" % j, c[j - 1], "xn", "") for j in range(1, r + 1)]
    specs = [("all_used", "EF (%s)" % " & ".join("%s > 0" % x for x in c))]
    specs += [("mutex%d" % j, "AG %s <= 1" % c[j - 1]) for j in range(1, r + 1)]
    return encoding2(["xn"] + w + c, n, {"xn": n}, trans, specs)


def grw_concrete(d, q, m):
    procs = [(g, "p%d_%d" % (g, i)) for g in range(1, d + 1) for i in range(1, q + 1)]
    states = ["L%d" % i for i in range(1, m + 1)]
    out = ["MODULE main", "VAR"]
    out += ["  %s : {%s};" % (p, ", ".join(states)) for _, p in procs]
    out.append("DEFINE")
    out.append("  cm := count(%s);" % ", ".join("%s = L%d" % (p, m) for _, p in procs))
    for g in range(1, d + 1):
        out.append("  cw%d := count(%s);" % (g, ", ".join("%s = L%d" % (p, m - 1) for h, p in procs if h == g)))
    out.append("ASSIGN")
    out += ["  init(%s) := L1;" % p for _, p in procs]
    disj = []
    for g, p in procs:
        frame = " & ".join("next(%s) = %s" % (o, o) for _, o in procs if o != p)
        for i in range(1, m + 1):
            j = i % m + 1
            guard = ""
            if i == m - 1:
                guard = " & cm = 0" + "".join(" & cw%d = 0" % h for h in range(1, g))
            disj.append("(%s = L%d%s & next(%s) = L%d & %s)" % (p, i, guard, p, j, frame))
    # GR&W never deadlocks (Li -> Li+1 is free for i < m-1), so no stutter.
    out.append("TRANS\n    " + "\n  | ".join(disj) + ";")
    out.append("CTLSPEC NAME mutex := AG cm <= 1;")
    return "\n".join(out) + "\n"


def main(argv):
    kinds = {"grw": grw, "asr": asr, "grw-concrete": grw_concrete}
    if len(argv) != 5 or argv[1] not in kinds:
        sys.exit(__doc__)
    sys.stdout.write(kinds[argv[1]](*map(int, argv[2:])))


if __name__ == "__main__":
    main(sys.argv)
