import TipRuntime

/// Decoding of a tip's key (format 2): `key: { name: trailID, type: int }`.
extension ManifestValueReader {
    mutating func tipKey(_ node: YAMLNode, for what: @autoclosure () -> String) -> TipKeyDecl? {
        var name: Identifier?
        var type: Located<ValueType>?
        var typeWritten = false
        for (field, pair) in entries(of: node, for: "the key of \(what())", keys: ManifestKeys.TipKey.self) {
            switch field {
            case .name: name = identifier(pair.value, for: "the key of \(what())")
            case .type:
                typeWritten = true
                type = typeName(pair.value, for: "the type of the key of \(what())")
            }
        }
        guard let name else {
            report(.missingKey, "the key of \(what()) has no name", at: node.range, help: "write 'key: { name: id, type: int }'")
            return nil
        }
        if !typeWritten {
            report(.missingKey, "the key of \(what()) has no type", at: node.range, help: "a key's type is int or string")
            return nil
        }
        guard let type else { return nil }
        return TipKeyDecl(name: name, type: type, range: node.range)
    }
}
