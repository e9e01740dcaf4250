import TipRuntime

/// Checking experiments: the tip and the goal's event exist, each tip is in at most one
/// experiment, arms have unique names and weights with a positive sum, the baseline (first
/// arm) is not hidden, and an arm's texts are checked as the tip's are and read the same
/// placeholders and parameters as the texts they replace.
extension DeclarationChecker {
    mutating func checkExperiments(_ decls: [ExperimentDecl], tips: [CheckedTip], expressions: inout ExpressionChecker,
                                   texts: inout TextChecker) -> [PackExperiment] {
        var experimentOfTip: [Int: (name: String, range: SourceRange)] = [:]
        var experiments: [PackExperiment] = []
        for decl in decls {
            let name = decl.name.name
            let what = "experiment '\(name)'"
            var tip: Int?
            if let tipName = decl.tip {
                if let index = symbols.tip(tipName.name) {
                    if let other = experimentOfTip[index] {
                        diagnostics.append(Diagnostic(.tipInSeveralExperiments, "tip '\(tipName.name)' is already in experiment '\(other.name)'",
                                                      at: tipName.range, help: "a tip is in at most one experiment: give that one more arms instead",
                                                      notes: [DiagnosticNote("its experiment names it here", at: other.range)]))
                    } else {
                        experimentOfTip[index] = (name, tipName.range)
                        tip = index
                    }
                } else {
                    diagnostics.append(Diagnostic(.unknownTip, "\(what) names no tip: '\(tipName.name)'", at: tipName.range,
                                                  help: Suggestions.didYouMean(tipName.name, in: symbols.tipNames)
                                                      ?? "declare the tip, or fix the name"))
                }
            } else {
                diagnostics.append(Diagnostic(.missingKey, "\(what) names no tip", at: decl.name.range, help: "add the tip it varies: 'tip: NAME'"))
            }
            var goal: PackTipGoal?
            if let declared = decl.goal {
                goal = checkGoal(declared, of: what, expressions: &expressions)
            } else {
                diagnostics.append(Diagnostic(.missingKey, "\(what) has no goal", at: decl.name.range,
                                              help: "add what counts as a conversion: 'goal: EVENT within DURATION'"))
            }
            let arms = checkArms(decl, of: what, tip: tip.map { tips[$0] }, texts: &texts)
            guard let tip, let goal, let arms else { continue }
            experiments.append(PackExperiment(name: name, tip: tip, salt: decl.salt?.value ?? name, goal: goal, arms: arms))
        }
        return experiments
    }

    /// A goal: a declared event (an `unknown-goal-event` otherwise, with a did-you-mean) and a
    /// positive window. `what` names whose goal it is ("tip 't'", "experiment 'e'").
    mutating func checkGoal(_ goal: EventWindowDecl, of what: String, expressions: inout ExpressionChecker) -> PackTipGoal? {
        let eventName = goal.event.name
        guard let event = symbols.event(eventName) else {
            let help = Suggestions.closest(to: eventName, in: symbols.eventNames).map { "did you mean '\($0)'?" }
            diagnostics.append(Diagnostic(.unknownGoalEvent, "the goal of \(what) names no event: '\(eventName)'", at: goal.event.range,
                                          help: help ?? "declare the event under 'events', or fix the name"))
            return nil
        }
        expressions.noteUse(ofEvent: event)
        guard let window = positiveMilliseconds(goal.windowSeconds, "the window of the goal of \(what)") else { return nil }
        return PackTipGoal(event: event, windowMilliseconds: Int64(window))
    }

    /// The arms, or nil when one of them is in error (reported).
    private mutating func checkArms(_ decl: ExperimentDecl, of what: String, tip: CheckedTip?, texts: inout TextChecker) -> [PackExperimentArm]? {
        guard !decl.arms.isEmpty else {
            diagnostics.append(Diagnostic(.missingKey, "\(what) has no arms", at: decl.name.range,
                                          help: "add at least one arm, e.g. 'control: { weight: 1 }' (the tip as declared)"))
            return nil
        }
        let before = diagnostics.count
        var arms: [PackExperimentArm] = []
        var names: [String: SourceRange] = [:]
        var total = 0
        for (offset, arm) in decl.arms.enumerated() {
            guard isFirst(arm.name, in: &names, "\(what) has two arms named '\(arm.name.name)'") else { continue }
            let armWhat = "arm '\(arm.name.name)' of \(what)"
            if offset == 0, let hidden = arm.hidden, hidden.value {
                diagnostics.append(Diagnostic(.hiddenBaseline, "\(armWhat) is its baseline and is hidden", at: hidden.range,
                                              help: "put an arm that shows the tip first; the report compares every arm with the first"))
            }
            guard let weight = arm.weight else {
                diagnostics.append(Diagnostic(.missingKey, "\(armWhat) has no weight", at: arm.name.range,
                                              help: "add its share of the users, e.g. 'weight: 1'"))
                continue
            }
            guard weight.value >= 0 else {
                diagnostics.append(Diagnostic(.invalidValue, "the weight of \(armWhat) is \(weight.value); weights are 0 or more", at: weight.range,
                                              help: "give an arm no users with weight 0"))
                continue
            }
            let (sum, overflow) = total.addingReportingOverflow(weight.value)
            if overflow {
                diagnostics.append(Diagnostic(.invalidValue, "the weights of \(what) add up to more than \(Int.max)", at: weight.range))
            }
            total = overflow ? total : sum
            var packed = PackExperimentArm(name: arm.name.name, weight: Int64(weight.value), isHidden: arm.hidden?.value ?? false)
            if let tip { checkOverrides(arm, of: armWhat, tip: tip, into: &packed, texts: &texts) }
            arms.append(packed)
        }
        if total == 0, decl.arms.allSatisfy({ ($0.weight?.value ?? -1) >= 0 }) {
            diagnostics.append(Diagnostic(.zeroTotalWeight, "the weights of the arms of \(what) add up to 0", at: decl.arms[0].name.range,
                                          help: "give at least one arm a positive weight"))
        }
        return diagnostics[before...].contains { $0.severity == .error } ? nil : arms
    }

    /// An arm's texts, image and actions: each text checked as the tip's texts are (with the
    /// tip's placeholders) and compared with the tip's text it replaces.
    private mutating func checkOverrides(_ arm: ArmDecl, of what: String, tip: CheckedTip, into packed: inout PackExperimentArm,
                                         texts: inout TextChecker) {
        let placeholders = tip.texts?.placeholders ?? []
        var placeholderIndex: [String: Int] = [:]
        for (index, placeholder) in placeholders.enumerated() { placeholderIndex[placeholder.name] = index }
        let tipName = tip.name
        let parameterNames = texts.parameterNames
        var used = Set<Int>()
        func lower(_ text: TextDecl, _ textWhat: String, replacing original: PackLocalizedText?) -> PackLocalizedText {
            let before = texts.diagnostics.count
            let lowered = texts.check(text, what: textWhat, tip: tipName, placeholders: placeholderIndex,
                                      declared: placeholders.map(\.name), used: &used)
            let own = lowered.variants.first?.template.references ?? []
            let expected = original?.variants.first?.template.references ?? []
            // An unknown name is reported already; the mismatch would only repeat it.
            let unknown = texts.diagnostics[before...].contains { $0.code == .unknownPlaceholder || $0.code == .unknownParameter }
            if own != expected, !unknown {
                let spell = { (references: Set<TextTemplate.Segment>) -> [String] in
                    references.map { segment -> String in
                        switch segment {
                        case .placeholder(let index): return "'{\(placeholders[index].name)}'"
                        case .parameter(let index): return "'{$\(parameterNames[index])}'"
                        case .literal: return ""
                        }
                    }.sorted()
                }
                var parts: [String] = []
                let missing = spell(expected.subtracting(own)), extra = spell(own.subtracting(expected))
                if !missing.isEmpty { parts.append("lacks \(missing.joined(separator: ", "))") }
                if !extra.isEmpty { parts.append("reads \(extra.joined(separator: ", ")), which the tip's does not") }
                diagnostics.append(Diagnostic(.armPlaceholderMismatch, "\(textWhat) \(parts.joined(separator: " and "))", at: text.range,
                                              help: "an arm's text reads the same placeholders and parameters as the tip's text it replaces: the app passes the tip's values whatever the arm"))
            }
            return lowered
        }
        let tipTexts = tip.texts
        for attribute in ArmAttributes.overrides {
            switch attribute.value {
            case .text(let path, let packedPath, let replaced):
                guard let text = arm[keyPath: path] else { continue }
                packed[keyPath: packedPath] = lower(text, "the \(attribute.key) of \(what)", replacing: tipTexts?[keyPath: replaced])
            case .image:
                packed.image = arm.image?.value
            case .actions:
                guard let actions = arm.actions else { continue }
                var ids: [String: SourceRange] = [:]
                var packedActions: [PackArmAction] = []
                for action in actions {
                    guard isFirst(action.id, in: &ids, "\(what) has two actions with id '\(action.id.name)'") else { continue }
                    guard let title = action.title else {
                        diagnostics.append(Diagnostic(.missingKey, "action '\(action.id.name)' of \(what) has no title", at: action.id.range))
                        continue
                    }
                    let tipAction = tip.entry.actions.firstIndex { $0.id == action.id.name }
                    let original = tipAction.flatMap { index in
                        tipTexts.flatMap { index < $0.actionTitles.count ? $0.actionTitles[index] : nil }
                    }
                    packedActions.append(PackArmAction(id: action.id.name,
                                                       title: lower(title, "the title of action '\(action.id.name)' of \(what)", replacing: original)))
                }
                packed.actions = packedActions
            case .weight, .flag:
                continue
            }
        }
    }
}
