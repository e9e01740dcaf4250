/// Reading and verifying the optional experiments table: every tip and event index in bounds,
/// each tip in at most one experiment, arms with unique names, weights that make an assignment
/// (zero or more, a positive sum), a baseline (first arm) that is not hidden, unique action ids
/// within an arm, and texts that read only the tip's placeholders and the pack's parameters.
extension PackDecoder {
    func readExperiments(_ reader: inout ByteReader, tips: [PackTip], eventCount: Int, parameterCount: Int,
                         texts: PackTexts?) throws(RulePackError) -> [PackExperiment] {
        let count = try reader.count("experiment count", elementSize: 28)
        var experiments: [PackExperiment] = []
        var names = Set<String>()
        var experimentOfTip: [Int: String] = [:]
        for _ in 0..<count {
            let name = try uniqueName(&reader, "experiment name", &names)
            let what = "experiment '\(name)'"
            let tipOffset = reader.offset
            let tip = Int(try reader.u32("tip of \(what)"))
            guard tip < tips.count else {
                throw RulePackError(.indexOutOfBounds, "\(what) varies tip \(tip); the pack has \(tips.count)", offset: tipOffset)
            }
            if let other = experimentOfTip[tip] {
                throw RulePackError(.malformed, "tip '\(tips[tip].name)' is in experiments '\(other)' and '\(name)'", offset: tipOffset)
            }
            experimentOfTip[tip] = name
            let salt = try string(&reader, "salt of \(what)")
            let goal = try readGoal(&reader, of: what, eventCount: eventCount)
            let placeholderCount = texts?.entry(forTip: tip)?.placeholders.count ?? 0
            let armsOffset = reader.offset
            let armCount = try reader.count("arm count of \(what)", elementSize: 13)
            var arms: [PackExperimentArm] = []
            for _ in 0..<armCount {
                arms.append(try readArm(&reader, of: what, tip: tips[tip].name, placeholders: placeholderCount,
                                        parameters: parameterCount, defaultLocale: texts?.defaultLocale))
            }
            // A weight is 64 bits in the pack; where `Int` has 32 (watchOS), one beyond it is refused
            // here rather than trapping wherever an assignment is made.
            if let wide = arms.first(where: { Int(exactly: $0.weight) == nil }) {
                throw RulePackError(.limitExceeded, "the weight \(wide.weight) of arm '\(wide.name)' of \(what) does not fit in this platform's Int",
                                    offset: armsOffset)
            }
            do throws(ExperimentAssignmentError) {
                _ = try ExperimentAssignment(salt: salt, arms: arms.map { ($0.name, Int($0.weight)) })
            } catch {
                var kind = RulePackError.Kind.malformed
                if case .duplicateArm = error { kind = .duplicateName }
                throw RulePackError(kind, "\(what): \(error)", offset: armsOffset)
            }
            if arms[0].isHidden {
                throw RulePackError(.malformed, "the first arm of \(what), its baseline, is hidden", offset: armsOffset)
            }
            experiments.append(PackExperiment(name: name, tip: tip, salt: salt,
                                              goal: goal, arms: arms))
        }
        return experiments
    }

    private func readArm(_ reader: inout ByteReader, of experiment: String, tip: String, placeholders: Int, parameters: Int,
                         defaultLocale: String?) throws(RulePackError) -> PackExperimentArm {
        let name = try string(&reader, "arm name of \(experiment)")
        let what = "arm '\(name)' of \(experiment)"
        let weightOffset = reader.offset
        let weight = try reader.i64("weight of \(what)")
        guard weight >= 0 else {
            throw RulePackError(.malformed, "\(what) has the weight \(weight); weights are zero or more", offset: weightOffset)
        }
        typealias Flag = RulePackWriter.ArmFlag
        let flags = try self.flags(&reader, "flags of \(what)", known: Flag.known)
        var arm = PackExperimentArm(name: name, weight: weight, isHidden: flags & Flag.hidden != 0)
        func text() throws(RulePackError) -> PackLocalizedText {
            try readText(&reader, tip: tip, placeholders: placeholders, parameters: parameters, defaultLocale: defaultLocale)
        }
        if flags & Flag.title != 0 { arm.title = try text() }
        if flags & Flag.message != 0 { arm.message = try text() }
        if flags & Flag.image != 0 {
            let kindOffset = reader.offset
            let kind = try reader.u8("image kind of \(what)")
            let image = try string(&reader, "image of \(what)")
            switch kind {
            case 1: arm.image = .symbol(image)
            case 2: arm.image = .asset(image)
            default: throw RulePackError(.malformed, "unknown image kind \(kind) of \(what)", offset: kindOffset)
            }
        }
        if flags & Flag.actions != 0 {
            let actionCount = try reader.count("action count of \(what)", elementSize: 8)
            var actions: [PackArmAction] = []
            var ids = Set<String>()
            for _ in 0..<actionCount {
                let id = try uniqueName(&reader, "action id of \(what)", &ids)
                actions.append(PackArmAction(id: id, title: try text()))
            }
            arm.actions = actions
        }
        return arm
    }
}
