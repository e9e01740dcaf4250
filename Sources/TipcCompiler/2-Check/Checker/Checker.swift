import TipRuntime

/// Resolves names and types over a whole program (several files together) and reports every
/// problem in one run: after an error it records the diagnostic and keeps checking.
public enum Checker {
    /// The manifest format version this checker reads.
    public static let formatVersion = 1
    /// The most rules one tip may have (a `limit` error beyond). Real tips have a handful.
    public static let maximumRulesPerTip = 1_000
    /// The most tips one program may have (a `limit` error beyond). Real apps have dozens.
    public static let maximumTipsPerProgram = 100_000

    /// Checks `files` as one program. Returns the checked program, or nil when there are errors
    /// (warnings do not prevent it).
    ///
    /// Each tip's declaration is freed as soon as it is checked when the caller hands over its
    /// last reference to `files`: the syntax tree shrinks while the checked program grows.
    public static func check(_ files: consuming [ManifestFile], diagnostics: inout [Diagnostic]) -> CheckedProgram? {
        var ruleSyntaxDiagnostics: [Diagnostic] = []
        let program = check(consume files, diagnostics: &diagnostics, ruleSyntaxDiagnostics: &ruleSyntaxDiagnostics)
        diagnostics += ruleSyntaxDiagnostics
        return ruleSyntaxDiagnostics.contains { $0.severity == .error } ? nil : program
    }

    /// `check(_:diagnostics:)` for files whose YAML rules may be unparsed (`TipDecl.unparsedRules`):
    /// each is parsed right before it is checked, and the rule parser's diagnostics go to
    /// `ruleSyntaxDiagnostics`, the front end's, ahead of the follow-on filter (they do not make
    /// the result nil). The two-argument form appends them after the checker's, unfiltered.
    public static func check(_ files: consuming [ManifestFile], diagnostics: inout [Diagnostic],
                             ruleSyntaxDiagnostics: inout [Diagnostic]) -> CheckedProgram? {
        var checker = DeclarationChecker()
        let program = checker.check(consume files)
        ruleSyntaxDiagnostics += checker.ruleSyntaxDiagnostics
        diagnostics += checker.diagnostics
        return checker.diagnostics.contains { $0.severity == .error } ? nil : program
    }
}

/// Checks the declarations of a program and drives the expression checker over every rule.
struct DeclarationChecker {
    var diagnostics: [Diagnostic] = []
    /// The rule parser's diagnostics for the rules parsed here (`TipDecl.unparsedRules`).
    var ruleSyntaxDiagnostics: [Diagnostic] = []
    /// The parser of those rules, reused from rule to rule (`reset` sets each rule's file).
    private var ruleParser = RuleParser(reusableFor: 0)
    private(set) var symbols = SymbolTable()

    mutating func check(_ files: consuming [ManifestFile]) -> CheckedProgram {
        let frequency = checkHeaders(files)
        let (defaultLocale, defaultLocaleDeclared) = checkDefaultLocale(files)
        let parameterDecls = files.flatMap(\.parameters)
        let eventDecls = files.flatMap(\.events)
        let groupDecls = files.flatMap(\.groups)

        declareNames(files)
        let tipCount = files.reduce(0) { $0 + $1.tips.count }
        if tipCount > Checker.maximumTipsPerProgram, let extra = files.lazy.flatMap(\.tips).dropFirst(Checker.maximumTipsPerProgram).first {
            diagnostics.append(Diagnostic(.limit, "the program has \(tipCount) tips; at most \(Checker.maximumTipsPerProgram) are allowed",
                                          at: extra.name.range, help: "split the app's tips into several programs"))
        }

        if eventDecls.count > PackFormat.maximumEvents {
            diagnostics.append(Diagnostic(.limit, "the program has \(eventDecls.count) events; a rule pack holds at most \(PackFormat.maximumEvents)",
                                          at: eventDecls[PackFormat.maximumEvents].name.range, help: "split the app's tips into several programs"))
        }
        let parameters = parameterDecls.map { checkParameter($0) }
        let events = eventDecls.map { checkEvent($0) }
        // Every tip's key is known before any rule is checked: `tip(X, key)` reads X's.
        var tipKeys: [PackTipKey?] = []
        tipKeys.reserveCapacity(tipCount)
        for fileIndex in files.indices {
            // Only the key and the name are passed: passing the whole declaration would copy it.
            for index in files[fileIndex].tips.indices {
                tipKeys.append(checkKey(files[fileIndex].tips[index].key, ofTip: files[fileIndex].tips[index].name.name))
            }
        }
        var expressions = ExpressionChecker(symbols: symbols, parameters: parameters, events: events, tipKeys: tipKeys)
        var texts = TextChecker(defaultLocale: defaultLocale, declared: defaultLocaleDeclared, parameters: parameters)
        var tips: [CheckedTip] = []
        tips.reserveCapacity(tipCount)
        var someTipHasTexts = false
        for fileIndex in files.indices {
            // Each declaration is moved out as it is checked, so that it is freed right after:
            // the syntax tree and the checked program never both live whole. Reversed, so that
            // taking the last one out moves it (taking the first would shift the rest).
            var pending = files[fileIndex].tips
            files[fileIndex].tips = []
            pending.withUnsafeMutableBufferPointer { $0.reverse() }  // moves (Array's own swaps copy)
            while let decl = pending.popLast() {
                expressions.currentKey = tips.count < tipKeys.count ? tipKeys[tips.count] : nil
                // Built in place in the array: appending a local copy would copy it (a retain per field).
                tips.append(checkTip(decl, key: expressions.currentKey, defaultLocale: defaultLocale, expressions: &expressions))
                tips[tips.count - 1].texts = texts.check(decl, tipIndex: tips.count - 1)
                if tips[tips.count - 1].texts != nil { someTipHasTexts = true }
            }
        }
        let groups = checkGroups(groupDecls, tipKeys: tipKeys)
        let experiments = checkExperiments(files.flatMap(\.experiments), tips: tips, expressions: &expressions, texts: &texts)
        diagnostics += expressions.diagnostics
        diagnostics += texts.diagnostics
        reportUnused(parameterDecls, eventDecls, used: expressions, usedByTexts: texts.usedParameters)

        let someArmIsLocalized = experiments.contains { $0.arms.contains(where: \.isLocalized) }
        return CheckedProgram(displayFrequency: frequency, parameters: parameters, events: events, tips: tips, groups: groups,
                              defaultLocale: someTipHasTexts || someArmIsLocalized ? defaultLocale : nil, experiments: experiments)
    }

    /// Declares every name, file by file in the order given, so that a duplicate is reported
    /// at the later declaration.
    private mutating func declareNames(_ files: [ManifestFile]) {
        symbols.reserveCapacity(files.reduce(0) { $0 + $1.parameters.count + $1.events.count + $1.tips.count + $1.groups.count + $1.experiments.count })
        var counts = (parameters: 0, events: 0, tips: 0, groups: 0, experiments: 0)
        for file in files {
            for decl in file.parameters {
                _ = symbols.declare(decl.name, as: .parameter, index: counts.parameters, diagnostics: &diagnostics)
                counts.parameters += 1
            }
            for decl in file.events {
                _ = symbols.declare(decl.name, as: .event, index: counts.events, diagnostics: &diagnostics)
                counts.events += 1
            }
            let tips = ContiguousArray(file.tips)  // read in place, see `check`
            for index in tips.indices {
                _ = symbols.declare(tips[index].name, as: .tip, index: counts.tips, diagnostics: &diagnostics)
                counts.tips += 1
            }
            for decl in file.groups {
                _ = symbols.declare(decl.name, as: .group, index: counts.groups, diagnostics: &diagnostics)
                counts.groups += 1
            }
            for decl in file.experiments {
                _ = symbols.declare(decl.name, as: .experiment, index: counts.experiments, diagnostics: &diagnostics)
                counts.experiments += 1
            }
        }
    }

    // MARK: - File headers

    private mutating func checkHeaders(_ files: [ManifestFile]) -> DisplayFrequencySpec {
        var frequency: Located<DisplayFrequencySpec>?
        for file in files {
            if let version = file.version {
                if version.value != Checker.formatVersion {
                    diagnostics.append(Diagnostic(.invalidValue, "unsupported format version \(version.value)", at: version.range,
                                                  help: "this tipc reads format version \(Checker.formatVersion)"))
                }
            } else {
                let key = file.format == .yaml ? "'tipkit: \(Checker.formatVersion)'" : "'tipkit \(Checker.formatVersion)'"
                diagnostics.append(Diagnostic(.missingKey, "missing format version", at: file.headRange,
                                              help: "start the file with \(key)"))
            }
            guard let declared = file.displayFrequency else { continue }
            if case .custom(let seconds) = declared.value, seconds <= 0 {
                diagnostics.append(Diagnostic(.invalidDuration, "display frequency must be a positive duration", at: declared.range,
                                              help: "write 'immediate' for no gap between tips"))
            } else if case .custom(let seconds) = declared.value, Milliseconds.from(seconds: seconds) == nil {
                diagnostics.append(Diagnostic(.invalidDuration, "display frequency is too large", at: declared.range,
                                              help: "the gap in milliseconds must fit in 64 bits (at most about 292 million years)"))
            }
            if let first = frequency {
                if first.value != declared.value {
                    diagnostics.append(Diagnostic(.invalidValue, "display frequency is declared differently in two files", at: declared.range,
                                                  notes: [DiagnosticNote("first declared here", at: first.range)]))
                }
            } else {
                frequency = declared
            }
        }
        return frequency?.value ?? .immediate
    }

    // MARK: - Parameters

    private mutating func checkParameter(_ decl: ParameterDecl) -> PackParameter {
        let name = decl.name.name
        guard let type = decl.type?.value else {
            if decl.type == nil, !decl.hasUnknownType {
                diagnostics.append(Diagnostic(.missingKey, "parameter '\(name)' has no type", at: decl.name.range,
                                              help: "declare one of: bool, int, double, string, date, duration"))
            }
            return PackParameter(name: name, type: .bool, defaultValue: .bool(false), values: nil, isTransient: decl.isTransient)
        }
        var values: [String]?
        if let declared = decl.values {
            if type != .string {
                diagnostics.append(Diagnostic(.invalidValue, "'values' is only allowed on string parameters", at: declared.first?.range ?? decl.name.range))
            } else if declared.isEmpty {
                diagnostics.append(Diagnostic(.invalidValue, "'values' of parameter '\(name)' is empty", at: decl.name.range,
                                              help: "list the values the parameter may take, or remove 'values'"))
            } else {
                var seen: [String: SourceRange] = [:]
                for value in declared {
                    if let first = seen[value.value] {
                        diagnostics.append(Diagnostic(.invalidValue, "'\(value.value)' is listed twice in 'values'", at: value.range,
                                                      notes: [DiagnosticNote("first listed here", at: first)]))
                    } else {
                        seen[value.value] = value.range
                    }
                }
                values = declared.map(\.value)
            }
        }
        var defaultValue = RuntimeValue.zero(of: type)
        if let literal = decl.defaultValue {
            if case .double(let number)? = RuntimeValue.converting(literal.value, to: type), !number.isFinite {
                // A rule compares against it, and NaN or ∞ compares as nothing a user means; packs
                // and the runtime hold finite Doubles only (as payloads must be).
                diagnostics.append(Diagnostic(.invalidValue, "default of parameter '\(name)' must be a finite number", at: literal.range,
                                              help: "write a finite number such as \(RuntimeValue.example(of: type))"))
            } else if let value = RuntimeValue.converting(literal.value, to: type) {
                defaultValue = value
                if let values, case .string(let text) = value, !values.contains(text) {
                    diagnostics.append(Diagnostic(.invalidValue, "default '\(text)' of parameter '\(name)' is not one of its values", at: literal.range,
                                                  help: Suggestions.didYouMean(text, in: values) ?? "allowed: \(values.joined(separator: ", "))"))
                }
            } else {
                var help = "write \(EnglishText.withArticle(type.manifestSpelling)) such as \(RuntimeValue.example(of: type))"
                if case .string(let text) = literal.value, [.bool, .int, .double].contains(type),
                   let unquoted = Self.unquoted(text), RuntimeValue.converting(unquoted, to: type) != nil {
                    help = ManifestValueReader.unquoteHelp(text)
                }
                diagnostics.append(Diagnostic(.invalidValue, "default of parameter '\(name)' is not a valid \(type.manifestSpelling)", at: literal.range,
                                              help: help))
            }
        } else {
            diagnostics.append(Diagnostic(.missingKey, "parameter '\(name)' has no default", at: decl.name.range,
                                          help: "every parameter needs a default value, e.g. \(RuntimeValue.example(of: type))"))
        }
        return PackParameter(name: name, type: type, defaultValue: defaultValue, values: values, isTransient: decl.isTransient)
    }

    // MARK: - Events

    private mutating func checkEvent(_ decl: EventDecl) -> PackEvent {
        var fields: [PackField] = []
        var seen: [String: SourceRange] = [:]
        for field in decl.fields {
            guard isFirst(field.name, in: &seen, "duplicate field '\(field.name.name)' in event '\(decl.name.name)'") else { continue }
            guard let type = field.type else {
                if !field.hasUnknownType {
                    diagnostics.append(Diagnostic(.missingKey, "field '\(field.name.name)' has no type", at: field.name.range))
                }
                continue
            }
            fields.append(PackField(name: field.name.name, type: type.value))
        }
        if fields.count > PackFormat.maximumFields {
            diagnostics.append(Diagnostic(.limit, "event '\(decl.name.name)' has \(fields.count) payload fields; a rule pack holds at most \(PackFormat.maximumFields)",
                                          at: decl.fields[PackFormat.maximumFields].name.range, help: "split the payload over several events"))
        }
        var maximumCount: Int?
        var maximumAge: Int?
        if let limit = decl.donationLimit {
            if let count = limit.maximumCount {
                if count.value < 1 {
                    diagnostics.append(Diagnostic(.invalidValue, "maximumCount must be at least 1, found \(count.value)", at: count.range))
                } else {
                    maximumCount = count.value
                }
            }
            if let age = limit.maximumAgeSeconds {
                maximumAge = positiveMilliseconds(age, "maximumAge")
            }
        }
        return PackEvent(name: decl.name.name, fields: fields, maximumCount: maximumCount.map(Int64.init),
                         maximumAgeMilliseconds: maximumAge.map(Int64.init))
    }

    /// Records `name` in `seen`; a name seen before is a `duplicate-name` error (with a note at
    /// the first) and false.
    mutating func isFirst(_ name: Identifier, in seen: inout [String: SourceRange], _ message: String) -> Bool {
        if let first = seen[name.name] {
            diagnostics.append(Diagnostic(.duplicateName, message, at: name.range,
                                          notes: [DiagnosticNote("first declared here", at: first)]))
            return false
        }
        seen[name.name] = name.range
        return true
    }

    /// A declared duration (whole seconds) that must be positive, in milliseconds; nil, with an
    /// `invalid-duration` error, when it is not positive or too large.
    mutating func positiveMilliseconds(_ seconds: Located<Int>, _ key: String) -> Int? {
        guard seconds.value > 0 else {
            diagnostics.append(Diagnostic(.invalidDuration, "\(key) must be a positive duration", at: seconds.range))
            return nil
        }
        guard let milliseconds = Milliseconds.from(seconds: seconds.value) else {
            diagnostics.append(Diagnostic(.invalidDuration, "\(key) is too large", at: seconds.range))
            return nil
        }
        return milliseconds
    }

    // MARK: - Tips

    /// A tip's key (format 2): Int or String.
    private mutating func checkKey(_ key: TipKeyDecl?, ofTip tipName: String) -> PackTipKey? {
        guard let key else { return nil }
        // A key without a type was reported by the front end.
        guard let type = key.type else { return nil }
        guard type.value == .int || type.value == .string else {
            diagnostics.append(Diagnostic(.invalidValue, "the key of tip '\(tipName)' is \(type.value.tipsSpelling); a key is Int or String",
                                          at: type.range))
            return nil
        }
        return PackTipKey(name: key.name.name, type: type.value)
    }

    private mutating func checkTip(_ decl: TipDecl, key: PackTipKey?, defaultLocale: String?, expressions: inout ExpressionChecker) -> CheckedTip {
        let name = decl.name.name
        var title = ""
        if let declaredText = decl.title {
            if let declared = declaredText.plainText {
                // A title starting with a visible ASCII character is not blank; only others are
                // checked character by character.
                let startsVisibly = declared.value.utf8.first.map { $0 > 0x20 && $0 < 0x7F } ?? false
                if !startsVisibly, declared.value.allSatisfy(\.isWhitespace) {
                    diagnostics.append(Diagnostic(.invalidValue, "title of tip '\(name)' is empty", at: declared.range))
                }
            }
            title = Self.tableText(declaredText, defaultLocale: defaultLocale)
        } else {
            diagnostics.append(Diagnostic(.missingKey, "tip '\(name)' has no title", at: decl.name.range,
                                          help: "every tip needs a title, the text users read first"))
        }
        var actions: [PackAction] = []
        var actionIDs: [String: SourceRange] = [:]
        for action in decl.actions {
            guard isFirst(action.id, in: &actionIDs, "tip '\(name)' has two actions with id '\(action.id.name)'") else { continue }
            guard let actionTitle = action.title else {
                diagnostics.append(Diagnostic(.missingKey, "action '\(action.id.name)' has no title", at: action.id.range))
                continue
            }
            actions.append(PackAction(id: action.id.name, title: Self.tableText(actionTitle, defaultLocale: defaultLocale)))
        }
        var maxDisplayCount: Int64?
        if let count = decl.maxDisplayCount {
            if count.value < 1 {
                diagnostics.append(Diagnostic(.invalidValue, "maxDisplayCount must be at least 1, found \(count.value)", at: count.range,
                                              help: "leave it out for no limit"))
            } else {
                maxDisplayCount = Int64(count.value)
            }
        }
        var maxDuration: Int64?
        if let duration = decl.maxDisplayDurationSeconds {
            maxDuration = positiveMilliseconds(duration, "maxDisplayDuration").map(Int64.init)
        }
        let goal = decl.goal.flatMap { checkGoal($0, of: "tip '\(name)'", expressions: &expressions) }
        assert(decl.rules.isEmpty || decl.unparsedRules.isEmpty, "a tip's rules are parsed or left to the checker, not both")
        let ruleCount = decl.rules.count + decl.unparsedRules.count
        if ruleCount > Checker.maximumRulesPerTip {
            diagnostics.append(Diagnostic(.limit, "tip '\(name)' has \(ruleCount) rules; at most \(Checker.maximumRulesPerTip) are allowed",
                                          at: decl.name.range, help: "combine rules with 'and' or 'or'"))
        }
        let written = ContiguousArray(decl.rules)  // read in place, see `check`
        var rules: [CheckedExpression] = []
        rules.reserveCapacity(min(ruleCount, Checker.maximumRulesPerTip))
        expressions.startTip()
        for index in written.indices.prefix(Checker.maximumRulesPerTip) { rules.append(expressions.checkRule(written[index])) }
        // A rule left unparsed is parsed right before it is checked; one past the limit is only
        // parsed, for its syntax errors, as the decoder would have.
        for unparsed in decl.unparsedRules {
            let rule = unparsed.parsed(reusing: &ruleParser, diagnostics: &ruleSyntaxDiagnostics)
            if rules.count < Checker.maximumRulesPerTip { rules.append(expressions.checkRule(rule)) }
        }
        var tip = CheckedTip(name: name, title: title, message: decl.message.map { Self.tableText($0, defaultLocale: defaultLocale) },
                             image: decl.image?.value, actions: actions,
                             maxDisplayCount: maxDisplayCount, maxDisplayDurationMilliseconds: maxDuration,
                             ignoresDisplayFrequency: decl.ignoresDisplayFrequency?.value ?? false, rules: rules, range: decl.name.range,
                             key: key, goal: goal)
        tip.rulesMayFold = expressions.builtFoldableNode
        return tip
    }

    // MARK: - Groups

    private mutating func checkGroups(_ decls: [GroupDecl], tipKeys: [PackTipKey?]) -> [PackGroup] {
        var membership: [String: (group: String, range: SourceRange)] = [:]
        var groups: [PackGroup] = []
        for decl in decls {
            if decl.tips.isEmpty {
                diagnostics.append(Diagnostic(.invalidValue, "group '\(decl.name.name)' has no tips", at: decl.name.range))
            }
            var indexes: [Int] = []
            for tip in decl.tips {
                guard let index = symbols.tip(tip.name) else {
                    diagnostics.append(Diagnostic(.unknownTip, "no tip named '\(tip.name)'", at: tip.range,
                                                  help: Suggestions.didYouMean(tip.name, in: symbols.tipNames)))
                    continue
                }
                if let other = membership[tip.name] {
                    let message = other.group == decl.name.name
                        ? "tip '\(tip.name)' is listed twice in group '\(decl.name.name)'"
                        : "tip '\(tip.name)' is already in group '\(other.group)'"
                    diagnostics.append(Diagnostic(.invalidValue, message, at: tip.range,
                                                  help: "a tip belongs to at most one group",
                                                  notes: [DiagnosticNote("listed first here", at: other.range)]))
                    continue
                }
                if index < tipKeys.count, tipKeys[index] != nil {
                    diagnostics.append(Diagnostic(.keyedGroupMember, "tip '\(tip.name)' has a key, so it cannot be in group '\(decl.name.name)'", at: tip.range,
                                                  help: "each key value is its own instance; a group lists tips without a key"))
                    continue
                }
                membership[tip.name] = (decl.name.name, tip.range)
                indexes.append(index)
            }
            groups.append(PackGroup(name: decl.name.name, priority: decl.priority?.value ?? .firstAvailable, tips: indexes))
        }
        return groups
    }

    // MARK: - Unused declarations

    /// Warns about parameters and events no rule uses. Skipped when a rule names something
    /// unknown: the "unused" declaration is then most likely the one the typo meant.
    private mutating func reportUnused(_ parameters: [ParameterDecl], _ events: [EventDecl], used: ExpressionChecker, usedByTexts: Set<Int>) {
        let unresolved: Set<DiagnosticCode> = [.unknownParameter, .unknownEvent, .unknownField]
        if used.diagnostics.contains(where: { unresolved.contains($0.code) }) { return }
        for (index, decl) in parameters.enumerated() where !used.usedParameters[index] && !usedByTexts.contains(index) {
            diagnostics.append(Diagnostic(.unused, "parameter '\(decl.name.name)' is not used by any rule", at: decl.name.range,
                                          help: "use it in a rule as '$\(NameSyntax.spelling(ofMember: decl.name.name))', or remove it"))
        }
        for (index, decl) in events.enumerated() where !used.usedEvents[index] {
            diagnostics.append(Diagnostic(.unused, "event '\(decl.name.name)' is not used by any rule", at: decl.name.range,
                                          help: "use it in a rule (e.g. '\(NameSyntax.spelling(ofName: decl.name.name)).count >= 1'), or remove it"))
        }
    }
}

extension DeclarationChecker {
    /// The Bool or number a quoted default would be without its quotes (`"3"` → 3), if any.
    static func unquoted(_ text: String) -> Literal? {
        if let bool = ManifestScalars.bool(text) { return .bool(bool) }
        if let integer = ManifestScalars.integer(text) { return integer.map(Literal.int) }
        return ManifestScalars.double(text).map(Literal.double)
    }
}
