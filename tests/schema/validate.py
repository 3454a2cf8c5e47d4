#!/usr/bin/env python3
"""docs/scenario.schema.json against the shipped scenarios (issue 11 item 6).

Every example under scenarios/ (not jobs/ or plans/: other file kinds) validates; the schema is a
valid draft 2020-12 schema; and it is not vacuous: an unknown key, a wrong enum value and a
missing required section are each rejected. Usage: validate.py SCHEMA SCENARIO_DIR...
"""
import glob
import json
import os
import sys

import re

import jsonschema
import yaml


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML resolves YAML 1.1, where 100e-6 (no dot) is a string; yaml-cpp (the loader) and
    yaml-language-server read it as a number, as YAML 1.2 does."""


Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$"),
    list("-+0123456789."))


def load(path):
    with open(path, encoding="utf-8") as f:
        return stringify_keys(yaml.load(f, Loader=Yaml12Loader))


def stringify_keys(node):
    # YAML maps may have integer keys ({1: 120}); JSON (and yaml-language-server) sees strings.
    if isinstance(node, dict):
        return {str(k): stringify_keys(v) for k, v in node.items()}
    if isinstance(node, list):
        return [stringify_keys(v) for v in node]
    return node


def main():
    schema_path, scenario_dirs = sys.argv[1], sys.argv[2:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failed = 0
    files = []
    for d in scenario_dirs:
        found = sorted(glob.glob(os.path.join(d, "*.yaml")))
        if not found:
            print("FAIL no scenarios in " + d)
            return 1
        files += found
    for path in files:
        doc = load(path)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if errors:
            failed = 1
            for e in errors:
                print("FAIL %s: %s: %s" % (path, "/".join(map(str, e.path)), e.message))
        else:
            print("ok   " + os.path.basename(path))
    # Not vacuous: these must be rejected.
    base = load(files[0])
    bad = []
    d = json.loads(json.dumps(base)); d["cluster"]["instanse"] = "x"; bad.append(("unknown key", d))
    d = json.loads(json.dumps(base)); d["engine"] = "fast"; bad.append(("bad engine", d))
    d = json.loads(json.dumps(base)); del d["training"]; bad.append(("missing training", d))
    d = json.loads(json.dumps(base)); d["training"]["precision"] = "fp8"; bad.append(("bad precision", d))
    d = json.loads(json.dumps(base)); d["training"]["framework"] = "pytorch"; bad.append(("unknown framework", d))
    for what, doc in bad:
        if validator.is_valid(doc):
            failed = 1
            print("FAIL accepted: " + what)
        else:
            print("ok   rejects " + what)
    # docs/scenario.md lists every key of the schema.
    doc_path = os.path.join(os.path.dirname(schema_path), "scenario.md")
    with open(doc_path, encoding="utf-8") as f:
        doc_text = f.read()
    for key in key_paths(schema, ""):
        if "`%s`" % key not in doc_text:
            failed = 1
            print("FAIL docs/scenario.md does not list `%s`" % key)
    return failed


def key_paths(s, path):
    obj = s if "properties" in s else next((b for b in s.get("anyOf", []) if "properties" in b), None)
    if obj:
        for k, v in obj["properties"].items():
            full = path + "." + k if path else k
            yield full
            yield from key_paths(v, full)
    if isinstance(s.get("items"), dict):
        yield from key_paths(s["items"], path + "[]")


if __name__ == "__main__":
    sys.exit(main())
