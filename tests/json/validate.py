#!/usr/bin/python3
"""Validates a dispatchtool JSON output against its schema in docs/schema/.

    validate.py SCHEMA FILE      e.g. validate.py docs/schema/table.schema.json out.json
    validate.py --check-schemas DIR

Validation is JSON Schema draft 2020-12 (python3-jsonschema; `$ref`s between
the files of the schema's directory resolve locally, never over the network),
plus the conventions of docs/json.md that a schema cannot say: object members
appear in the order the schema's `properties` list them (stable key order),
and no string holds an ANSI escape (no colour). Exit status 0 valid, 1
invalid (every error printed), 2 usage.

`--check-schemas DIR` checks every *.schema.json of DIR against the 2020-12
metaschema, that each declares it, and that every `$ref` resolves.
"""
import glob
import json
import os
import pathlib
import sys
from urllib.parse import unquote, urljoin

import jsonschema
from jsonschema import Draft202012Validator

ESC = "\x1b"


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def uri(path):
    return pathlib.Path(path).resolve().as_uri()


def schema_store(directory):
    """{file URI: schema} for every *.schema.json of directory, each with its URI as $id."""
    store = {}
    for p in sorted(glob.glob(os.path.join(directory, "*.schema.json"))):
        s = dict(load(p))
        s.setdefault("$id", uri(p))
        store[uri(p)] = s
    return store


def validator_for(schema_path):
    """(validator, store) for the schema at schema_path, its directory's schemas resolvable."""
    store = schema_store(os.path.dirname(os.path.abspath(schema_path)))
    schema = store.get(uri(schema_path)) or dict(load(schema_path), **{"$id": uri(schema_path)})
    try:  # jsonschema >= 4.18: the referencing library
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            [(u, Resource.from_contents(s)) for u, s in store.items()])
        return Draft202012Validator(schema, registry=registry), store
    except ImportError:  # Debian bookworm's 4.10: RefResolver
        resolver = jsonschema.RefResolver(schema["$id"], schema, store=store)
        return Draft202012Validator(schema, resolver=resolver), store


def resolve(ref, base, store):
    """(schema, its document URI) that `ref`, written in the document `base`, points to."""
    target = urljoin(base, ref)
    doc, _, fragment = target.partition("#")
    node = store[doc]
    for part in [p for p in fragment.split("/") if p]:
        node = node[unquote(part).replace("~1", "/").replace("~0", "~")]
    return node, doc


def order_errors(instance, schema, validator, store, base, path="$"):
    """Members out of the schema's `properties` order, anywhere in instance."""
    if not isinstance(schema, dict) or not isinstance(instance, (dict, list)):
        return []  # a scalar has no members: no alternative to follow (the costly part)
    errors = []
    if "$ref" in schema:
        target, doc = resolve(schema["$ref"], base, store)
        errors += order_errors(instance, target, validator, store, doc, path)
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []):
            # Follow the alternative the instance matches.
            if key == "allOf" or _matches(instance, sub, validator, base):
                errors += order_errors(instance, sub, validator, store, base, path)
                if key != "allOf":
                    break
    if isinstance(instance, dict) and "properties" in schema:
        order = list(schema["properties"])
        keys = [k for k in instance if k in order]
        if keys != sorted(keys, key=order.index):
            errors.append(f"{path}: members {keys} are not in the schema's order {order}")
        for k, sub in schema["properties"].items():
            if k in instance:
                errors += order_errors(instance[k], sub, validator, store, base, f"{path}.{k}")
    if isinstance(instance, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(instance):
            errors += order_errors(item, schema["items"], validator, store, base, f"{path}[{i}]")
    return errors


def _matches(instance, sub, validator, base):
    """instance is valid against the subschema `sub` of the document `base`."""
    sub = dict(sub, **{"$id": base})
    try:
        return validator.evolve(schema=sub).is_valid(instance)
    except AttributeError:  # jsonschema < 4: no evolve
        return type(validator)(sub, resolver=validator.resolver).is_valid(instance)


def colour_errors(instance, path="$"):
    if isinstance(instance, str):
        return [f"{path}: an ANSI escape (colour) in {instance!r}"] if ESC in instance else []
    if isinstance(instance, dict):
        return [e for k, v in instance.items() for e in colour_errors(v, f"{path}.{k}")]
    if isinstance(instance, list):
        return [e for i, v in enumerate(instance) for e in colour_errors(v, f"{path}[{i}]")]
    return []


def validate(schema_path, instance):
    """Every error: schema validation, member order, colour. With DT_JSON_CHECK=parse-only
    (the sanitizer build's whole-library outputs, see tests/CMakeLists.txt): colour only,
    the document having parsed; the release build validates the same bytes in full."""
    if os.environ.get("DT_JSON_CHECK") == "parse-only":
        return colour_errors(instance)
    validator, store = validator_for(schema_path)
    errors = [f"{'/'.join(str(p) for p in e.absolute_path) or '$'}: {e.message}"
              for e in sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path)))]
    if not errors:
        errors += order_errors(instance, validator.schema, validator, store, validator.schema["$id"])
    errors += colour_errors(instance)
    return errors


def check_schemas(directory):
    """Every *.schema.json: valid against the 2020-12 metaschema, $refs resolve."""
    errors = []
    paths = sorted(glob.glob(os.path.join(directory, "*.schema.json")))
    if not paths:
        return [f"no *.schema.json in {directory}"]
    for p in paths:
        s = load(p)
        name = os.path.basename(p)
        if s.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            errors.append(f"{name}: $schema is not draft 2020-12")
        errors += [f"{name}: {e.message}" for e in Draft202012Validator(Draft202012Validator.META_SCHEMA)
                   .iter_errors(s)]
        validator, store = validator_for(p)

        def refs(node):
            if isinstance(node, dict):
                if "$ref" in node:
                    yield node["$ref"]
                for v in node.values():
                    yield from refs(v)
            elif isinstance(node, list):
                for v in node:
                    yield from refs(v)
        for ref in refs(s):
            try:
                resolve(ref, uri(p), store)
            except (KeyError, TypeError) as e:  # noqa: BLE001 - any resolution failure is the error
                errors.append(f"{name}: $ref {ref!r} does not resolve: {e}")
    return errors


def main(argv):
    if len(argv) == 2 and argv[0] == "--check-schemas":
        errors = check_schemas(argv[1])
        for e in errors:
            print(f"error: {e}")
        print(f"{'invalid' if errors else 'valid'}: {len(glob.glob(os.path.join(argv[1], '*.schema.json')))} schemas")
        return 1 if errors else 0
    if len(argv) != 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    schema_path, file_path = argv
    try:
        instance = load(file_path) if file_path != "-" else json.load(sys.stdin)
    except (OSError, ValueError) as e:
        print(f"{file_path}: not JSON: {e}")
        return 1
    errors = validate(schema_path, instance)
    for e in errors:
        print(f"{file_path}: {e}")
    if not errors:
        print(f"{file_path}: valid ({os.path.basename(schema_path)})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
