/// The YAML front end: reads a manifest (SPEC §2) into the declarations of a `ManifestFile`.
///
/// Every problem of the YAML and of the manifest's shape is reported here with its exact
/// position; decoding goes on after each, so one run reports all of them. Required keys that
/// are absent are left nil for the checker, which reports `missing-key` for both front ends.
public enum ManifestDecoder {
    /// Files at least this large are read in two parts at once, on two threads, when they have
    /// a split point (see `YAMLSplitPoint`).
    static let concurrentReadingThreshold = 64 * 1024

    public static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> ManifestFile {
        decode(file, diagnostics: &diagnostics, readingConcurrently: file.bytes.count >= concurrentReadingThreshold)
    }

    /// `decode(_:diagnostics:)`, trying to read the file in two parts at once or not, whatever
    /// its size (the result is the same either way).
    static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic], readingConcurrently: Bool) -> ManifestFile {
        if readingConcurrently, let split = YAMLSplitPoint.find(in: file),
           let read = decodeInTwoParts(file, at: split, head: KeepingTips(), tail: { KeepingTips() }) {
            return manifest(of: file, root: read.root, parts: [read.head, read.tail], diagnostics: &diagnostics)
        }
        var keeping = KeepingTips()
        let part = decodePart(.whole, of: file, tips: &keeping)
        return manifest(of: file, root: part.outcome.root, parts: [part], diagnostics: &diagnostics)
    }

    /// The manifest of `file` from its root and its parts' declarations (in file order), the
    /// parts' problems reported, then the top level's.
    static func manifest(of file: SourceFile, root read: YAMLNode?, parts: consuming [DecodedPart], diagnostics: inout [Diagnostic]) -> ManifestFile {
        var manifest = ManifestFile(path: file.path, format: .yaml, headRange: headRange(of: file))
        let before = diagnostics.count
        for index in parts.indices {
            // The parts are handed over: their declarations move, the first part's without a copy.
            var declarations = Declarations()
            swap(&declarations, &parts[index].declarations)
            Self.append(&manifest.parameters, declarations.parameters)
            Self.append(&manifest.events, declarations.events)
            Self.append(&manifest.tips, declarations.tips)
            Self.append(&manifest.groups, declarations.groups)
            diagnostics += parts[index].outcome.diagnostics
            diagnostics += parts[index].diagnostics
        }
        var reader = ManifestValueReader(file: file)
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

    /// Appends `more` to `all`, taking `more` itself when `all` is empty.
    private static func append<Element>(_ all: inout [Element], _ more: consuming [Element]) {
        if all.isEmpty { all = more } else { all += more }
    }

    /// The sections whose entries are declarations, decoded one by one as they are read.
    private static let streamedSections: Set<String> = ["parameters", "events", "tips", "groups"]

    /// What decoding does with each tip as soon as it is decoded.
    protocol DecodedTipHandler: Sendable {
        /// The tip to keep in the declarations: `tip` itself, or a stand-in once it is dealt
        /// with. `declarations` are those decoded before it in the same part.
        mutating func take(_ tip: TipDecl, after declarations: Declarations) -> TipDecl
        /// Called once the part is read (a handler that others wait for says so here).
        mutating func partEnded()
    }

    /// Keeps every tip.
    struct KeepingTips: DecodedTipHandler {
        func take(_ tip: TipDecl, after declarations: Declarations) -> TipDecl { tip }
        func partEnded() {}
    }

    /// Declarations in file order.
    struct Declarations: Sendable {
        var parameters: [ParameterDecl] = []
        var events: [EventDecl] = []
        var tips: [TipDecl] = []
        var groups: [GroupDecl] = []
    }

    /// The declarations decoded from one part of a file, and the problems found there.
    struct DecodedPart: Sendable {
        var outcome: YAMLReader.PartOutcome
        var declarations: Declarations
        /// Problems of the declarations' values (the YAML's own are in `outcome`).
        var diagnostics: [Diagnostic]
    }

    /// Reads a part of `file`, decoding each declaration as the reader completes it, so that the
    /// YAML tree never lives whole beside the declarations; each tip goes through `tips`.
    static func decodePart<Tips: DecodedTipHandler>(_ part: YAMLReadPart, of file: SourceFile, tips: inout Tips) -> DecodedPart {
        var declarations = Declarations()
        // Room for as many tips as the part could hold at 128 bytes each, so that the list is
        // not copied as it grows: memory not written to is only reserved, never touched.
        declarations.tips.reserveCapacity(part.bytesRead(in: file).count / 128)
        var reader = ManifestValueReader(file: file)
        let outcome = YAMLReader.readPart(part, of: file, streaming: streamedSections) { section, key, value in
            declare(section: section, key: key, value: value, in: &declarations, reader: &reader, tips: &tips)
        }
        tips.partEnded()
        return DecodedPart(outcome: outcome, declarations: declarations, diagnostics: reader.diagnostics)
    }

    /// Reads and decodes `file` in two parts at once (the head here, the tail on the helper
    /// thread, each decoding what it reads, so that neither frees what the other allocated), or
    /// nil when the parts do not read as the whole file would (see `YAMLReader.join`). Each
    /// part's tips go through its handler (the tail's made on the helper thread).
    static func decodeInTwoParts<Head: DecodedTipHandler, Tail: DecodedTipHandler>(
        _ file: SourceFile, at split: YAMLSplitPoint, head: consuming Head, tail makeTail: @escaping @Sendable () -> Tail
    ) -> (root: YAMLNode, head: DecodedPart, headTips: Head, tail: DecodedPart, tailTips: Tail)? {
        var headTips = head
        let (headPart, tail) = concurrently({ decodePart(.head(split), of: file, tips: &headTips) }, {
            var tailTips = makeTail()
            let part = decodePart(.tail(split), of: file, tips: &tailTips)
            return (part: part, tips: tailTips)
        })
        guard let root = YAMLReader.join(head: headPart.outcome, tail: tail.part.outcome, at: split) else { return nil }
        return (root, headPart, headTips, tail.part, tail.tips)
    }

    /// Decodes one declaration into the manifest.
    private static func declare<Tips: DecodedTipHandler>(section: String, key: YAMLNode, value: YAMLNode, in manifest: inout Declarations,
                                                         reader: inout ManifestValueReader, tips: inout Tips) {
        switch section {
        case "parameters":
            if let parameter = reader.parameter(named: key, value) { manifest.parameters.append(parameter) }
        case "events":
            if let event = reader.event(named: key, value) { manifest.events.append(event) }
        case "tips":
            if let tip = reader.tip(named: key, value) { manifest.tips.append(tips.take(tip, after: manifest)) }
        case "groups":
            if let group = reader.group(named: key, value) { manifest.groups.append(group) }
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
