import TipRuntime

/// Lowers a checked program to a rule pack: constant folding, then bytecode per rule, plus the
/// tables. Deterministic: the same program always gives the same pack (and bytes).
public enum RulePackCompiler {
    /// The pack of `program`, or nil when lowering found errors (constant overflow, division by
    /// zero, format limits), which are appended to `diagnostics`.
    public static func compile(_ program: CheckedProgram, diagnostics: inout [Diagnostic]) -> RulePack? {
        var strings = ConstantStrings()
        var errors: [Diagnostic] = []
        var tips: [PackTip] = []
        for tip in program.tips {
            var rules: [RuleProgram] = []
            for rule in tip.rules {
                var folder = ConstantFolder()
                let folded = folder.fold(rule)
                errors += folder.diagnostics
                var lowering = RuleLowering(strings: strings)
                lowering.lower(folded)
                lowering.emit(.ret, at: rule.range)
                errors += lowering.diagnostics
                strings = lowering.strings
                rules.append(RuleProgram(code: lowering.code, range: packRange(rule.range), sourceMap: lowering.sourceMap))
            }
            var entry = tip.entry
            entry.rules = rules
            tips.append(entry)
        }
        diagnostics += errors
        if !errors.isEmpty { return nil }
        let seconds = Int64(program.displayFrequency.seconds)
        let (frequency, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return RulePack(
            strings: strings.strings,
            displayFrequencyMilliseconds: overflow ? .max : frequency,
            parameters: program.parameters,
            events: program.events,
            tips: tips,
            groups: program.groups,
            texts: texts(of: program),
            producer: TipcVersion.producer,
            experiments: program.experiments)
    }

    /// The texts: nil when no tip's texts are localized or templates (the table is then empty,
    /// and the pack's model equals a format-1 pack's of the same program).
    private static func texts(of program: CheckedProgram) -> PackTexts? {
        let entries = program.tips.compactMap(\.texts)
        // Without entries, a default locale is there only for experiments' localized arms.
        return entries.isEmpty && program.defaultLocale == nil ? nil : PackTexts(defaultLocale: program.defaultLocale, tips: entries)
    }

    /// The compile errors of constant sub-expressions (overflow, division by zero) without
    /// lowering anything: what `tipc check` reports beyond the checker.
    public static func constantErrors(_ program: CheckedProgram) -> [Diagnostic] {
        var folder = ConstantFolder()
        // Tips and rules are read in place: through an Array, each one would be copied (a
        // retain and a release of each of its parts); through the same storage seen as a
        // ContiguousArray (no copy is made), it is not.
        let tips = ContiguousArray(program.tips)
        for tipIndex in tips.indices { folder.reportErrors(in: tips[tipIndex]) }
        return folder.diagnostics
    }

    /// Compiles and encodes in one step: the bytes of `tipc compile -o`.
    public static func compileToBytes(_ program: CheckedProgram, diagnostics: inout [Diagnostic]) -> [UInt8]? {
        compile(program, diagnostics: &diagnostics).map(fileBytes)
    }

    /// The bytes of a pack file: `pack` without its source positions, encoded; the same for one
    /// program whatever folder it is compiled from and whichever front end it is written in.
    public static func fileBytes(_ pack: RulePack) -> [UInt8] {
        RulePackWriter.encode(pack.withoutSourcePositions)
    }

    static func packRange(_ range: SourceRange) -> PackSourceRange {
        PackSourceRange(file: range.file, startLine: Int32(clamping: range.start.line), startColumn: Int32(clamping: range.start.column),
                        endLine: Int32(clamping: range.end.line), endColumn: Int32(clamping: range.end.column))
    }
}
