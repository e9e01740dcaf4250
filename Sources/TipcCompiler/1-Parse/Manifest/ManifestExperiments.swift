import TipRuntime

/// Decoding of experiments and their arms: each key is a row of `ExperimentAttributes` or
/// `ArmAttributes`, and an arm's texts, image and actions are read as a tip's are.
extension ManifestValueReader {
    mutating func experiment(named key: YAMLNode, _ node: YAMLNode) -> ExperimentDecl? {
        guard !node.isTruncated, let name = identifier(key, for: "an experiment") else { return nil }
        let what = "experiment '\(name.name)'"
        var experiment = ExperimentDecl(name: name, comments: comments(above: key.range.start.line), range: declarationRange(key, node))
        for (attribute, pair) in entries(of: node, for: what, table: ExperimentAttributes.self) {
            switch attribute.value {
            case .tip:
                experiment.tip = identifier(pair.value, for: "the tip of \(what)")
            case .arms:
                for (_, armPair) in entries(of: pair.value, for: "the arms of \(what)", allowed: nil) {
                    if let arm = arm(named: armPair.key, armPair.value, of: what) { experiment.arms.append(arm) }
                }
            case .eventWindow(let path):
                experiment[keyPath: path] = eventWindow(pair.value, for: "'\(attribute.key)' of \(what)")
            case .string(let path):
                experiment[keyPath: path] = text(pair.value, for: "'\(attribute.key)' of \(what)")
            }
        }
        return experiment
    }

    private mutating func arm(named key: YAMLNode, _ node: YAMLNode, of experiment: String) -> ArmDecl? {
        guard !node.isTruncated, let name = identifier(key, for: "an arm of \(experiment)") else { return nil }
        let what = "arm '\(name.name)' of \(experiment)"
        var arm = ArmDecl(name: name, range: declarationRange(key, node))
        for (attribute, pair) in entries(of: node, for: what, table: ArmAttributes.self) {
            let value = pair.value
            switch attribute.value {
            case .weight: arm.weight = integer(value, for: "the weight of \(what)")  // the checker refuses a negative one
            case .flag(let path): arm[keyPath: path] = bool(value, for: "'\(attribute.key)' of \(what)")
            case .text(let path, _, _): arm[keyPath: path] = localizedText(value, for: "the \(attribute.key) of \(what)")
            case .image: arm.image = image(value, for: what)
            case .actions: arm.actions = actions(value, for: what)
            }
        }
        return arm
    }
}
