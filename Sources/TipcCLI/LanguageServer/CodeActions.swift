import Foundation
import TipcJSON
import TipcCompiler

/// `textDocument/codeAction`: quick fixes for the diagnostics in the range asked about: each
/// did-you-mean, a suppression comment, and declaring a missing parameter or event.
extension LanguageServer {
    func codeActions(_ params: JSON) throws -> JSON {
        let document = try requestDocument(params)
        guard let analysis = document.analysis, let start = ProtocolPosition(params["range"]?["start"]),
              let end = ProtocolPosition(params["range"]?["end"]) else { return .array([]) }
        let source = document.source
        let from = source.location(of: start)
        let to = source.location(of: end)
        // Swift names events by the properties that hold them, which need not be their ids, and
        // has no suppression comments: there, only a parameter's did-you-mean is certain (its
        // Swift name is its name).
        let isSwift = SourceDiscovery.isSwift(document.path)
        var actions: [JSON] = []
        for diagnostic in analysis.diagnostics where diagnostic.range.file == document.path
            && diagnostic.range.start <= to && from <= diagnostic.range.end {
            let wire = protocolDiagnostic(diagnostic, in: source, sources: analysis.sources)
            func action(_ title: String, preferred: Bool = false, _ edits: [(range: JSON, text: String)]) -> JSON {
                let textEdits = JSON.array(edits.map { .object([("range", $0.range), ("newText", .string($0.text))]) })
                return .object([("title", .string(title)), ("kind", .string("quickfix")), ("diagnostics", .array([wire])),
                                ("isPreferred", .bool(preferred)),
                                ("edit", .object([("changes", .object([(DocumentURI.uri(document.path), textEdits)]))]))])
            }
            // Did you mean …?
            if let suggestion = Self.suggestion(in: diagnostic.help), let wrong = Self.quotedName(in: diagnostic.message),
               !isSwift || diagnostic.code == .unknownParameter && NameSyntax.isPlainIdentifier(String(suggestion.drop { $0 == "$" })),
               let range = Self.range(of: wrong, in: diagnostic.range, source) {
                let replacement = suggestion.hasPrefix("$") && (!wrong.hasPrefix("$") || isSwift) ? String(suggestion.dropFirst()) : suggestion
                actions.append(action("Change '\(wrong)' to '\(replacement)'", preferred: true, [(source.protocolRange(range), replacement)]))
            }
            // Declare what is missing.
            if diagnostic.code == .unknownParameter || diagnostic.code == .unknownEvent,
               let name = Self.quotedName(in: diagnostic.message).map({ $0.hasPrefix("$") ? String($0.dropFirst()) : $0 }),
               NameSyntax.isValidName(name), let edit = Self.declaration(of: name, isEvent: diagnostic.code == .unknownEvent, in: source) {
                let kind = diagnostic.code == .unknownEvent ? "event" : "parameter"
                actions.append(action("Declare \(kind) '\(name)'", [edit]))
            }
            // Suppress it.
            if !isSwift, !Suppressions.unsuppressible.contains(diagnostic.code) {
                let line = diagnostic.range.start.line - 1
                let text = source.lineText(line + 1)
                let indentation = String(text.prefix { $0 == " " || $0 == "\t" })
                let marker = SourceDiscovery.isYAML(document.path) ? "#" : "//"
                let at = ProtocolPosition(line: line, character: 0)
                actions.append(action("Suppress '\(diagnostic.code.rawValue)' on this line",
                                      [(SourceFile.rangeJSON(at, at), "\(indentation)\(marker) tipc-disable-next-line \(diagnostic.code.rawValue)\n")]))
            }
        }
        return .array(actions)
    }

    /// The name a `did you mean 'X'?` help suggests.
    static func suggestion(in help: String?) -> String? {
        guard let help, let start = help.range(of: "did you mean '") else { return nil }
        let rest = help[start.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    /// The first `'…'` of a message: the name it is about.
    static func quotedName(in message: String) -> String? {
        guard let open = message.firstIndex(of: "'") else { return nil }
        let rest = message[message.index(after: open)...]
        guard let close = rest.firstIndex(of: "'"), close > rest.startIndex else { return nil }
        return String(rest[..<close])
    }

    /// Where `name` (without a leading `$` when the text has it bare) is written in `range`.
    static func range(of name: String, in range: SourceRange, _ source: SourceFile) -> SourceRange? {
        let start = source.offset(of: range.start)
        let text = Array(source.bytes[start..<max(start, source.offset(of: range.end))])
        let bare = Array((name.hasPrefix("$") ? String(name.dropFirst()) : name).utf8)
        guard !bare.isEmpty, text.count >= bare.count else { return nil }
        for index in stride(from: text.count - bare.count, through: 0, by: -1) where Array(text[index..<(index + bare.count)]) == bare {
            return SourceRange(file: range.file, start: source.location(atUTF8Offset: start + index),
                               end: source.location(atUTF8Offset: start + index + bare.count))
        }
        return nil
    }

    /// An edit that declares a parameter (an `Int`, 0 by default) or an event without payload:
    /// under the file's `parameters:` / `events:` (added at the end when there is none) in a
    /// manifest, before the first tip in a `.tips` file.
    static func declaration(of name: String, isEvent: Bool, in source: SourceFile) -> (range: JSON, text: String)? {
        let lineCount = source.lineStarts.count
        if SourceDiscovery.isYAML(source.path) {
            let section = isEvent ? "events" : "parameters"
            let entry = isEvent ? "\(name): {}" : "\(name): { type: int, default: 0 }"
            for line in 0..<lineCount {
                let text = source.lineText(line + 1)
                guard text.hasPrefix(section + ":") else { continue }
                let after = text.dropFirst(section.count + 1).drop { $0 == " " }
                guard after.isEmpty || after.hasPrefix("#") else { return nil }
                var indentation = "  "
                if line + 1 < lineCount {
                    let next = source.lineText(line + 2)
                    let spaces = next.prefix { $0 == " " }
                    if !spaces.isEmpty, !next.dropFirst(spaces.count).isEmpty { indentation = String(spaces) }
                }
                let at = ProtocolPosition(line: line + 1, character: 0)
                let atEnd = line + 1 >= lineCount
                return (SourceFile.rangeJSON(at, at), (atEnd ? "\n" : "") + indentation + entry + "\n")
            }
            let end = source.position(ofOffset: source.bytes.count)
            let separator = source.bytes.last == UInt8(ascii: "\n") || source.bytes.isEmpty ? "" : "\n"
            return (SourceFile.rangeJSON(end, end), separator + "\(section):\n  \(entry)\n")
        }
        guard source.path.hasSuffix(".tips") else { return nil }
        let declaration = isEvent ? "event \(name)\n" : "param \(name): Int = 0\n"
        for line in 0..<lineCount where source.lineText(line + 1).hasPrefix("tip ") {
            // Above the tip's comment block.
            var target = line
            while target > 0, source.lineText(target).hasPrefix("//") { target -= 1 }
            let at = ProtocolPosition(line: target, character: 0)
            return (SourceFile.rangeJSON(at, at), declaration + "\n")
        }
        let end = source.position(ofOffset: source.bytes.count)
        let separator = source.bytes.last == UInt8(ascii: "\n") || source.bytes.isEmpty ? "" : "\n"
        return (SourceFile.rangeJSON(end, end), separator + declaration)
    }
}
