#!/usr/bin/env python3
"""Checks docs/openapi.yaml and the service's answers against it.

    validate-openapi.py DOCUMENT [LOG]

DOCUMENT must be a valid OpenAPI 3.1 document (openapi-spec-validator). LOG, when given, holds
one JSON object a line, {"method","path","status","contentType","body"}, for every answer a
real `tipc serve` gave the tests: each must be an answer the document describes (the route's
operation lists its status) and a JSON body must match the documented schema. An answer for a
path no route matches must be a documented error document. Exits 1 listing what does not fit.
"""
import json
import re
import sys
import urllib.parse
import warnings

# RefResolver, which jsonschema 4 (pinned by scripts/setup.sh) still has, warns that it is deprecated.
warnings.filterwarnings("ignore", category=DeprecationWarning)

import yaml
from jsonschema import Draft202012Validator, RefResolver
from openapi_spec_validator import validate


def operations(document):
    """(compiled path pattern, template, path item) for every path, literal paths first."""
    routes = []
    for template, item in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        routes.append((template.count("{"), re.compile(pattern), template, item))
    routes.sort(key=lambda route: route[0])
    return [(pattern, template, item) for _, pattern, template, item in routes]


def main():
    document = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
    validate(document)
    if len(sys.argv) < 3:
        print("openapi: the document is valid OpenAPI 3.1")
        return 0
    resolver = RefResolver(base_uri="", referrer=document)
    def check(schema, instance):
        return [error.message for error in Draft202012Validator(schema, resolver=resolver).iter_errors(instance)]
    error_schema = {"$ref": "#/components/schemas/Error"}
    routes = operations(document)
    problems = []
    count = 0
    seen = set()
    with open(sys.argv[2], encoding="utf-8") as log:
        for number, line in enumerate(log, 1):
            exchange = json.loads(line)
            count += 1
            path = urllib.parse.urlsplit(exchange["path"]).path
            method, status = exchange["method"].lower(), str(exchange["status"])
            where = f"{exchange['method']} {exchange['path'][:120]} → {status}"
            body = None
            if exchange["contentType"].startswith("application/json") and exchange["body"]:
                try:
                    body = json.loads(exchange["body"])
                except ValueError as error:
                    problems.append(f"{where}: the body is not JSON ({error})")
                    continue
            route = next(((template, item) for pattern, template, item in routes if pattern.match(path)), None)
            operation = route[1].get(method) if route else None
            if method == "options" and status == "204" and body is None:
                continue  # a browser's CORS preflight, answered for --cors-origin pages
            if operation is None:
                # No route, or a method the route does not take: an error (404, 405, 400), with
                # the error document as its body but for HEAD, whose answers have none.
                if int(status) < 400:
                    problems.append(f"{where}: an undocumented route or method that was not an error")
                elif body is not None:
                    problems += [f"{where}: {message}" for message in check(error_schema, body)]
                continue
            seen.add((route[0], method, status))
            response = operation["responses"].get(status) or operation["responses"].get("default")
            if response is None:
                problems.append(f"{where}: status {status} is not documented for {method.upper()} {route[0]}")
                continue
            if "$ref" in response:
                response = resolver.resolve(response["$ref"])[1]
            content = response.get("content", {})
            if body is not None:
                media = content.get("application/json")
                if media is None:
                    problems.append(f"{where}: a JSON body where the document describes none")
                    continue
                problems += [f"{where}: {message}" for message in check(media["schema"], body)]
    for problem in problems[:50]:
        print("openapi:", problem)
    if problems:
        print(f"openapi: {len(problems)} of {count} answers do not fit docs/openapi.yaml")
        return 1
    print(f"openapi: {count} answers of {len(seen)} route, method and status combinations fit docs/openapi.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
