import TipcJSON
import TipcCompiler

/// `textDocument/formatting` (what `tipc fmt` writes) and `textDocument/documentSymbol`.
extension LanguageServer {
    func formatting(_ params: JSON) throws -> JSON {
        let document = try requestDocument(params)
        guard let analysis = document.analysis, !SourceDiscovery.isSwift(document.path),
              let file = analysis.files.first(where: { $0.path == document.path }) else { return .array([]) }
        if let error = analysis.diagnostics.first(where: { $0.severity == .error && $0.range.file == document.path }) {
            throw ResponseError(code: ResponseError.requestFailed,
                                message: "not formatted: the file has errors (\(error.message) at \(error.range.start))")
        }
        let formatted: [UInt8]
        do {
            formatted = try SourceFormatter.format(document.source, parsed: file)
        } catch {
            throw ResponseError(code: ResponseError.requestFailed, message: "not formatted: \(error.message)")
        }
        guard formatted != document.source.bytes else { return .array([]) }
        let range = SourceFile.rangeJSON(ProtocolPosition(line: 0, character: 0), document.source.position(ofOffset: document.source.bytes.count))
        return .array([.object([("range", range), ("newText", .string(String(decoding: formatted, as: UTF8.self)))])])
    }

    /// The protocol's symbol kinds used here.
    private enum SymbolKind: Int {
        case namespace = 3, `class` = 5, field = 8, variable = 13, event = 24
    }

    func documentSymbols(_ params: JSON) throws -> JSON {
        let document = try requestDocument(params)
        guard let analysis = document.analysis else { return .array([]) }
        let source = document.source
        let path = document.path
        func symbol(_ name: Identifier, _ whole: SourceRange, _ kind: SymbolKind, detail: String?, children: [JSON] = []) -> JSON? {
            guard name.range.file == path else { return nil }
            let range = whole.file == path ? whole.union(name.range) : name.range
            var fields: [(String, JSON)] = [("name", .string(name.name)), ("kind", .integer(kind.rawValue)),
                                            ("range", source.protocolRange(range)), ("selectionRange", source.protocolRange(name.range))]
            if let detail { fields.append(("detail", .string(detail))) }
            if !children.isEmpty { fields.append(("children", .array(children))) }
            return .object(fields)
        }
        var symbols: [JSON] = []
        for file in analysis.files {
            symbols += file.parameters.compactMap { symbol($0.name, $0.range, .variable, detail: $0.type?.value.tipsSpelling) }
            symbols += file.events.compactMap { event in
                symbol(event.name, event.range, .event, detail: "event",
                       children: event.fields.compactMap { symbol($0.name, $0.name.range, .field, detail: $0.type?.value.tipsSpelling) })
            }
            symbols += file.tips.compactMap { symbol($0.name, $0.range, .class, detail: $0.title?.value) }
            symbols += file.groups.compactMap { symbol($0.name, $0.range, .namespace, detail: "group") }
        }
        return .array(symbols)
    }
}
