/// The YAML front end: reads a manifest (SPEC §2) into the declarations of a `ManifestFile`.
///
/// Every problem of the YAML and of the manifest's shape is reported here with its exact
/// position; decoding goes on after each, so one run reports all of them. Required keys that
/// are absent are left nil for the checker, which reports `missing-key` for both front ends.
public enum ManifestDecoder {
    /// Files at least this large are read on a second thread while this one decodes.
    static let concurrentReadingThreshold = 64 * 1024

    public static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> ManifestFile {
        decode(file, diagnostics: &diagnostics, readingConcurrently: file.bytes.count >= concurrentReadingThreshold)
    }

    /// `decode(_:diagnostics:)`, reading the YAML on the helper thread or not, whatever the
    /// file's size (the result is the same either way).
    static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic], readingConcurrently: Bool) -> ManifestFile {
        var manifest = ManifestFile(path: file.path, format: .yaml, headRange: headRange(of: file))
        var reader = ManifestValueReader(file: file)
        let before = diagnostics.count
        let (read, readDiagnostics) = readStreaming(file, concurrently: readingConcurrently) { entry in
            declare(entry, in: &manifest, reader: &reader)
        }
        diagnostics += readDiagnostics
        diagnostics += reader.diagnostics
        reader.diagnostics.removeAll()
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

    /// What reading the YAML gave besides its entries.
    private struct ReadOutcome: Sendable {
        var root: YAMLNode?
        var diagnostics: [Diagnostic]
    }

    /// Reads `file`, handing each declaration to `declare` as the reader completes it, so that
    /// the YAML tree never lives whole beside the declarations. A large file is read on a
    /// second thread while this one decodes, at most a few hundred declarations ahead: the
    /// syntax tree is built on this thread, the one that checks it and frees it after.
    private static func readStreaming(_ file: SourceFile, concurrently: Bool,
                                      declare: (Entry) -> Void) -> (YAMLNode?, [Diagnostic]) {
        let batchSize = 16
        let channel = BoundedChannel<[Entry], ReadOutcome>(capacity: 16)
        let readsElsewhere = concurrently && HelperThread.shared.run {
            var batch: [Entry] = []
            let outcome = readEntries(of: file) { entry in
                batch.append(entry)
                if batch.count == batchSize {
                    channel.send(batch)
                    batch = []
                }
            }
            if !batch.isEmpty { channel.send(batch) }
            channel.close(with: outcome)
        }
        guard readsElsewhere else {
            let outcome = readEntries(of: file, handOn: declare)
            return (outcome.root, outcome.diagnostics)
        }
        while let batch = channel.receive() {
            for entry in batch { declare(entry) }
        }
        let outcome = channel.takeFinal()
        return (outcome?.root, outcome?.diagnostics ?? [])
    }

    /// Reads `file`, handing on each declaration of the streamed sections as it completes.
    private static func readEntries(of file: SourceFile, handOn: (Entry) -> Void) -> ReadOutcome {
        var diagnostics: [Diagnostic] = []
        let root = YAMLReader.read(file, diagnostics: &diagnostics, streaming: streamedSections) { section, key, value in
            handOn(Entry(section: section, key: key, value: value))
        }
        return ReadOutcome(root: root, diagnostics: diagnostics)
    }

    /// Decodes one declaration into the manifest.
    private static func declare(_ entry: Entry, in manifest: inout ManifestFile, reader: inout ManifestValueReader) {
        switch entry.section {
        case "parameters":
            if let parameter = reader.parameter(named: entry.key, entry.value) { manifest.parameters.append(parameter) }
        case "events":
            if let event = reader.event(named: entry.key, entry.value) { manifest.events.append(event) }
        case "tips":
            if let tip = reader.tip(named: entry.key, entry.value) { manifest.tips.append(tip) }
        case "groups":
            if let group = reader.group(named: entry.key, entry.value) { manifest.groups.append(group) }
        default:
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
