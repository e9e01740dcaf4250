/// The YAML front end: reads a manifest (SPEC §2) into the declarations of a `ManifestFile`.
///
/// Every problem of the YAML and of the manifest's shape is reported here with its exact
/// position; decoding goes on after each, so one run reports all of them. Required keys that
/// are absent are left nil for the checker, which reports `missing-key` for both front ends.
public enum ManifestDecoder {
    public static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> ManifestFile {
        var manifest = ManifestFile(path: file.path, format: .yaml, headRange: headRange(of: file))
        let before = diagnostics.count
        let read = YAMLReader.read(file, diagnostics: &diagnostics)
        guard var root = read, root.pairs != nil else {
            // YAML that did not read already has its error; "found nothing" would only repeat it.
            if read == nil && diagnostics[before...].contains(where: { $0.severity == .error }) { return manifest }
            let at = read?.range ?? manifest.headRange
            diagnostics.append(Diagnostic(.invalidValue, "a manifest must be a mapping, found \(read?.kindDescription ?? "nothing")",
                                          at: at, help: "start with 'tipkit: 1', then the sections parameters, events, tips and groups"))
            return manifest
        }
        var reader = ManifestValueReader(file: file)
        // The tree is taken apart as it is decoded: each declaration's subtree is freed as soon
        // as its declaration is built, so the tree and the declarations never both live whole.
        var sections = reader.entries(of: root, for: "the manifest", allowed: ManifestKeys.fileKeys)
        root.content = .sequence([])
        for index in sections.indices {
            let name = sections[index].name
            var value = sections[index].pair.value
            sections[index].pair.value.content = .sequence([])
            switch name {
            case "tipkit":
                manifest.version = reader.integer(value, for: "'tipkit'")
            case "displayFrequency":
                manifest.displayFrequency = displayFrequency(value, reader: &reader)
            case "parameters":
                var entries = takeDeclarations(&value, for: "'parameters'", reader: &reader)
                for index in entries.indices {
                    let (key, node) = take(&entries[index])
                    if let parameter = reader.parameter(named: key, node) { manifest.parameters.append(parameter) }
                }
            case "events":
                var entries = takeDeclarations(&value, for: "'events'", reader: &reader)
                for index in entries.indices {
                    let (key, node) = take(&entries[index])
                    if let event = reader.event(named: key, node) { manifest.events.append(event) }
                }
            case "tips":
                var entries = takeDeclarations(&value, for: "'tips'", reader: &reader)
                manifest.tips.reserveCapacity(entries.count)
                for index in entries.indices {
                    let (key, node) = take(&entries[index])
                    if let tip = reader.tip(named: key, node) { manifest.tips.append(tip) }
                }
            case "groups":
                var entries = takeDeclarations(&value, for: "'groups'", reader: &reader)
                for index in entries.indices {
                    let (key, node) = take(&entries[index])
                    if let group = reader.group(named: key, node) { manifest.groups.append(group) }
                }
            default:
                break
            }
        }
        diagnostics += reader.diagnostics
        return manifest
    }

    /// The first line of the file (where a diagnostic about the whole file points).
    private static func headRange(of file: SourceFile) -> SourceRange {
        let start = SourceLocation(line: 1, column: 1)
        let end = SourceLocation(line: 1, column: 1 + file.lineText(1).unicodeScalars.count)
        return SourceRange(file: file.path, start: start, end: end)
    }

    /// The named entries of a section (`name: declaration`), taken out of `node` (left empty),
    /// so that the returned array owns each entry's subtree.
    private static func takeDeclarations(_ node: inout YAMLNode, for what: String,
                                         reader: inout ManifestValueReader) -> [(key: YAMLNode, value: YAMLNode)] {
        let entries = reader.entries(of: node, for: what, allowed: nil).map { ($0.pair.key, $0.pair.value) }
        node.content = .sequence([])
        return entries
    }

    /// The entry, left empty in place: the caller then holds the only reference to its subtree.
    private static func take(_ entry: inout (key: YAMLNode, value: YAMLNode)) -> (key: YAMLNode, value: YAMLNode) {
        let taken = entry
        entry.key.content = .sequence([])
        entry.value.content = .sequence([])
        return taken
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
