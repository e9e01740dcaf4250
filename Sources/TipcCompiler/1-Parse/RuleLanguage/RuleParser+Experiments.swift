import TipRuntime

/// `experiment NAME on TIP { … }` in `.tips` files: one attribute of `ExperimentAttributes`
/// per line, one `arm NAME WEIGHT [hidden] [{ … }]` line per arm, the arm's overrides inside
/// its braces spelled as a tip's attributes.
extension RuleParser {
    mutating func parseExperiment(start: Int, comments: [String]) -> ExperimentDecl? {
        guard let name = parseName("an experiment") else { return nil }
        var experiment = ExperimentDecl(name: name, comments: comments, range: range(since: start))
        // The tip, in the head line (without it the checker reports a missing tip).
        for attribute in ExperimentAttributes.all {
            guard case .tip = attribute.value, let word = attribute.tipsWord, isAtAttributeWord(word) else { continue }
            advance()
            guard let tip = parseName("a tip") else { return nil }
            experiment.tip = tip
        }
        let opening = index
        guard expect(.leftBrace, experiment.tip == nil ? "'on' and the tip's name, or '{' to start the experiment" : "'{' to start the experiment")
        else { return nil }
        var seen: [String: SourceRange] = [:]
        while current.kind != .rightBrace {
            if isAtEnd || (current.isAtLineStart && current.kind == .identifier && DeclarationKeywords.topLevel.contains(text(of: current))) {
                reportExpected("'}' to close experiment '\(name.name)'",
                               notes: [DiagnosticNote("the experiment starts here", at: range(ofToken: opening))])
                experiment.range = range(since: start)
                return experiment
            }
            let itemStart = index
            if parseExperimentAttribute(into: &experiment, seen: &seen) {
                expectEndOfLine(allowingBrace: true)
            } else {
                if index == itemStart { advance() }
                skipRestOfItem()
            }
        }
        advance()
        experiment.range = range(since: start)
        return experiment
    }

    /// After an error: skips the rest of the line, and an arm's braces if they open on it.
    private mutating func skipRestOfItem() {
        var braces = 0
        while !isAtEnd {
            if braces == 0, current.isAtLineStart || current.kind == .rightBrace { return }
            if current.kind == .leftBrace { braces += 1 }
            if current.kind == .rightBrace { braces -= 1 }
            advance()
        }
    }

    /// Parses one line of an experiment; false when it did not parse (reported).
    private mutating func parseExperimentAttribute(into experiment: inout ExperimentDecl, seen: inout [String: SourceRange]) -> Bool {
        let start = index
        let words = ExperimentAttributes.lineWords
        guard let (attribute, word) = attributeWord(expected: "an experiment attribute (\(Self.list(words, or: "or")))", of: "experiment",
                                                   words: words, otherwise: "the attributes are \(Self.list(words, or: "and"))",
                                                   find: ExperimentAttributes.attribute(tipsWord:)) else {
            return false
        }
        switch attribute.value {
        case .tip:
            report(.syntax, "the tip is written in the experiment's first line", at: range(ofToken: start),
                   help: "write 'experiment \(NameSyntax.spelling(ofName: experiment.name.name)) on TIP {'")
            return false
        case .arms:
            guard let arm = parseArm(start: start) else { return false }
            experiment.arms.append(arm)
            return true  // one line per arm
        case .eventWindow(let path):
            guard let window = parseEventWindow(attribute.key) else { return false }
            experiment[keyPath: path] = window
        case .string(let path):
            guard let text = parseString(attribute.expected) else { return false }
            experiment[keyPath: path] = text
        }
        noteAttributeLine(word, from: start, seen: &seen)
        return true
    }

    /// `NAME WEIGHT`, then the words of `ArmAttributes`' flags, then the overrides in braces,
    /// after the word `arm`.
    private mutating func parseArm(start: Int) -> ArmDecl? {
        guard let name = parseName("an arm") else { return nil }
        var arm = ArmDecl(name: name, range: range(since: start))
        var overrides: [DeclarationAttribute<ArmAttributeValue, PackExperimentArm>] = []
        for attribute in ArmAttributes.all {
            switch attribute.value {
            case .weight:
                guard let weight = parseInteger(attribute.expected) else { return nil }
                arm.weight = weight
            case .flag(let path):
                guard let word = attribute.tipsWord, isAtAttributeWord(word) else { continue }
                let wordIndex = index
                advance()
                arm[keyPath: path] = Located(true, at: range(ofToken: wordIndex))
            case .text, .image, .actions:
                overrides.append(attribute)
            }
        }
        if current.kind == .leftBrace, !current.isAtLineStart {
            let opening = index
            advance()
            var seen: [String: SourceRange] = [:]
            while current.kind != .rightBrace {
                if isAtEnd || (current.isAtLineStart && current.kind == .identifier
                    && (DeclarationKeywords.topLevel.contains(text(of: current)) || ExperimentAttributes.lineWords.contains(text(of: current)))) {
                    reportExpected("'}' to close arm '\(name.name)'", notes: [DiagnosticNote("the arm starts here", at: range(ofToken: opening))])
                    arm.range = range(since: start)
                    return arm
                }
                let itemStart = index
                if parseArmOverride(into: &arm, rows: overrides, seen: &seen) {
                    expectEndOfLine(allowingBrace: true)
                } else {
                    if index == itemStart { advance() }
                    while !isAtEnd, !current.isAtLineStart, current.kind != .rightBrace { advance() }
                }
            }
            advance()
        }
        arm.range = range(since: start)
        return arm
    }

    /// One override line inside an arm's braces, spelled as the tip attribute it replaces.
    private mutating func parseArmOverride(into arm: inout ArmDecl, rows: [DeclarationAttribute<ArmAttributeValue, PackExperimentArm>],
                                           seen: inout [String: SourceRange]) -> Bool {
        let start = index
        let words = rows.compactMap(\.tipsWord)
        // `no actions`: the arm replaces the tip's buttons with none.
        if current.kind == .identifier, text(of: current) == ArmAttributes.noActionsWords.0, token(after: 1).kind == .identifier,
           text(of: token(after: 1)) == ArmAttributes.noActionsWords.1 {
            advance()
            advance()
            arm.actions = arm.actions ?? []
            return true
        }
        guard let (attribute, word) = attributeWord(expected: "what the arm shows instead of the tip's (\(Self.list(words, or: "or")))",
                                                   of: "arm", words: words, otherwise: "an arm overrides \(Self.list(words, or: "and"))",
                                                   find: { word in rows.first { $0.tipsWord == word } }) else {
            return false
        }
        switch attribute.value {
        case .text(let path, _, _):
            guard let text = parseText(attribute.expected) else { return false }
            arm[keyPath: path] = text
        case .image:
            guard let image = parseImage(attribute.expected) else { return false }
            arm.image = image
        case .actions:
            guard let action = parseAction(attribute.expected) else { return false }
            arm.actions = (arm.actions ?? []) + [action]
            return true  // one line per action
        case .weight, .flag:
            return false  // written in the `arm` line
        }
        noteAttributeLine(word, from: start, seen: &seen)
        return true
    }
}
