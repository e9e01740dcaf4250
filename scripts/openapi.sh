#!/usr/bin/env bash
# Writes Sources/TipService/API/OpenAPIDocument.swift, which `tipc serve` answers at
# /v1/openapi.json, from docs/openapi.yaml (the API's one description): run it after editing
# the YAML. `scripts/openapi.sh --check` fails when the Swift file is not what the YAML gives.
set -euo pipefail
cd "$(dirname "$0")/.."
swift_file=Sources/TipService/API/OpenAPIDocument.swift
generated=$(/usr/bin/python3 - <<'PY'
import json, yaml
with open("docs/openapi.yaml", encoding="utf-8") as f:
    document = yaml.safe_load(f)
text = json.dumps(document, ensure_ascii=False, indent=1)
assert '"""#' not in text
print("// Written by scripts/openapi.sh from docs/openapi.yaml: edit that file and run the script.")
print()
print("/// The service's API as OpenAPI 3.1 JSON, answered at `GET /v1/openapi.json`.")
print("enum OpenAPIDocument {")
print('    static let json = #"""')
for line in text.splitlines():
    print("        " + line)
print('        """#')
print("}")
PY
)
case "${1:-}" in
  --check)
    if [ "$generated" != "$(cat "$swift_file")" ]; then
      echo "$swift_file is not what docs/openapi.yaml gives: run scripts/openapi.sh" >&2
      exit 1
    fi ;;
  "") printf '%s\n' "$generated" >"$swift_file" ;;
  *) echo "usage: scripts/openapi.sh [--check]" >&2; exit 2 ;;
esac
