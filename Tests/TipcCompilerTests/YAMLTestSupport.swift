@testable import TipcCompiler

/// Reads `text` as the YAML file `test.yaml`.
func readYAML(_ text: String) -> (root: YAMLNode?, diagnostics: [Diagnostic], file: SourceFile) {
    readYAML(bytes: Array(text.utf8))
}

func readYAML(bytes: [UInt8]) -> (root: YAMLNode?, diagnostics: [Diagnostic], file: SourceFile) {
    let file = SourceFile(path: "test.yaml", bytes: bytes)
    var diagnostics: [Diagnostic] = []
    let root = YAMLReader.read(file, diagnostics: &diagnostics)
    return (root, diagnostics, file)
}

/// The value node at `key` of a mapping node.
func value(_ node: YAMLNode?, _ key: String) -> YAMLNode? {
    node?.pairs?.first(where: { $0.key.scalar?.value == key })?.value
}

func location(_ line: Int, _ column: Int) -> TipcCompiler.SourceLocation {
    TipcCompiler.SourceLocation(line: line, column: column)
}

/// The `utf8Offset` of the first occurrence of `needle` in `text`.
func utf8Offset(of needle: String, in text: String) -> Int? {
    let haystack = Array(text.utf8)
    let pattern = Array(needle.utf8)
    guard pattern.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - pattern.count) where Array(haystack[start..<start + pattern.count]) == pattern {
        return start
    }
    return nil
}

/// Every node of the tree under `root`, `root` included (depth first, keys before values).
func yamlNodes(under root: YAMLNode) -> [YAMLNode] {
    var pending = [root]
    var nodes: [YAMLNode] = []
    while let node = pending.popLast() {
        nodes.append(node)
        if let pairs = node.pairs { for pair in pairs.reversed() { pending += [pair.value, pair.key] } }
        if let items = node.items { pending += items.reversed() }
    }
    return nodes
}
