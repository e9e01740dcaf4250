#!/usr/bin/python3
"""Validates manifests against tipc's JSON Schema with an independent validator.

The schema tests run this with Debian's own Python and packages (python3-jsonschema,
python3-yaml; `scripts/setup.sh --tests` installs them), so no PyPI package is needed:

    /usr/bin/python3 scripts/validate-schema.py --metaschema SCHEMA
        checks SCHEMA against the draft-07 metaschema;
    /usr/bin/python3 scripts/validate-schema.py SCHEMA MANIFEST...
        validates each YAML manifest and prints
        {"errors": [{"filename": ..., "path": "$.tips.t", "message": ...}, ...]}.

Exit status: 0 valid, 1 invalid, 2 usage or I/O error.

Manifests are read as YAML 1.2 reads them (as tipc and editors' yaml-language-server do):
only true/false are booleans, and dates stay strings.
"""
import json
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as missing:
    print(f"validate-schema: {missing}; install Debian's python3-jsonschema and python3-yaml "
          "(scripts/setup.sh --tests) and run this with /usr/bin/python3", file=sys.stderr)
    sys.exit(2)


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader without YAML 1.1's `yes`/`on` booleans and timestamps."""


Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def main(arguments):
    if len(arguments) == 2 and arguments[0] == "--metaschema":
        with open(arguments[1], encoding="utf-8") as file:
            schema = json.load(file)
        errors = list(jsonschema.Draft7Validator(jsonschema.Draft7Validator.META_SCHEMA).iter_errors(schema))
        for error in errors:
            print(f"{error.json_path}: {error.message}")
        return 1 if errors else 0
    if len(arguments) < 2 or arguments[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8") as file:
        validator = jsonschema.Draft7Validator(json.load(file))
    errors = []
    for path in arguments[1:]:
        with open(path, encoding="utf-8") as file:
            document = yaml.load(file, Loader=Yaml12Loader)
        for error in validator.iter_errors(document):
            errors.append({"filename": path, "path": error.json_path, "message": error.message})
    print(json.dumps({"errors": errors}, indent=2))
    return 1 if errors else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, ValueError, yaml.YAMLError) as error:
        print(f"validate-schema: {error}", file=sys.stderr)
        sys.exit(2)
