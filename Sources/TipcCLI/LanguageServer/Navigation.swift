import TipcJSON
import TipcCompiler
import TipKitBridge

/// `textDocument/definition`, `textDocument/references` and `textDocument/rename`, across the
/// files of the program (YAML, `.tips`, Swift).
extension LanguageServer {
    private func occurrence(_ params: JSON) throws -> (NameOccurrence, ProgramAnalysis)? {
        let document = try requestDocument(params)
        let position = try requestPosition(params)
        guard let analysis = document.analysis,
              let occurrence = analysis.index.occurrence(at: document.source.location(of: position), in: document.path) else { return nil }
        return (occurrence, analysis)
    }

    func definition(_ params: JSON) throws -> JSON {
        guard let (occurrence, analysis) = try occurrence(params) else { return .null }
        return .array(analysis.index.declarations(of: occurrence.symbol).compactMap { protocolLocation($0.range, sources: analysis.sources) })
    }

    func references(_ params: JSON) throws -> JSON {
        guard let (occurrence, analysis) = try occurrence(params) else { return .null }
        let includeDeclaration: Bool
        if case .bool(let include)? = params["context"]?["includeDeclaration"] { includeDeclaration = include } else { includeDeclaration = true }
        return .array(analysis.index.occurrences(of: occurrence.symbol).filter { includeDeclaration || !$0.isDeclaration }
            .compactMap { protocolLocation($0.range, sources: analysis.sources) })
    }

    /// One workspace edit that renames every occurrence; refused (with the reason) when the
    /// new name is not a plain name, is taken, or an occurrence cannot be rewritten in place.
    func rename(_ params: JSON) throws -> JSON {
        guard case .string(let newName)? = params["newName"] else { throw ResponseError.invalidParams("newName is missing") }
        guard let (occurrence, analysis) = try occurrence(params) else {
            throw ResponseError(code: ResponseError.requestFailed, message: "there is no declared name here to rename")
        }
        let symbol = occurrence.symbol
        guard NameSyntax.isPlainIdentifier(newName), !NameSyntax.expressionKeywords.contains(newName) else {
            throw ResponseError(code: ResponseError.requestFailed, message: "'\(newName)' is not a name rules can use bare: letters, digits and '_', not starting with a digit, not a keyword")
        }
        if newName != symbol.name {
            let taken = analysis.index.occurrences.contains { $0.isDeclaration && $0.symbol.name == newName && Self.sharesNamespace($0.symbol.kind, symbol.kind) }
            if taken { throw ResponseError(code: ResponseError.requestFailed, message: "'\(newName)' is already declared in this program") }
        }
        let ranges = analysis.key.isSwift ? try swiftRenameRanges(symbol, to: newName, in: analysis) : try manifestRenameRanges(symbol, in: analysis)
        var changes: [String: [JSON]] = [:]
        for range in ranges {
            guard let source = analysis.sources[range.file] else { continue }
            changes[range.file, default: []].append(.object([("range", source.protocolRange(range)), ("newText", .string(newName))]))
        }
        return .object([("changes", .object(changes.keys.sorted().map { (DocumentURI.uri($0), .array(changes[$0]!)) }))])
    }

    /// In YAML and `.tips` files every occurrence is the name's own characters.
    private func manifestRenameRanges(_ symbol: ProgramSymbol, in analysis: ProgramAnalysis) throws -> [SourceRange] {
        let occurrences = analysis.index.occurrences(of: symbol)
        if let inexact = occurrences.first(where: { !$0.isExact }) {
            throw ResponseError(code: ResponseError.requestFailed,
                                message: "'\(symbol.name)' is written in \(Self.fileName(inexact.file)) in a form rename cannot rewrite; rename it there by hand")
        }
        return occurrences.map(\.range)
    }

    /// In Swift files the TipKit bridge knows which characters spell the name (an id's string
    /// literal, a parameter's property name and its certain uses), and refuses the rest.
    private func swiftRenameRanges(_ symbol: ProgramSymbol, to newName: String, in analysis: ProgramAnalysis) throws -> [SourceRange] {
        let kind: SwiftRename.Kind
        switch symbol.kind {
        case .parameter: kind = .parameter
        case .event: kind = .event
        case .tip: kind = .tip
        case .group: kind = .other("group")
        case .experiment: kind = .other("experiment")
        case .field: kind = .other("payload field")
        case .placeholder: kind = .other("placeholder")
        }
        switch SwiftRename.edits(renaming: kind, symbol.name, to: newName, in: analysis.paths.compactMap { analysis.sources[$0] }) {
        case .success(let ranges): return ranges
        case .failure(let refusal): throw ResponseError(code: ResponseError.requestFailed, message: refusal.description)
        }
    }

    /// Parameters, events, tips and groups share one namespace; fields, one per event;
    /// placeholders, one per tip.
    private static func sharesNamespace(_ a: ProgramSymbol.Kind, _ b: ProgramSymbol.Kind) -> Bool {
        switch (a, b) {
        case (.field(let x), .field(let y)): return x == y
        case (.placeholder(let x), .placeholder(let y)): return x == y
        case (.field, _), (_, .field), (.placeholder, _), (_, .placeholder): return false
        default: return true
        }
    }
}
