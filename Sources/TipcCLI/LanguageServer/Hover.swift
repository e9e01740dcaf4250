import TipcJSON
import TipcCompiler
import TipRuntime

/// `textDocument/hover`: a name's declaration and where it is used; a diagnostic code's
/// explanation (on a diagnostic, or on a code in a suppression comment).
extension LanguageServer {
    func hover(_ params: JSON) throws -> JSON {
        let document = try requestDocument(params)
        let position = try requestPosition(params)
        let location = document.source.location(of: position)
        if let analysis = document.analysis, let occurrence = analysis.index.occurrence(at: location, in: document.path) {
            let text = describe(occurrence.symbol, analysis)
            return .object([("contents", .object([("kind", .string("markdown")), ("value", .string(text))])),
                            ("range", document.source.protocolRange(occurrence.range))])
        }
        var codes: [DiagnosticCode] = []
        let offset = document.source.offset(of: position)
        // A code named in a suppression comment.
        var start = offset
        var end = offset
        let bytes = document.source.bytes
        while start > 0, CompletionContext.isNameByte(bytes[start - 1]) { start -= 1 }
        while end < bytes.count, CompletionContext.isNameByte(bytes[end]) { end += 1 }
        if let code = DiagnosticCode(rawValue: document.source.text(from: start, to: end)),
           document.source.lineText(position.line + 1).contains("tipc-disable") {
            codes.append(code)
        }
        for diagnostic in document.analysis?.diagnostics ?? [] where diagnostic.range.file == document.path
            && diagnostic.range.start <= location && location <= diagnostic.range.end && !codes.contains(diagnostic.code) {
            codes.append(diagnostic.code)
        }
        guard !codes.isEmpty else { return .null }
        let text = codes.map { "```text\n" + CodesCommand.explanation(of: $0) + "\n```" }.joined(separator: "\n\n")
        return .object([("contents", .object([("kind", .string("markdown")), ("value", .string(text))]))])
    }

    /// A declaration in a few lines of Markdown, with the number of uses and their files.
    func describe(_ symbol: ProgramSymbol, _ analysis: ProgramAnalysis) -> String {
        let index = analysis.index
        var lines: [String] = []
        switch symbol.kind {
        case .parameter:
            lines.append("**parameter** `$\(symbol.name)`")
            if let parameter = index.parameters[symbol.name] {
                if let type = parameter.type?.value { lines.append("- type: `\(type.tipsSpelling)`") }
                if let value = parameter.defaultValue?.value { lines.append("- default: `\(Self.spell(value))`") }
                if let values = parameter.values { lines.append("- values: " + values.map { "`\($0.value)`" }.joined(separator: ", ")) }
                if parameter.isTransient { lines.append("- transient: reset to its default in every new runtime") }
            }
        case .event:
            lines.append("**event** `\(symbol.name)`")
            if let event = index.events[symbol.name] {
                lines.append(event.fields.isEmpty ? "- payload: none"
                             : "- payload: " + event.fields.map { "`\($0.name.name): \($0.type?.value.tipsSpelling ?? "?")`" }.joined(separator: ", "))
                if let count = event.donationLimit?.maximumCount?.value { lines.append("- keeps at most \(count) donations") }
                if let age = event.donationLimit?.maximumAgeSeconds?.value { lines.append("- keeps donations for \(Self.spell(.duration(seconds: age)))") }
            }
        case .field(let event):
            let type = index.fields(of: event).first { $0.name.name == symbol.name }?.type?.value
            lines.append("**payload field** `\(symbol.name)` of event `\(event)`" + (type.map { ": `\($0.tipsSpelling)`" } ?? ""))
        case .tip:
            lines.append("**tip** `\(symbol.name)`")
            if let tip = index.tips[symbol.name] {
                if let title = tip.title?.value { lines.append("- title: \(title)") }
                if let key = tip.key { lines.append("- key: `\(key.name.name): \(key.type?.value.tipsSpelling ?? "?")`") }
                lines += Self.settings(of: tip)
                lines.append("- \(tip.rules.count) rule\(tip.rules.count == 1 ? "" : "s")")
            }
        case .group:
            lines.append("**group** `\(symbol.name)`")
            if let group = index.groups[symbol.name] {
                if let priority = group.priority?.value { lines.append("- priority: `\(priority.spelling)`") }
                lines.append("- tips: " + group.tips.map { "`\($0.name)`" }.joined(separator: ", "))
            }
        case .experiment:
            lines.append("**experiment** `\(symbol.name)`")
        case .placeholder(let tip):
            let type = index.tips[tip]?.placeholders.first { $0.name.name == symbol.name }?.type?.value
            lines.append("**placeholder** `{\(symbol.name)}` of tip `\(tip)`" + (type.map { ": `\($0.tipsSpelling)`" } ?? ""))
        }
        let uses = index.occurrences(of: symbol).filter { !$0.isDeclaration }
        let declared = index.declarations(of: symbol)
        if declared.isEmpty { lines.append("- not declared") }
        let files = Set(uses.map(\.file)).sorted().map { Self.fileName($0) }
        lines.append(uses.isEmpty ? "- not used" : "- used \(uses.count) time\(uses.count == 1 ? "" : "s") in " + files.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    /// The tip's settings of one value (a count, a duration, a flag, an event window), one line
    /// each in the attribute table's order and keys: an attribute added to the table shows here.
    static func settings(of tip: TipDecl) -> [String] {
        TipAttributes.all.compactMap { row in
            let value: String? = switch row.value {
            case .count(let path): tip[keyPath: path].map { String($0.value) }
            case .duration(let path): tip[keyPath: path].map { DurationText.string(seconds: $0.value) }
            case .flag(let path): tip[keyPath: path].map { String($0.value) }
            case .eventWindow(let path):
                tip[keyPath: path].map { "\($0.event.name) within \(DurationText.string(seconds: $0.windowSeconds.value))" }
            case .text, .image, .actions, .placeholders, .rules, .key: nil
            }
            return value.map { "- \(row.key): `\($0)`" }
        }
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func spell(_ literal: Literal) -> String {
        switch literal {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .duration(let seconds):
            var rest = seconds
            var text = ""
            for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
                text += "\(rest / size)\(unit)"
                rest %= size
            }
            return text.isEmpty ? "0s" : text
        }
    }
}
