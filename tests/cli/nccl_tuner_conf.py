#!/usr/bin/env python3
"""Reads an NCCL example-tuner-plugin config the way NVIDIA/nccl plugins/tuner/example/plugin.c
does (loadConfig and pluginGetCollInfo), and reports what the plugin would silently do wrong.

plugin.c's rules, mirrored here:
  - lines are read with fgets into a 256-byte buffer (MAX_LINE_LENGTH): a longer line is read as
    several lines, the rest starting mid-text;
  - a line whose first character is '#' or '\\n' is skipped (no stripping first);
  - the trailing newline is cut; an empty line is skipped;
  - fields are split with strtok(",") (so empty fields vanish), each trimmed of spaces and tabs;
  - 8 to 10 fields make a config, anything else is ignored without a word;
  - collective, algorithm and protocol names outside plugin.c's tables silently become
    allreduce, ring and simple; numbers go through strtoull / atoi (garbage reads as 0);
  - numPipeOps and regBuff default to -1 (any) when absent;
  - getCollInfo takes the first config whose collective matches, min <= nBytes <= max, and whose
    nNodes, nRanks, numPipeOps and regBuff are -1 or equal.
Strict mode (what this test wants): any of the silent cases above is an error.

Usage as a module: parse(path) -> (configs, problems); lookup(configs, coll, nbytes, nnodes, nranks).
"""
import sys

MAX_LINE_LENGTH = 256
COLLECTIVES = ["broadcast", "reduce", "allgather", "reducescatter", "allreduce"]
ALGORITHMS = ["tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"]
PROTOCOLS = ["ll", "ll128", "simple"]


def fgets_lines(data):
    """The chunks successive fgets(line, 256, file) calls return."""
    out, i = [], 0
    while i < len(data):
        j = data.find(b"\n", i, i + MAX_LINE_LENGTH - 1)
        end = j + 1 if j != -1 else min(len(data), i + MAX_LINE_LENGTH - 1)
        out.append(data[i:end])
        i = end
    return out


def strict_int(text, problems, where, what):
    try:
        return int(text, 10)
    except ValueError:
        problems.append("%s: %s %r is not a number (atoi/strtoull would read 0)" % (where, what, text))
        return 0


def parse(path):
    data = open(path, "rb").read()
    configs, problems = [], []
    for n, raw in enumerate(fgets_lines(data), 1):
        where = "%s:chunk %d" % (path, n)
        if len(raw) == MAX_LINE_LENGTH - 1 and not raw.endswith(b"\n"):
            problems.append("%s: line longer than %d bytes: plugin.c reads its rest as another line" % (where, MAX_LINE_LENGTH - 2))
        if raw[:1] in (b"#", b"\n"):
            continue
        line = raw.split(b"\n")[0].decode("utf-8", "replace")
        if not line:
            continue
        tokens = [t.strip(" \t") for t in line.split(",") if t != ""]
        if line.count(",") + 1 != len(tokens):
            problems.append("%s: empty field: strtok skips it, shifting the fields after it" % where)
        if not 8 <= len(tokens) <= 10:
            problems.append("%s: %d fields: plugin.c ignores the line (needs 8 to 10)" % (where, len(tokens)))
            continue
        coll, alg, proto = tokens[0], tokens[3], tokens[4]
        for value, table, what, dflt in ((coll, COLLECTIVES, "collective", "allreduce"),
                                         (alg, ALGORITHMS, "algorithm", "ring"), (proto, PROTOCOLS, "protocol", "simple")):
            if value not in table:
                problems.append("%s: unknown %s %r: plugin.c would use %s" % (where, what, value, dflt))
        c = {
            "collective": coll, "min_bytes": strict_int(tokens[1], problems, where, "min_bytes"),
            "max_bytes": strict_int(tokens[2], problems, where, "max_bytes"), "algorithm": alg, "protocol": proto,
            "channels": strict_int(tokens[5], problems, where, "channels"),
            "nNodes": strict_int(tokens[6], problems, where, "nNodes"), "nRanks": strict_int(tokens[7], problems, where, "nRanks"),
            "numPipeOps": strict_int(tokens[8], problems, where, "numPipeOps") if len(tokens) >= 9 else -1,
            "regBuff": strict_int(tokens[9], problems, where, "regBuff") if len(tokens) >= 10 else -1,
            "where": where,
        }
        if c["min_bytes"] > c["max_bytes"]:
            problems.append("%s: min_bytes > max_bytes: never matches" % where)
        configs.append(c)
    return configs, problems


def lookup(configs, coll, nbytes, nnodes, nranks, pipe_ops=1, reg_buff=0):
    """pluginGetCollInfo's choice: the first matching config, or None."""
    for c in configs:
        if (c["collective"] == coll and c["min_bytes"] <= nbytes <= c["max_bytes"]
                and c["nNodes"] in (-1, nnodes) and c["nRanks"] in (-1, nranks)
                and c["numPipeOps"] in (-1, pipe_ops) and c["regBuff"] in (-1, reg_buff)):
            return c
    return None


if __name__ == "__main__":
    configs, problems = parse(sys.argv[1])
    for p in problems:
        print("PROBLEM", p)
    for c in configs:
        print("config", c["collective"], c["min_bytes"], c["max_bytes"], c["algorithm"], c["protocol"], c["nNodes"], c["nRanks"])
    sys.exit(1 if problems else 0)
