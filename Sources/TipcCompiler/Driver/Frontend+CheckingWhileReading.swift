/// `tipc check` of one large YAML file with each tip checked, folded for constant errors and
/// linted as soon as it is decoded, on the thread that decoded it (see `TipPrechecker`): the
/// syntax tree and the checked program never live whole, and nothing walks them again.
extension Frontend {
    /// What checking while reading found; nil from `checkedWhileReading` when it does not apply.
    struct CheckedWhileReading {
        var frontEndDiagnostics: [Diagnostic]
        var checkerDiagnostics: [Diagnostic]
        /// The constant errors and lints' warnings; nil when the checker found errors.
        var findings: LateFindings?
    }

    /// Checks `source` while reading it, or returns nil when that does not apply: not a YAML
    /// file of at least `ManifestDecoder.concurrentReadingThreshold` bytes with a split point,
    /// a YAML problem (the file is then read whole, as always), or parameters or events declared
    /// after the first tip (its tips were checked without them). The caller then checks the
    /// ordinary way, with exactly the same results.
    static func checkedWhileReading(_ source: SourceFile) -> CheckedWhileReading? {
        guard !source.path.hasSuffix(".tips"), source.bytes.count >= ManifestDecoder.concurrentReadingThreshold,
              let split = YAMLSplitPoint.find(in: source) else { return nil }
        let announcement = Handoff<TipContext?>()
        guard let read = ManifestDecoder.decodeInTwoParts(source, at: split, head: PrecheckingHeadTips(announcement: announcement),
                                                          tail: { PrecheckingTailTips(announcement: announcement) }) else { return nil }
        let head = read.headTips, tail = read.tailTips
        var tailPart = read.tail
        if !tail.uncheckedWaitingTips.isEmpty {
            // Tips kept as stand-ins while waiting for nothing to check them against go back
            // whole (rare: only then are the part's tips copied).
            tailPart.declarations.tips.replaceSubrange(0..<tail.uncheckedWaitingTips.count, with: tail.uncheckedWaitingTips)
        }
        if let declaredBefore = head.declaredBefore {
            // Every parameter and event was declared before the first tip.
            guard declaredBefore == (read.head.declarations.parameters.count, read.head.declarations.events.count),
                  read.tail.declarations.parameters.isEmpty, read.tail.declarations.events.isEmpty else { return nil }
        }
        let prechecked = [head.prechecker?.findings, tail.prechecker?.findings].compactMap { $0 }
        var frontEnd: [Diagnostic] = []
        let manifest = ManifestDecoder.manifest(of: source, root: read.root, parts: [read.head, tailPart], diagnostics: &frontEnd)
        var checker: [Diagnostic] = []
        let (program, collectors) = Checker.check([manifest], diagnostics: &checker, handingTipsTo: { LateFindings.Collector(parameters: $0) },
                                                  prechecked: prechecked.isEmpty ? nil : prechecked)
        let findings = program == nil ? nil : LateFindings(joining: collectors)
        return CheckedWhileReading(frontEndDiagnostics: frontEnd, checkerDiagnostics: checker, findings: findings)
    }

    /// The parameters and events tips are checked against.
    struct TipContext: Sendable {
        var parameters: [ParameterDecl]
        var events: [EventDecl]

        /// A checker of tips against them, whose checked tips go to the later passes.
        func prechecker() -> TipPrechecker<LateFindings.Collector> {
            TipPrechecker(parameters: parameters, events: events, makeOutput: { LateFindings.Collector(parameters: $0) })
        }
    }

    /// The first part's tips: checked from the first one on, against the parameters and events
    /// decoded before it, which the second part is told (or told that there are no tips here).
    private struct PrecheckingHeadTips: ManifestDecoder.DecodedTipHandler {
        let announcement: Handoff<TipContext?>
        var prechecker: TipPrechecker<LateFindings.Collector>?
        /// How many parameters and events were declared before the first tip.
        var declaredBefore: (parameters: Int, events: Int)?

        init(announcement: Handoff<TipContext?>) {
            self.announcement = announcement
        }

        mutating func take(_ tip: TipDecl, after declarations: ManifestDecoder.Declarations) -> TipDecl {
            if prechecker == nil {
                let context = TipContext(parameters: declarations.parameters, events: declarations.events)
                prechecker = context.prechecker()
                declaredBefore = (declarations.parameters.count, declarations.events.count)
                announcement.put(context)
            }
            return prechecker!.check(tip)
        }

        mutating func partEnded() {
            if prechecker == nil { announcement.put(nil) }
        }
    }

    /// The second part's tips: checked against what the first part announces, or kept when it
    /// has no tips. Until the announcement comes, decoded tips wait (the first part is still
    /// reading the parameters and events), and reading goes on.
    struct PrecheckingTailTips: ManifestDecoder.DecodedTipHandler {
        let announcement: Handoff<TipContext?>
        var prechecker: TipPrechecker<LateFindings.Collector>?
        private var heard = false
        /// Tips decoded before the announcement, in order; each was kept as a stand-in.
        private var waiting: [TipDecl] = []
        /// The tips that waited, whole, when the first part then had no tips to check them
        /// against: they take the place of their stand-ins, the first of the part's tips (see
        /// `checkedWhileReading`), and the program's checker checks them.
        private(set) var uncheckedWaitingTips: [TipDecl] = []

        init(announcement: Handoff<TipContext?>) {
            self.announcement = announcement
        }

        mutating func take(_ tip: TipDecl, after declarations: ManifestDecoder.Declarations) -> TipDecl {
            if !heard {
                guard let context = announcement.takeIfPut() else {
                    waiting.append(tip)
                    return TipPrechecker<LateFindings.Collector>.standIn(for: tip)
                }
                hear(context)
            }
            guard prechecker != nil else { return tip }
            return prechecker!.check(tip)
        }

        mutating func partEnded() {
            if !heard { hear(announcement.take()) }
        }

        /// Takes in the announcement, and checks the tips that waited for it.
        private mutating func hear(_ context: TipContext?) {
            heard = true
            prechecker = context?.prechecker()
            guard !waiting.isEmpty else { return }
            if prechecker == nil {
                uncheckedWaitingTips = waiting
            } else {
                for tip in waiting { _ = prechecker!.check(tip) }
            }
            waiting = []
        }
    }
}
