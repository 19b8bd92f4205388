#!/usr/bin/env python3
"""What tests/e2e/json_schema.sh asks: the ttcp-result/1 schema as the man page shows it, and
ttcp's documents checked against it by python3-jsonschema (Debian's package), not by hand.

  json_schema.py extract RENDERED        the JSON block of the subsection "The schema" in a
                                         rendered page (mandoc's or groff's text; overstrikes
                                         are dropped), checked against draft 2020-12's own
                                         metaschema; printed as JSON, keys sorted
  json_schema.py validate SCHEMA FILE... each FILE holds one document, or one a line (JSON
                                         Lines, as ttcp -S --json writes); prints a verdict a
                                         document: "FILE[:LINE]: valid", or "invalid:" and the
                                         errors, the deepest first
Exit status 1, with the reason, when the schema cannot be had or a document is not valid.
"""
import json
import re
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError, relevance
except ImportError:
    print("json_schema: no jsonschema module (apt-get install python3-jsonschema)",
          file=sys.stderr)
    sys.exit(1)

HEADING = "The schema"


def die(why):
    print(f"json_schema: {why}", file=sys.stderr)
    sys.exit(1)


def schema_block(text):
    """The lines from the first "{" alone on its line after the heading to the "}" at the
    same indentation, that indentation taken off."""
    lines = re.sub(r".\x08", "", text).splitlines()
    try:
        at = next(i for i, line in enumerate(lines) if line.strip() == HEADING)
        first = next(i for i in range(at + 1, len(lines)) if lines[i].strip() == "{")
    except StopIteration:
        die(f"no subsection '{HEADING}' with a block that opens with '{{' alone on a line")
    indent = len(lines[first]) - len(lines[first].lstrip())
    closing = " " * indent + "}"
    try:
        last = next(i for i in range(first, len(lines)) if lines[i].rstrip() == closing)
    except StopIteration:
        die(f"the block at line {first + 1} has no '}}' at its indentation")
    block = lines[first:last + 1]
    for n, line in enumerate(block, first + 1):
        if line.strip() and not line.startswith(" " * indent):
            die(f"line {n} of the rendered page is left of the block: {line!r}")
    return "\n".join(line[indent:] for line in block)


def extract(rendered):
    with open(rendered, encoding="utf-8") as f:
        text = schema_block(f.read())
    try:
        schema = json.loads(text)
    except json.JSONDecodeError as e:
        die(f"the schema is not JSON as rendered: {e}")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        die(f"not a valid draft 2020-12 schema: {e.message} at {list(e.absolute_path)}")
    print(json.dumps(schema, sort_keys=True, indent=1))


def leaves(error):
    """An error's causes with no causes of their own: under oneOf, the branches' errors."""
    if not error.context:
        yield error
    for cause in error.context or []:
        yield from leaves(cause)


def deepest(errors):
    """The errors' leaves, deepest in the document first (a wrong code inside a test rather
    than "not valid under any of the given schemas" at the top), each message once."""
    found = {}
    for e in errors:
        for leaf in leaves(e):
            found.setdefault((tuple(map(str, leaf.absolute_path)), leaf.message), leaf)
    return sorted(found.values(), key=lambda e: (-len(e.absolute_path), relevance(e)))


def documents(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
        for n, line in enumerate(lines, 1):
            yield f"{path}:{n}", line
    else:
        yield path, text


def validate(schema_path, paths):
    with open(schema_path, encoding="utf-8") as f:
        validator = Draft202012Validator(json.load(f))
    bad = 0
    seen = 0
    for path in paths:
        for where, text in documents(path):
            seen += 1
            try:
                doc = json.loads(text)
            except json.JSONDecodeError as e:
                print(f"{where}: invalid: not JSON: {e}")
                bad += 1
                continue
            errors = list(validator.iter_errors(doc))
            if not errors:
                print(f"{where}: valid")
                continue
            bad += 1
            print(f"{where}: invalid:")
            for e in deepest(errors)[:6]:
                path = "/".join(map(str, e.absolute_path))
                print(f"  at /{path}: {e.message[:200]}")
    if seen == 0:
        die("no document to validate")
    sys.exit(1 if bad else 0)


def main(argv):
    if len(argv) == 3 and argv[1] == "extract":
        extract(argv[2])
    elif len(argv) >= 4 and argv[1] == "validate":
        validate(argv[2], argv[3:])
    else:
        die("usage: json_schema.py extract RENDERED | validate SCHEMA FILE...")


if __name__ == "__main__":
    main(sys.argv)
