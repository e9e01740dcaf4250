/// The YAML front end: reads a manifest (SPEC §2) into the declarations of a `ManifestFile`.
///
/// Every problem of the YAML and of the manifest's shape is reported here with its exact
/// position; decoding goes on after each, so one run reports all of them. Required keys that
/// are absent are left nil for the checker, which reports `missing-key` for both front ends.
public enum ManifestDecoder {
    public static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> ManifestFile {
        var manifest = ManifestFile(path: file.path, format: .yaml, headRange: headRange(of: file))
        var reader = ManifestValueReader(file: file)
        let before = diagnostics.count
        // Declarations are decoded as the YAML reader completes each one, so that the YAML
        // tree never lives whole beside the declarations; a large file's are decoded by a
        // second thread too, while the reader goes on.
        let declarations = OrderedWorkQueue<Entry, DecodedEntry> { entries in
            var reader = ManifestValueReader(file: file)
            return entries.map { decode($0, with: &reader) }
        }
        let read = YAMLReader.read(file, diagnostics: &diagnostics, streaming: streamedSections) { section, key, value in
            declarations.submit(Entry(section: section, key: key, value: value))
        }
        let decodedEntries = declarations.finish()
        manifest.tips.reserveCapacity(decodedEntries.count)
        for decoded in decodedEntries {
            switch decoded.declaration {
            case .parameter(let parameter): manifest.parameters.append(parameter)
            case .event(let event): manifest.events.append(event)
            case .tip(let tip): manifest.tips.append(tip)
            case .group(let group): manifest.groups.append(group)
            case nil: break
            }
            diagnostics += decoded.diagnostics
        }
        guard let root = read, root.pairs != nil else {
            // YAML that did not read already has its error; "found nothing" would only repeat it.
            if read == nil && diagnostics[before...].contains(where: { $0.severity == .error }) { return manifest }
            let at = read?.range ?? manifest.headRange
            diagnostics.append(Diagnostic(.invalidValue, "a manifest must be a mapping, found \(read?.kindDescription ?? "nothing")",
                                          at: at, help: "start with 'tipkit: 1', then the sections parameters, events, tips and groups"))
            return manifest
        }
        for (name, pair) in reader.entries(of: root, for: "the manifest", allowed: ManifestKeys.fileKeys) {
            let value = pair.value
            switch name {
            case "tipkit":
                manifest.version = reader.integer(value, for: "'tipkit'")
            case "displayFrequency":
                manifest.displayFrequency = displayFrequency(value, reader: &reader)
            case "parameters", "events", "tips", "groups":
                // A streamed section is an empty mapping here; anything else is reported here.
                _ = reader.entries(of: value, for: "'\(name)'", allowed: nil)
            default:
                break
            }
        }
        diagnostics += reader.diagnostics
        return manifest
    }

    /// The sections whose entries are declarations, decoded one by one as they are read.
    private static let streamedSections: Set<String> = ["parameters", "events", "tips", "groups"]

    /// One declaration as the YAML reader hands it on.
    private struct Entry: Sendable {
        var section: String
        var key: YAMLNode
        var value: YAMLNode
    }

    /// Boxed (`indirect`), so that the queue's results are pointers, not whole declarations.
    private indirect enum Declaration: Sendable {
        case parameter(ParameterDecl)
        case event(EventDecl)
        case tip(TipDecl)
        case group(GroupDecl)
    }

    /// A declaration decoded, with what was reported about it.
    private struct DecodedEntry: Sendable {
        var declaration: Declaration?
        var diagnostics: [Diagnostic]
    }

    /// Decodes one entry with `reader` (whose diagnostics are taken).
    private static func decode(_ entry: Entry, with reader: inout ManifestValueReader) -> DecodedEntry {
        reader.diagnostics.removeAll()
        let declaration: Declaration?
        switch entry.section {
        case "parameters": declaration = reader.parameter(named: entry.key, entry.value).map(Declaration.parameter)
        case "events": declaration = reader.event(named: entry.key, entry.value).map(Declaration.event)
        case "tips": declaration = reader.tip(named: entry.key, entry.value).map(Declaration.tip)
        case "groups": declaration = reader.group(named: entry.key, entry.value).map(Declaration.group)
        default: declaration = nil
        }
        return DecodedEntry(declaration: declaration, diagnostics: reader.diagnostics)
    }

    /// The first line of the file (where a diagnostic about the whole file points).
    private static func headRange(of file: SourceFile) -> SourceRange {
        let start = SourceLocation(line: 1, column: 1)
        let end = SourceLocation(line: 1, column: 1 + file.lineText(1).unicodeScalars.count)
        return SourceRange(file: file.path, start: start, end: end)
    }

    /// `immediate`, `hourly`, `daily`, `weekly`, `monthly`, or a duration (`12h`).
    private static func displayFrequency(_ node: YAMLNode, reader: inout ManifestValueReader) -> Located<DisplayFrequencySpec>? {
        let what = "'displayFrequency'"
        guard let scalar = reader.scalar(node, expected: "a frequency", for: what) else { return nil }
        if let named = DisplayFrequencySpec.named[scalar.value] {
            return Located(named, at: node.range)
        }
        if let first = scalar.value.unicodeScalars.first, ("0"..."9").contains(first) {
            switch DurationLiteral.seconds(of: scalar.value) {
            case .success(let seconds):
                return Located(.custom(seconds: seconds), at: node.range)
            case .failure(let failure):
                reader.reportDurationFailure(failure, text: scalar.value, for: what, at: node.range)
                return nil
            }
        }
        let names = ["immediate", "hourly", "daily", "weekly", "monthly"]
        reader.report(.invalidValue, "unknown display frequency '\(scalar.value)'", at: node.range,
                      help: Suggestions.didYouMean(scalar.value, in: names)
                          ?? "use immediate, hourly, daily, weekly, monthly or a duration such as 12h")
        return nil
    }
}
