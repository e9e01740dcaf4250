import TipRuntime

/// The YAML front end: reads a manifest into the declarations of a `ManifestFile`.
///
/// Every problem of the YAML and of the manifest's shape is reported here with its exact
/// position; decoding goes on after each, so one run reports all of them. Required keys that
/// are absent are left nil for the checker, which reports `missing-key` for both front ends.
public enum ManifestDecoder {
    /// The start of the message for a file whose root is not a mapping (the driver drops the
    /// "missing key" diagnostics that would only repeat it).
    static let notAMappingMessage = "a manifest must be a mapping"

    /// Reads `file`, decoding each declaration of `parameters`, `events`, `tips`, `groups` and `experiments` as
    /// soon as the reader completes it, so that the YAML tree never lives whole beside the
    /// declarations; then the top level. The declarations' problems are reported in file order,
    /// then the top level's. With `parsingRules` false, tips' rules are not parsed but handed on
    /// as their texts (`TipDecl.unparsedRules`), for the checker to parse (see `UnparsedRule`).
    public static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic], parsingRules: Bool = true) -> ManifestFile {
        var manifest = ManifestFile(path: file.path, format: .yaml, headRange: headRange(of: file))
        var declarations = ManifestValueReader(file: file, parsingRules: parsingRules)
        var readingDiagnostics: [Diagnostic] = []
        let read = YAMLReader.read(file, diagnostics: &readingDiagnostics, streaming: streamedSections) { section, key, value in
            declare(section: section, key: key, value: value, in: &manifest, reader: &declarations)
        }
        let before = diagnostics.count
        diagnostics += readingDiagnostics
        diagnostics += declarations.diagnostics
        var reader = ManifestValueReader(file: file)
        guard let root = read, root.pairs != nil else {
            // YAML that did not read already has its error; "found nothing" would only repeat it.
            if read == nil && diagnostics[before...].contains(where: { $0.severity == .error }) { return manifest }
            let at = read?.range ?? manifest.headRange
            diagnostics.append(Diagnostic(.invalidValue, "\(notAMappingMessage), found \(read?.kindDescription ?? "nothing")",
                                          at: at, help: "start with 'tipkit: 1', then the sections parameters, events, tips and groups"))
            return manifest
        }
        for (attribute, pair) in reader.entries(of: root, for: "the manifest", table: FileAttributes.self) {
            let value = pair.value
            switch attribute.value {
            case .version:
                manifest.version = reader.integer(value, for: "'\(attribute.key)'")
            case .displayFrequency:
                manifest.displayFrequency = displayFrequency(value, reader: &reader)
            case .defaultLocale:
                manifest.defaultLocale = reader.text(value, for: "'\(attribute.key)'")
            case .parameters, .events, .tips, .groups, .experiments:
                // A streamed section is an empty mapping here; anything else is reported here.
                _ = reader.entries(of: value, for: "'\(attribute.key)'", allowed: nil)
            }
        }
        diagnostics += reader.diagnostics
        return manifest
    }

    /// The sections whose entries are declarations, decoded one by one as they are read.
    private static let streamedSections = Set(FileAttributes.all.filter(\.value.isSection).map(\.key))

    /// Decodes one declaration into the manifest.
    private static func declare(section: String, key: YAMLNode, value: YAMLNode, in manifest: inout ManifestFile,
                                reader: inout ManifestValueReader) {
        switch FileAttributes.lookup.value(named: section) {
        case .parameters?:
            if let parameter = reader.parameter(named: key, value) { manifest.parameters.append(parameter) }
        case .events?:
            if let event = reader.event(named: key, value) { manifest.events.append(event) }
        case .tips?:
            if let tip = reader.tip(named: key, value) { manifest.tips.append(tip) }
        case .groups?:
            if let group = reader.group(named: key, value) { manifest.groups.append(group) }
        case .experiments?:
            if let experiment = reader.experiment(named: key, value) { manifest.experiments.append(experiment) }
        case .version?, .displayFrequency?, .defaultLocale?, nil:
            break
        }
    }

    /// The first line of the file (where a diagnostic about the whole file points).
    private static func headRange(of file: SourceFile) -> SourceRange {
        let start = SourceLocation(line: 1, column: 1)
        let end = SourceLocation(line: 1, column: 1 + file.lineText(1).unicodeScalars.count)
        return SourceRange(fileNumber: file.pathNumber, start: start, end: end)
    }

    /// `immediate`, `hourly`, `daily`, `weekly`, `monthly`, or a duration (`12h`).
    private static func displayFrequency(_ node: YAMLNode, reader: inout ManifestValueReader) -> Located<DisplayFrequencySpec>? {
        let what = "'displayFrequency'"
        guard let scalar = reader.scalar(node, expected: "a frequency", for: what) else { return nil }
        if let named = DisplayFrequencySpec.named[scalar.value] {
            return Located(named, at: node.range)
        }
        if let first = scalar.value.unicodeScalars.first, ("0"..."9").contains(first) {
            switch DurationText.seconds(of: scalar.value) {
            case .success(let seconds):
                return Located(.custom(seconds: seconds), at: node.range)
            case .failure(let failure):
                reader.reportDurationFailure(failure, text: scalar.value, for: what, at: node.range)
                return nil
            }
        }
        let names = DisplayFrequencySpec.names
        reader.report(.invalidValue, "unknown display frequency '\(scalar.value)'", at: node.range,
                      help: Suggestions.didYouMean(scalar.value, in: names)
                          ?? "use immediate, hourly, daily, weekly, monthly or a duration such as 12h")
        return nil
    }
}
