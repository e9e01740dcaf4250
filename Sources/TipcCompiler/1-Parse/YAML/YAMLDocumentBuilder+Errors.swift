#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CYAML

/// The ends of reading: libyaml's errors, a failure that stops reading, and the checks made
/// once the events are read (tabs used for indentation).
extension YAMLDocumentBuilder {
    mutating func failWithParserError(_ parser: yaml_parser_t) {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        let offset: Int
        if parser.error == YAML_READER_ERROR {
            offset = min(parser.problem_offset, file.bytes.count)
        } else {
            offset = self.offset(parser.problem_mark)
        }
        if let tab = tabIndentation(onLineOf: offset) {
            fail(tab)
            return
        }
        var notes: [DiagnosticNote] = []
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextOffset = self.offset(parser.context_mark)
            notes.append(DiagnosticNote(context, at: range(from: contextOffset, to: contextOffset)))
        }
        var help: String?
        if problem.contains("cannot start any token"), offset < file.bytes.count,
           case let character = Unicode.Scalar(file.bytes[offset]), "@`%".unicodeScalars.contains(character) {
            help = "a value cannot start with '\(character)' in YAML; quote it"
        } else if problem.contains("mapping values are not allowed") {
            help = "quote the value if it contains ': '"
        }
        let end = min(offset + YAMLCharacterOffsets.sequenceLength(lead: offset < file.bytes.count ? file.bytes[offset] : 0), file.bytes.count)
        fail(Diagnostic(.yaml, problem, at: range(from: offset, to: max(offset, end)), help: help, notes: notes))
    }

    mutating func fail(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
        failed = true
        isFinished = true
    }

    /// Closes what is still open (after an error) and checks indentation for tabs.
    mutating func finish() {
        if failed {
            // Cut short between a key of the streamed section and its value: drop that entry.
            if stack.last?.isStreamed == true { restoreSetAsideArrays() }
            let end = stack.last.map { collection in
                max(Int(records[collection.record].startOffset), collection.lastEntryEnd?.offset ?? 0)
            } ?? 0
            while let collection = stack.popLast() {
                close(collection, endOffset: end, truncated: true)
            }
            return
        }
        reportTabIndentation()
    }

    /// A tab in the leading white space of a line with content, outside multi-line scalars.
    mutating func reportTabIndentation() {
        // Most files have no tab at all: that is seen at once.
        let hasTab = file.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0x09, bytes.count) != nil
        }
        guard hasTab else { return }
        var scalarIndex = 0
        for (index, lineStart) in file.lineStarts.enumerated() {
            while scalarIndex < multilineScalars.count, multilineScalars[scalarIndex].upperBound <= lineStart { scalarIndex += 1 }
            if scalarIndex < multilineScalars.count, multilineScalars[scalarIndex].lowerBound < lineStart { continue }
            if let diagnostic = tabIndentation(line: index + 1) { diagnostics.append(diagnostic) }
        }
    }

    /// After a libyaml error: a tab in the leading white space of the error's line explains
    /// it (libyaml refuses even a tab before a comment there).
    func tabIndentation(onLineOf offset: Int) -> Diagnostic? {
        tabIndentation(line: file.line(containing: offset), evenBeforeComment: true)
    }

    func tabIndentation(line: Int, evenBeforeComment: Bool = false) -> Diagnostic? {
        let bytes = file.bytes
        var index = file.lineStarts[line - 1]
        var firstTab: Int?
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 {
            if bytes[index] == 0x09, firstTab == nil { firstTab = index }
            index += 1
        }
        guard let tab = firstTab, index < bytes.count, ![0x0A, 0x0D].contains(bytes[index]),
              evenBeforeComment || bytes[index] != 0x23 else { return nil }
        return Diagnostic(.yaml, "tab character used for indentation", at: range(from: tab, to: tab + 1),
                          help: "YAML does not allow tabs for indentation; indent with spaces")
    }
}
