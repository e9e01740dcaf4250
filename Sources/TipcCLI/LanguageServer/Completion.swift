import TipRuntime
import TipcJSON
import TipcCompiler

/// `textDocument/completion`: the names, keys and words that may stand at the cursor.
extension LanguageServer {
    /// The protocol's completion item kinds used here.
    enum CompletionKind: Int {
        case method = 2, function = 3, field = 5, variable = 6, `class` = 7, module = 9, property = 10, value = 12, keyword = 14
        case enumMember = 20, event = 23
    }

    func completion(_ params: JSON) throws -> JSON {
        let document = try requestDocument(params)
        let position = try requestPosition(params)
        let offset = document.source.offset(of: position)
        guard let context = CompletionContext.at(offset, in: document.source) else { return .array([]) }
        let index = document.analysis?.index
        var items: [(label: String, kind: CompletionKind, detail: String?, insert: String?)] = []
        switch context.kind {
        case .key(let mapping):
            items = EditorVocabulary.keys(of: mapping).map { ($0, .property, nil, $0 + ": ") }
        case .locale:
            items = (index?.locales ?? []).map { ($0, .value, "locale", nil) }
        case .type:
            items = ValueType.allCases.map { (SourceDiscovery.isYAML(document.path) ? $0.manifestSpelling : $0.tipsSpelling, .value, "type", nil) }
        case .priority:
            items = PackGroupPriority.allCases.map { ($0.spelling, .enumMember, "group priority", nil) }
        case .displayFrequency:
            items = DisplayFrequencySpec.named.keys.sorted().map { ($0, .enumMember, "display frequency", nil) }
        case .tip:
            items = (index?.tipNames ?? []).map { ($0, .class, "tip", nil) }
        case .parameter where SourceDiscovery.isSwift(document.path):
            // A Swift parameter is written by its property name: a qualified one (`Type.name`,
            // the name taken elsewhere) is not what follows `$`.
            items = parameterItems(index).filter { !$0.label.contains(".") }
        case .parameter:
            items = parameterItems(index)
        case .placeholder(let tip):
            let placeholders = tip.flatMap { index?.tips[$0]?.placeholders } ?? []
            items = placeholders.map { ($0.name.name, .variable, "placeholder" + ($0.type.map { ": " + $0.value.manifestSpelling } ?? ""), nil) }
                + parameterItems(index)
        case .member(let ofTip):
            items = (ofTip ? EditorVocabulary.tipStateMembers : EditorVocabulary.collectionMembers).map { ($0, .method, nil, nil) }
        case .field(let event, let tip):
            items = (index?.fields(of: event) ?? []).map { ($0.name.name, .field, $0.type.map { "field: " + $0.value.tipsSpelling }, nil) }
            if let key = tip.flatMap({ index?.tips[$0]?.key?.name.name }) { items.append((key, .variable, "the tip's key", nil)) }
        case .expression:
            items = (index?.eventNames ?? []).map { ($0, .event, "event", NameSyntax.spelling(ofName: $0)) }
                + parameterItems(index)
                + EditorVocabulary.functions.map { ($0, .function, "function", nil) }
                + EditorVocabulary.keywords.map { ($0, .keyword, nil, nil) }
        }
        let start = document.source.position(ofOffset: context.wordStart)
        let range = SourceFile.rangeJSON(start, position)
        return .object([("isIncomplete", .bool(false)), ("items", .array(items.enumerated().map { number, item in
            var fields: [(String, JSON)] = [("label", .string(item.label)), ("kind", .integer(item.kind.rawValue))]
            if let detail = item.detail { fields.append(("detail", .string(detail))) }
            fields.append(("sortText", .string(String(format6(number)))))
            fields.append(("textEdit", .object([("range", range), ("newText", .string(item.insert ?? item.label))])))
            return .object(fields)
        }))])
    }

    private func parameterItems(_ index: NameIndex?) -> [(label: String, kind: CompletionKind, detail: String?, insert: String?)] {
        (index?.parameterNames ?? []).map { name in
            let type = index?.parameters[name]?.type?.value.tipsSpelling
            return ("$" + name, .variable, "parameter" + (type.map { ": " + $0 } ?? ""), "$" + NameSyntax.spelling(ofMember: name))
        }
    }

    private func format6(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
