#!/usr/bin/env python3
"""The gpm CLI (graph pattern mining), as a user and a script see it.

  python3 tests/cli_gpm.py GPM_HOST GPM

Runs every check against each binary given (the first the gcc build, host
only; the rest nvcc builds, whose AUTO runs on CUDA where a device is
present): --help; usage errors (exit 2 naming the option or value: an
unknown command or option, -k missing or out of range, motifs -k 6,
--method count with -k 5, fpm without --support, --max-edges 7, options of
another command, bad numbers and names); file errors (exit 1 with the
system's reason: a missing graph, query or labels file, a directory); the
results against a brute force in Python on fresh random graphs (the seed is
printed), an empty graph and K_6, written by this script as SNAP edge lists
(# comments, sparse ids), DIMACS, Matrix Market and labelled .lg files:
kcl -k 3, 4 (cliques N); motifs -k 3, 4 by count and by enumerate (every
"motif NAME COUNT" line: induced connected k-subgraphs classified by shape)
and -k 5 (21 lines, subgraphs N); match of a triangle, a 4-cycle and a
4-path query in every mode (edge-induced, --induced, --embeddings,
--homomorphisms: matches N and the automorphisms) and --list (valid,
distinct, ascending rows); fpm --max-edges 2 (every pattern line: code and
MNI support against a brute force of the labelled 1- and 2-edge patterns,
labels from a .lg file, a labels file or none; --random-labels: search and
table print the same lines); --json of every command parses and holds its
keys and the same numbers; --quiet; --backend cuda (HOST build: exit 1, not
compiled in; nvcc build: the same results, or exit 1 saying why);
--prepare (HOST build, and an nvcc build without a device: exit 1 naming
--prepare; with a device: a "prepared:" line and the same results). The
last line is "N passed, N failed"; the exit status is the number of
failures (capped at 100)."""
import itertools
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_check import EISDIR, ENOENT, LINUX, check, os_reason, parse_json, run, summary  # noqa: E402

MOTIF_NAMES = {3: ["triangle", "wedge"],
               4: ["3-star", "4-path", "tailed-triangle", "4-cycle", "diamond", "4-clique"]}
QUERIES = {"triangle": [(0, 1), (1, 2), (2, 0)],
           "4-cycle": [(0, 1), (1, 2), (2, 3), (3, 0)],
           "4-path": [(0, 1), (1, 2), (2, 3)]}
MODES = (("edge-induced", []), ("vertex-induced", ["--induced"]), ("embeddings", ["--embeddings"]),
         ("homomorphisms", ["--homomorphisms"]))


# ---- graphs, written in the formats the loader reads ----

class Graph:
    """n vertices 0 .. n - 1, adjacency sets, labels (or None), and the id each vertex has in its file."""

    def __init__(self, n, edges, labels=None):
        self.n = n
        self.adj = [set() for _ in range(n)]
        for u, v in edges:
            self.adj[u].add(v), self.adj[v].add(u)
        self.edges = sorted((u, v) for u in range(n) for v in self.adj[u] if u < v)
        self.labels = labels
        self.ids = list(range(n))


def random_graph(rng, n, p):
    return Graph(n, [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p])


def write_graph(g, path, fmt):
    """g as fmt (snap, dimacs, mtx or lg); sets g.ids, each vertex's id in the file (ascending)."""
    with open(path, "w") as f:
        if fmt == "snap":  # sparse ids, comments, tabs and spaces
            g.ids = [3 * v + 5 for v in range(g.n)]
            f.write("# written by cli_gpm.py\n# FromNodeId\tToNodeId\n")
            for i, (u, v) in enumerate(g.edges):
                f.write("%d%s%d\n" % (g.ids[u], "\t" if i % 2 else " ", g.ids[v]))
        elif fmt == "dimacs":
            g.ids = [v + 1 for v in range(g.n)]
            f.write("c written by cli_gpm.py\np edge %d %d\n" % (g.n, len(g.edges)))
            for u, v in g.edges:
                f.write("e %d %d\n" % (u + 1, v + 1))
        elif fmt == "mtx":
            g.ids = [v + 1 for v in range(g.n)]
            f.write("%%%%MatrixMarket matrix coordinate pattern symmetric\n%% written by cli_gpm.py\n%d %d %d\n" %
                    (g.n, g.n, len(g.edges)))
            for u, v in g.edges:
                f.write("%d %d\n" % (v + 1, u + 1))
        else:  # the mining benchmarks' labelled format
            g.ids = list(range(g.n))
            f.write("t # 0\n")
            for v in range(g.n):
                f.write("v %d %d\n" % (v, g.labels[v] if g.labels else 0))
            for u, v in g.edges:
                f.write("e %d %d\n" % (u, v))


def write_labels(g, path):
    with open(path, "w") as f:
        f.write("# id label\n")
        for v in range(g.n):
            f.write("%d %d\n" % (g.ids[v], g.labels[v]))


# ---- the brute force ----

def connected(adj, vs):
    vs = set(vs)
    seen, todo = set(), [next(iter(vs))]
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo.extend(w for w in adj[v] if w in vs)
    return seen == vs


def cliques(g, k):
    return sum(1 for s in itertools.combinations(range(g.n), k)
               if all(b in g.adj[a] for a, b in itertools.combinations(s, 2)))


def motif_shape(g, s):
    """The name of the induced subgraph on s (3 or 4 vertices; connected)."""
    deg = sorted(sum(1 for w in s if w in g.adj[v]) for v in s)
    e = sum(deg) // 2
    if len(s) == 3:
        return "triangle" if e == 3 else "wedge"
    return {3: "3-star" if deg[-1] == 3 else "4-path", 4: "tailed-triangle" if deg[-1] == 3 else "4-cycle",
            5: "diamond", 6: "4-clique"}[e]


def motifs(g, k):
    """{name: count} of the connected induced k-subgraphs (k = 3, 4), or their number (k = 5)."""
    if k == 5:
        return sum(1 for s in itertools.combinations(range(g.n), 5) if connected(g.adj, s))
    counts = {name: 0 for name in MOTIF_NAMES[k]}
    for s in itertools.combinations(range(g.n), k):
        if connected(g.adj, s):
            counts[motif_shape(g, s)] += 1
    return counts


def maps(g, q, qedges, injective, induced=False, qlabels=None):
    """Every map of the query's vertices 0 .. q - 1 into g that keeps its edges (injective, induced: as asked;
    with qlabels, onto vertices of the same labels)."""
    qadj = [set() for _ in range(q)]
    for a, b in qedges:
        qadj[a].add(b), qadj[b].add(a)
    out = []

    def grow(m):
        i = len(m)
        if i == q:
            out.append(tuple(m))
            return
        for v in range(g.n):
            if (injective and v in m) or (qlabels is not None and g.labels[v] != qlabels[i]):
                continue
            if all((m[j] in g.adj[v]) == (j in qadj[i]) if induced else (j not in qadj[i] or m[j] in g.adj[v])
                   for j in range(i)):
                grow(m + [v])

    grow([])
    return out


def automorphisms(q, qedges, qlabels=None):
    es = {frozenset(e) for e in qedges}
    return sum(1 for p in itertools.permutations(range(q)) if {frozenset((p[a], p[b])) for a, b in qedges} == es
               and (qlabels is None or all(qlabels[p[i]] == qlabels[i] for i in range(q))))


def match_counts(g, qedges):
    q = 1 + max(max(e) for e in qedges)
    aut = automorphisms(q, qedges)
    emb = maps(g, q, qedges, True)
    ind = maps(g, q, qedges, True, True)
    return {"edge-induced": len(emb) // aut, "vertex-induced": len(ind) // aut, "embeddings": len(emb),
            "homomorphisms": len(maps(g, q, qedges, False))}, aut, emb, ind


def fpm_patterns(g, support):
    """[(code, MNI support)] of the connected labelled patterns of 1 and 2 edges with support >= S, in the
    library's order: by edges, then vertices, labels and the edge code. The canonical code numbers the
    vertices by (label, degree): "(labels)[u-v,...]"."""
    lab = g.labels if g.labels else [0] * g.n
    images = {}  # (edges, labels, code edges) -> per pattern vertex, the set of data vertices it maps to
    for u in range(g.n):
        for v in g.adj[u]:  # both orders: every embedding of an edge
            a, b = lab[u], lab[v]
            if a <= b:
                key = (1, (a, b), ((0, 1),))
                sets = images.setdefault(key, [set(), set()])
                sets[0].add(u), sets[1].add(v)
    for c in range(g.n):
        for u in g.adj[c]:
            for w in g.adj[c]:
                if u == w:
                    continue
                # pattern vertices sorted by (label, degree): the centre has degree 2, the ends 1
                # (ends of one label: both orders of u, w come by, so each end's set gets both)
                verts = sorted([(lab[u], 1, 0), (lab[c], 2, 1), (lab[w], 1, 2)])
                pos = {who: i for i, (_, _, who) in enumerate(verts)}
                code = tuple(sorted(tuple(sorted((pos[1], pos[e]))) for e in (0, 2)))
                key = (2, tuple(x[0] for x in verts), code)
                sets = images.setdefault(key, [set(), set(), set()])
                data = {0: u, 1: c, 2: w}
                for i, (_, _, who) in enumerate(verts):
                    sets[i].add(data[who])
    out = []
    for (e, labels, code), sets in images.items():
        s = min(len(x) for x in sets)
        if s >= support:
            text = "(%s)[%s]" % (",".join(map(str, labels)), ",".join("%d-%d" % uv for uv in code))
            out.append(((e, len(labels), labels, code), text, s))
    return [(text, s) for _, text, s in sorted(out)]


# ---- reading the output ----

def motif_lines(out):
    return {line.split()[1]: int(line.split()[2]) for line in out.splitlines() if line.startswith("motif ")}


def value(out, word):
    """N of the line "word N ..." on stdout, or None."""
    for line in out.splitlines():
        if line.startswith(word + " "):
            try:
                return int(line.split()[1])
            except ValueError:
                return None
    return None


def pattern_lines(out):
    return [(line.split()[1], int(line.split()[3])) for line in out.splitlines() if line.startswith("pattern ")]


def results(out):
    """What a run printed, without the times and the backend: to compare runs."""
    keep = []
    for line in out.splitlines():
        if line.startswith(("motif ", "pattern ", "match: ", "cliques ")):
            keep.append(line)
        elif line.startswith(("subgraphs ", "patterns ", "matches ")):
            keep.append(line.split(" (")[0])
    return keep


# ---- the checks ----

def check_help(binary):
    for flag in ("--help", "-h"):
        rc, out, err, _ = run(binary, [flag])
        check(rc == 0 and "usage:" in out and all(c in out for c in ("match QUERY", "motifs -k K", "kcl -k K", "fpm "))
              and "--backend" in out and "--prepare" in out and err == "",
              "%s %s: exit %d, usage on stdout naming every command" % (binary, flag, rc))
    rc, out, err, _ = run(binary, [])
    check(rc == 2 and "give one FILE or --rmat" in err and "usage:" in err,
          "%s without arguments: exit %d (want 2), %r" % (binary, rc, err[:200]))


def check_bad_arguments(binary, tmp):
    g = os.path.join(tmp, "small.txt")
    with open(g, "w") as f:
        f.write("1 2\n2 3\n3 1\n")
    q = os.path.join(tmp, "q_triangle.txt")
    cases = [
        ([g, "frob"], "frob", "unknown command 'frob': use match, motifs, kcl or fpm"),
        ([g, "Motifs", "-k", "3"], "Motifs", "unknown command 'Motifs'"),
        ([g, "kcl", "-k", "3", "--frobnicate", "1"], "--frobnicate", "unknown option"),
        ([g, "kcl", "-k", "3", "--frobnicate"], "--frobnicate", "needs a value"),
        ([g, "motifs"], "motifs", "needs -k K"),
        ([g, "kcl"], "kcl", "needs -k K"),
        ([g, "motifs", "-k"], "-k", "needs a value"),
        ([g, "motifs", "-k", "6"], "-k", "motifs count K = 3, 4 or 5"),
        ([g, "motifs", "-k", "5", "--method", "count"], "-k", "--method count takes K = 3 or 4"),
        ([g, "motifs", "-k", "3", "--method", "bogus"], "--method",
         "unknown --method 'bogus': use auto, enumerate or count"),
        ([g, "kcl", "-k", "3", "--method", "count"], "--method", "belongs to motifs or fpm"),
        ([g, "kcl", "-k", "abc"], "-k", "\"abc\" is not a whole number"),
        ([g, "kcl", "-k", "2"], "-k", "out of range 3..64"),
        ([g, "kcl", "-k", "65"], "-k", "out of range 3..64"),
        ([g, "kcl", "-k", "-4"], "-k", "not a whole number"),
        ([g, "kcl", "-k", "4x"], "-k", "not a whole number"),
        ([g, "kcl", "-k", "99999999999999999999999"], "-k", "out of range"),
        ([g, "kcl", "-k", "3", "--backend", "gpu"], "--backend", "unknown --backend 'gpu': use auto, cuda or host"),
        ([g, "kcl", "-k", "3", "--budget", "5MB"], "--budget", "not a number"),
        ([g, "fpm"], "fpm", "needs --support S and --max-edges E"),
        ([g, "fpm", "--max-edges", "2"], "fpm", "needs --support S and --max-edges E"),
        ([g, "fpm", "--support", "2"], "fpm", "needs --support S and --max-edges E"),
        ([g, "fpm", "--support", "2", "--max-edges", "7"], "--max-edges", "7 is out of range 1..6"),
        ([g, "fpm", "--support", "2", "--max-edges", "0"], "--max-edges", "out of range 1..6"),
        ([g, "fpm", "--support", "0", "--max-edges", "2"], "--support", "out of range 1.."),
        ([g, "fpm", "--support", "two", "--max-edges", "2"], "--support", "not a whole number"),
        ([g, "fpm", "--support", "2", "--max-edges", "2", "--method", "count"], "--method",
         "unknown --method 'count': use auto, search or table"),
        ([g, "fpm", "--support", "2", "--max-edges", "2", "--prepare"], "--prepare",
         "belongs to match, motifs and kcl"),
        ([g, "motifs", "-k", "3", "--support", "2"], "--support", "belongs to fpm"),
        ([g, "kcl", "-k", "3", "--max-edges", "2"], "--max-edges", "belongs to fpm"),
        ([g, "motifs", "-k", "3", "--list", "5"], "--list", "belongs to match"),
        ([g, "motifs", "-k", "3", "--list", "0"], "--list", "belongs to match"),
        ([g, "kcl", "-k", "3", "--query-labels", "x"], "--query-labels", "belongs to match"),
        ([g, "motifs", "-k", "3", "--induced"], "--induced", "belongs to match"),
        ([g, "match", q, "--induced", "--embeddings"], "--embeddings",
         "give one of --induced, --embeddings, --homomorphisms"),
        ([g, "match", q, "--list", "-1"], "--list", "not a whole number"),
        ([g, "match"], "", "match needs a QUERY file"),
        ([g, "match", q, "extra"], "extra", "unexpected argument"),
        ([g], "", "give a command: match, motifs, kcl or fpm"),
        (["-k", "3"], "", "give one FILE or --rmat"),
        (["kcl", "-k", "3"], "", "give a command: match, motifs, kcl or fpm"),  # kcl is the FILE here
        ([g, "--rmat", "4", "kcl", "-k", "3"], "--rmat", "give one FILE or --rmat"),
        (["--rmat", "31", "kcl", "-k", "3"], "--rmat", "out of range 1..30"),
        (["--rmat", "4", "--random-labels", "0", "kcl", "-k", "3"], "--random-labels", "out of range 1..4294967295"),
    ]
    for args, option, says in cases:
        rc, out, err, _ = run(binary, args)
        check(rc == 2 and option in err and says in err and out == "",
              "%s %s: exit %d (want 2), stderr %r should name %r and say %r" % (
                  binary, " ".join(args), rc, err[:200], option, says))


def check_file_errors(binary, tmp):
    g = os.path.join(tmp, "small.txt")
    missing = os.path.join(tmp, "missing.txt")
    enoent = "cannot open the file: %s" % os_reason(ENOENT)
    for what, args, name in (("graph", [missing, "kcl", "-k", "3"], "missing.txt"),
                             ("query", [g, "match", missing], "missing.txt"),
                             ("labels", [g, "--labels", os.path.join(tmp, "missing.lab"), "kcl", "-k", "3"],
                              "missing.lab")):
        rc, out, err, _ = run(binary, args)
        check(rc == 1 and name in err and enoent in err and "line 0" not in err,
              "%s a missing %s file: exit %d (want 1), the system's reason: %r" % (binary, what, rc, err[-300:]))
    rc, out, err, _ = run(binary, [tmp, "motifs", "-k", "3"])
    check(rc == 1 and "cannot read the file" in err and (not LINUX or os_reason(EISDIR) in err),
          "%s a directory: exit %d (want 1), the system's reason: %r" % (binary, rc, err[-300:]))
    bad = os.path.join(tmp, "bad.clq")
    with open(bad, "w") as f:
        f.write("p edge 3 2\ne 1 2\ne 1 9\n")
    rc, out, err, _ = run(binary, [bad, "kcl", "-k", "3"])
    check(rc == 1 and "line 3" in err, "%s malformed DIMACS: exit %d (want 1), names line 3: %r" % (binary, rc,
                                                                                                   err[-300:]))
    short = os.path.join(tmp, "short.lab")
    with open(short, "w") as f:
        f.write("1 0\n2 1\n")
    rc, out, err, _ = run(binary, [g, "--labels", short, "fpm", "--support", "1", "--max-edges", "1"])
    check(rc == 1 and "short.lab" in err and "vertex 3" in err,
          "%s a labels file missing a vertex: exit %d (want 1), names it: %r" % (binary, rc, err[-300:]))


def run_ok(binary, args, tag):
    rc, out, err, _ = run(binary, args)
    check(rc == 0, "%s %s: exit %d (want 0), stderr %r" % (tag, " ".join(args[1:]), rc, err[-300:]))
    return out if rc == 0 else ""


def check_kcl(binary, g, path, tag):
    for k in (3, 4):
        want = cliques(g, k)
        out = run_ok(binary, [path, "kcl", "-k", str(k), "--quiet"], tag)
        check(value(out, "cliques") == want, "%s kcl -k %d: cliques %s, want %d" % (tag, k, value(out, "cliques"),
                                                                                   want))
        r = parse_json(run_ok(binary, [path, "kcl", "-k", str(k), "--json", "--quiet"], tag))
        check(r is not None and r.get("command") == "kcl" and r.get("k") == k and r.get("cliques") == want
              and r.get("backend") in ("host", "cuda") and isinstance(r.get("total_ms"), (int, float)),
              "%s kcl -k %d --json: %r" % (tag, k, r))


def check_motifs(binary, g, path, tag):
    for k in (3, 4):
        want = motifs(g, k)
        for method in ("count", "enumerate", "auto"):
            out = run_ok(binary, [path, "motifs", "-k", str(k), "--method", method, "--quiet"], tag)
            names = [line.split()[1] for line in out.splitlines() if line.startswith("motif ")]
            check(names == MOTIF_NAMES[k] and motif_lines(out) == want
                  and value(out, "subgraphs") == sum(want.values())
                  and ("method %s" % ("count" if method == "auto" else method)) in out,
                  "%s motifs -k %d --method %s: %s, subgraphs %s; want %s" % (
                      tag, k, method, motif_lines(out), value(out, "subgraphs"), want))
            r = parse_json(run_ok(binary, [path, "motifs", "-k", str(k), "--method", method, "--json", "--quiet"],
                                  tag))
            check(r is not None and r.get("command") == "motifs" and r.get("k") == k and r.get("motifs") == want
                  and list(r["motifs"]) == MOTIF_NAMES[k] and r.get("subgraphs") == sum(want.values())
                  and r.get("method") == ("count" if method == "auto" else method)
                  and r.get("backend") in ("host", "cuda")
                  and all(isinstance(r.get(t), (int, float)) for t in ("total_ms", "count_ms")),
                  "%s motifs -k %d --method %s --json: %r" % (tag, k, method, r))
    if g.n <= 16:
        want5 = motifs(g, 5)
        out = run_ok(binary, [path, "motifs", "-k", "5", "--quiet"], tag)
        counts = motif_lines(out)
        check(len(counts) == 21 and sum(counts.values()) == want5 and value(out, "subgraphs") == want5
              and "method enumerate" in out,
              "%s motifs -k 5: %d lines, subgraphs %s, want %d" % (tag, len(counts), value(out, "subgraphs"), want5))


def check_match(binary, g, path, queries, tag):
    inv = {fid: v for v, fid in enumerate(g.ids)}
    for qname, qedges in QUERIES.items():
        want, aut, emb, ind = match_counts(g, qedges)
        q = 1 + max(max(e) for e in qedges)
        for mode, flags in MODES:
            args = [path, "match", queries[qname]] + flags + ["--quiet"]
            out = run_ok(binary, args, tag)
            check(value(out, "matches") == want[mode] and ("%d automorphisms; %s;" % (aut, mode)) in out,
                  "%s match %s %s: matches %s, want %d (%d automorphisms)" % (tag, qname, mode, value(out, "matches"),
                                                                             want[mode], aut))
            r = parse_json(run_ok(binary, args + ["--json"], tag))
            check(r is not None and r.get("command") == "match" and r.get("mode") == mode
                  and r.get("matches") == want[mode] and r.get("automorphisms") == aut and r.get("query_vertices") == q
                  and r.get("listed") == [] and r.get("backend") in ("host", "cuda")
                  and all(isinstance(r.get(t), (int, float)) for t in ("total_ms", "count_ms")),
                  "%s match %s %s --json: %r" % (tag, qname, mode, r))
        # --list: rows of file ids in the query's vertex order, each a match, distinct, ascending
        for mode, flags, valid in (("edge-induced", [], set(emb)), ("vertex-induced", ["--induced"], set(ind)),
                                   ("embeddings", ["--embeddings"], set(emb))):
            asked = (want[mode] + 2) if mode != "embeddings" else max(1, want[mode] // 2)
            out = run_ok(binary, [path, "match", queries[qname], "--list", str(asked), "--quiet"] + flags, tag)
            try:
                rows = [tuple(inv[int(x)] for x in line.split()[1:]) for line in out.splitlines()
                        if line.startswith("match: ")]
            except (KeyError, ValueError):
                rows = None
            ok = rows is not None and len(rows) == min(asked, want[mode]) and all(row in valid for row in rows)
            ok = ok and rows == sorted(set(rows)) and value(out, "matches") == want[mode]
            if ok and mode != "embeddings":  # every subgraph once: its vertices and the query's edges on them
                subs = {(frozenset(row), frozenset(frozenset((row[a], row[b])) for a, b in qedges)) for row in rows}
                ok = len(subs) == len(rows)
            if ok and mode == "embeddings":
                ok = rows == sorted(valid)[:asked]
            check(ok, "%s match %s %s --list %d: %s rows, %d matches" % (tag, qname, mode, asked,
                                                                        None if rows is None else len(rows),
                                                                        want[mode]))
            if mode == "vertex-induced":
                r = parse_json(run_ok(binary, [path, "match", queries[qname], "--list", str(asked), "--json",
                                               "--quiet"] + flags, tag))
                listed = None if r is None else [tuple(inv.get(x) for x in row) for row in r.get("listed", [])]
                check(listed is not None and listed == rows, "%s match %s --induced --list --json: the same rows" % (
                    tag, qname))


def check_labelled_match(binary, g, args, tmp, rng, tag):
    """A labelled query on a labelled graph: labels from a .lg query file, then from --query-labels."""
    inv = {fid: v for v, fid in enumerate(g.ids)}
    for qname in ("triangle", "4-path"):
        qedges = QUERIES[qname]
        q = 1 + max(max(e) for e in qedges)
        qlabels = [rng.randrange(1 + max(g.labels)) for _ in range(q)]
        lg = os.path.join(tmp, "lq_%s.lg" % qname)
        with open(lg, "w") as f:
            f.write("t # 0\n" + "".join("v %d %d\n" % (i, qlabels[i]) for i in range(q)) +
                    "".join("e %d %d\n" % e for e in qedges))
        plain, lab = os.path.join(tmp, "lq_%s.txt" % qname), os.path.join(tmp, "lq_%s.lab" % qname)
        with open(plain, "w") as f:
            f.write("".join("%d %d\n" % e for e in qedges))
        with open(lab, "w") as f:
            f.write("".join("%d %d\n" % (i, qlabels[i]) for i in range(q)))
        aut = automorphisms(q, qedges, qlabels)
        emb = maps(g, q, qedges, True, qlabels=qlabels)
        for query in ([lg], [plain, "--query-labels", lab]):
            for mode, flags, want in (("edge-induced", [], len(emb) // aut),
                                      ("embeddings", ["--embeddings"], len(emb))):
                a = args + ["match"] + query + flags + ["--list", "3", "--json", "--quiet"]
                r = parse_json(run_ok(binary, a, tag))
                rows = None if r is None else [tuple(inv.get(x) for x in row) for row in r.get("listed", [])]
                check(r is not None and r.get("matches") == want and r.get("automorphisms") == aut
                      and len(rows) == min(3, want) and all(row in set(emb) for row in rows),
                      "%s match %s labels %s %s: %r, want %d matches, %d automorphisms" % (
                          tag, " ".join(os.path.basename(x) for x in query), qlabels, mode, r, want, aut))


def check_query_errors(binary, tmp):
    g = os.path.join(tmp, "small.txt")
    disc, big = os.path.join(tmp, "q_disc.txt"), os.path.join(tmp, "q_big.txt")
    with open(disc, "w") as f:
        f.write("0 1\n2 3\n")
    with open(big, "w") as f:
        f.write("".join("%d %d\n" % (i, i + 1) for i in range(10)))
    lq = os.path.join(tmp, "q_labelled.lg")
    with open(lq, "w") as f:
        f.write("t # 0\nv 0 1\nv 1 0\nv 2 1\ne 0 1\ne 1 2\ne 2 0\n")
    for query, says in ((disc, "not connected"), (big, "more than"), (lq, "the data graph has none")):
        rc, out, err, _ = run(binary, [g, "match", query, "--quiet"])
        check(rc == 1 and "gpm: match: " in err and says in err, "%s match %s: exit %d (want 1), says %r: %r" % (
            binary, os.path.basename(query), rc, says, err))


def check_fpm(binary, g, args, tag):
    for support in (1, 2, 3):
        want = fpm_patterns(g, support)
        for method in ("search", "table", "auto"):
            a = args + ["fpm", "--support", str(support), "--max-edges", "2", "--method", method, "--quiet"]
            out = run_ok(binary, a, tag)
            got = pattern_lines(out)
            check(got == want and value(out, "patterns") == len(want),
                  "%s fpm --support %d --max-edges 2 --method %s: %s\n     want %s" % (tag, support, method, got, want))
        r = parse_json(run_ok(binary, a + ["--json"], tag))
        check(r is not None and r.get("command") == "fpm" and r.get("support") == support and r.get("max_edges") == 2
              and [(p["code"], p["support"]) for p in r.get("patterns", [])] == want
              and isinstance(r.get("candidates"), int) and r.get("method") in ("search", "table")
              and r.get("backend") in ("host", "cuda") and isinstance(r.get("total_ms"), (int, float)),
              "%s fpm --support %d --json: %r" % (tag, support, r))
    out = run_ok(binary, args + ["fpm", "--support", "1", "--max-edges", "1", "--quiet"], tag)
    check(pattern_lines(out) == [p for p in fpm_patterns(g, 1) if p[0].count("-") == 1],
          "%s fpm --support 1 --max-edges 1: the 1-edge patterns" % tag)


def check_random_labels(binary, graph, tag):
    for labels, support, edges in (("2", "3", "2"), ("3", "2", "2"), ("3", "3", "3")):
        base = graph + ["--random-labels", labels, "--seed", "7", "fpm", "--support", support, "--max-edges", edges,
                "--quiet"]
        s = run_ok(binary, base + ["--method", "search"], tag)
        t = run_ok(binary, base + ["--method", "table"], tag)
        check(pattern_lines(s) == pattern_lines(t) and value(s, "patterns") == value(t, "patterns") and len(s) > 0
              and value(s, "patterns") == len(pattern_lines(s)) and "method search" in s and "method table" in t,
              "%s --random-labels %s fpm --support %s --max-edges %s: search and table print the same %s patterns" % (
                  tag, labels, support, edges, value(s, "patterns")))


def check_backends(binary, host_only, path, queries, tag):
    """--backend cuda and --prepare: HOST build, exit 1 (not compiled in); an nvcc build, the HOST results or
    exit 1 saying why."""
    cases = [["kcl", "-k", "4"], ["motifs", "-k", "4", "--method", "count"], ["match", queries["4-cycle"]],
             ["match", queries["4-cycle"], "--homomorphisms"],  # not from the motif counts: CUDA's search
             ["match", queries["4-cycle"], "--list", "3"],  # CUDA's listing: HOST's rows
             ["fpm", "--support", "2", "--max-edges", "2", "--method", "table"]]
    for cmd in cases:
        rc_h, out_h, _, _ = run(binary, [path] + cmd + ["--backend", "host", "--quiet"])
        rc, out, err, _ = run(binary, [path] + cmd + ["--backend", "cuda", "--quiet"])
        what = "%s %s --backend cuda" % (tag, " ".join(cmd))
        if host_only:
            check(rc == 1 and "not compiled in" in err, "%s: exit %d (want 1), not compiled in: %r" % (what, rc, err))
        else:
            counted = rc == 0 and rc_h == 0 and results(out) == results(out_h) and "backend cuda" in out
            refused = rc == 1 and "CUDA" in err and "not compiled in" not in err
            check(counted or refused, "%s: exit %d, the HOST results or exit 1 saying why: %r" % (what, rc, err))
    # what runs on HOST only: cuda asked is an error naming it (but where the build has no CUDA at all)
    for cmd, says in ((["fpm", "--support", "2", "--max-edges", "2", "--method", "search"], "HOST only"),
                      (["motifs", "-k", "4", "--method", "enumerate"], "HOST only"),
                      (["motifs", "-k", "5"], "HOST only")):
        rc, out, err, _ = run(binary, [path] + cmd + ["--backend", "cuda", "--quiet"])
        check(rc == 1 and says in err, "%s %s --backend cuda: exit %d (want 1), says %r: %r" % (
            tag, " ".join(cmd), rc, says, err))
    for cmd in (["kcl", "-k", "3"], ["motifs", "-k", "3"], ["match", queries["triangle"]]):
        rc_h, out_h, _, _ = run(binary, [path] + cmd + ["--quiet"])
        rc, out, err, _ = run(binary, [path] + cmd + ["--prepare", "--quiet"])
        what = "%s %s --prepare" % (tag, " ".join(cmd))
        if host_only:
            check(rc == 1 and "--prepare" in err and "not compiled in" in err,
                  "%s: exit %d (want 1), names --prepare: %r" % (what, rc, err))
        else:
            prepared = rc == 0 and "prepared: " in out and results(out) == results(out_h)
            refused = rc == 1 and "--prepare" in err and "CUDA" in err
            check(prepared or refused, "%s: exit %d, prepared or exit 1 naming --prepare: %r" % (what, rc, err))


def check_quiet(binary, path):
    rc, out, err, _ = run(binary, [path, "motifs", "-k", "3"])
    check(rc == 0 and "gpm: reading" in err and "motif triangle" in out,
          "%s progress on stderr without --quiet: %r" % (binary, err[:200]))
    rc, out, err, _ = run(binary, [path, "motifs", "-k", "3", "--quiet"])
    check(rc == 0 and err == "" and out.splitlines()[0].startswith(path + ": "),
          "%s --quiet: nothing on stderr, the graph's line first: %r %r" % (binary, out[:100], err[:200]))
    rc, out, err, _ = run(binary, ["--rmat", "5", "--random-labels", "2", "kcl", "-k", "3", "--quiet"])
    check(rc == 0 and out.startswith("R-MAT: 32 vertices,") and "labelled" in out and value(out, "cliques") is not None,
          "%s --rmat 5 --random-labels 2 kcl: %r" % (binary, out[:200]))


def graphs(rng, tmp):
    """(graph, path, extra graph arguments for its labels, tag) for each graph of the run."""
    out = []
    formats = ["snap", "dimacs", "mtx", "lg", "snap", "dimacs"]
    rng.shuffle(formats)
    for t, fmt in enumerate(formats):
        n = rng.randint(8, 16)
        g = random_graph(rng, n, rng.uniform(0.2, 0.6))
        g.labels = [rng.randrange(rng.choice((1, 2, 3))) for _ in range(n)] if t % 3 != 2 else None
        path = os.path.join(tmp, "g%d.%s" % (t, {"snap": "txt", "dimacs": "clq", "mtx": "mtx", "lg": "lg"}[fmt]))
        write_graph(g, path, fmt)
        extra = []
        if g.labels is not None and fmt != "lg":
            write_labels(g, path + ".lab")
            extra = ["--labels", path + ".lab"]
        out.append((g, path, extra, "%s (%s, n %d, %d edges)" % (os.path.basename(path), fmt, n, len(g.edges))))
    empty = Graph(6, [])
    write_graph(empty, os.path.join(tmp, "empty.clq"), "dimacs")
    out.append((empty, os.path.join(tmp, "empty.clq"), [], "empty.clq (6 vertices, no edge)"))
    k6 = Graph(6, list(itertools.combinations(range(6), 2)), [0, 0, 1, 0, 1, 2])
    write_graph(k6, os.path.join(tmp, "k6.txt"), "snap")
    write_labels(k6, os.path.join(tmp, "k6.lab"))
    out.append((k6, os.path.join(tmp, "k6.txt"), ["--labels", os.path.join(tmp, "k6.lab")], "k6.txt (K_6)"))
    return out


def main():
    binaries = sys.argv[1:]
    if not binaries:
        print(__doc__)
        return 2
    seed = random.randrange(1 << 30)
    print("seed %d" % seed)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        queries = {}
        for qname, qedges in QUERIES.items():
            queries[qname] = os.path.join(tmp, "q_%s.txt" % qname)
            with open(queries[qname], "w") as f:
                f.write("# query %s\n" % qname + "".join("%d %d\n" % e for e in qedges))
        gs = graphs(rng, tmp)
        for i, b in enumerate(binaries):
            check_help(b)
            check_bad_arguments(b, tmp)
            check_file_errors(b, tmp)
            check_quiet(b, gs[0][1])
            for g, path, extra, name in gs:
                tag = "%s %s" % (b, name)
                check_kcl(b, g, path, tag)
                check_motifs(b, g, path, tag)
                check_match(b, g, path, queries, tag)
                check_fpm(b, g, [path] + extra, tag)
                if g.labels is not None:
                    check_labelled_match(b, g, [path] + extra, tmp, rng, tag)
            check_query_errors(b, tmp)
            check_random_labels(b, [gs[0][1]], "%s %s" % (b, gs[0][3]))
            check_random_labels(b, ["--rmat", "6"], "%s --rmat 6" % b)
            check_backends(b, i == 0, gs[0][1], queries, "%s %s" % (b, gs[0][3]))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
