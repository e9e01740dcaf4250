import TipRuntime

/// Prints a `ManifestFile` as a YAML manifest: `tipkit`, `displayFrequency`, then
/// the sections `parameters`, `events`, `tips` and `groups`, one blank line between them and
/// between tips; parameters, limits, payloads, actions and groups in flow style; rules as block
/// list items. Every string that YAML would read as something else is quoted, so decoding the
/// output gives the same declarations (positions aside); the declarations' comments are
/// written above them.
public enum ManifestYAMLPrinter {
    public static func print(_ file: ManifestFile, header: [String] = []) -> String {
        var output = ""
        for line in header { output += comment(line, indent: "") }
        var sections: [String] = []
        for attribute in FileAttributes.all {
            let key = attribute.key
            switch attribute.value {
            case .version:
                if let version = file.version { output += "\(key): \(version.value)\n" }
            case .displayFrequency:
                if let frequency = file.displayFrequency { output += "\(key): \(TipsPrinter.spelling(of: frequency.value))\n" }
            case .defaultLocale:
                if let locale = file.defaultLocale { output += "\(key): \(blockString(locale.value))\n" }
            case .parameters:
                if !file.parameters.isEmpty { sections.append("\(key):\n" + file.parameters.map(parameter).joined()) }
            case .events:
                if !file.events.isEmpty { sections.append("\(key):\n" + file.events.map(event).joined()) }
            case .tips:
                if !file.tips.isEmpty { sections.append("\(key):\n" + file.tips.map(tip).joined(separator: "\n")) }
            case .groups:
                if !file.groups.isEmpty { sections.append("\(key):\n" + file.groups.map(group).joined()) }
            case .experiments:
                if !file.experiments.isEmpty { sections.append("\(key):\n" + file.experiments.map(experiment).joined(separator: "\n")) }
            }
        }
        if !sections.isEmpty {
            if !output.isEmpty { output += "\n" }
            output += sections.joined(separator: "\n")
        }
        return output
    }

    // MARK: - Declarations

    private static func parameter(_ parameter: ParameterDecl) -> String {
        var fields: [String] = []
        for attribute in ParameterAttributes.all {
            let key = attribute.key
            switch attribute.value {
            case .type:
                if let type = parameter.type { fields.append("\(key): \(type.value.manifestSpelling)") }
            case .defaultValue:
                if let value = parameter.defaultValue?.value { fields.append("\(key): \(literal(value))") }
            case .values:
                if let values = parameter.values {
                    fields.append("\(key): [" + values.map { flowString($0.value) }.joined(separator: ", ") + "]")
                }
            case .flag(let path):
                if parameter[keyPath: path] { fields.append("\(key): true") }
            }
        }
        return comments(parameter.comments) + "  \(key(parameter.name.name)): \(flowMapping(fields))\n"
    }

    private static func event(_ event: EventDecl) -> String {
        var lines: [String] = []
        for attribute in EventAttributes.all {
            let key = attribute.key
            switch attribute.value {
            case .retention(let path):
                guard let limit = event[keyPath: path] else { continue }
                var fields: [String] = []
                for limitAttribute in DonationLimitAttributes.all {
                    switch limitAttribute.value {
                    case .count(let path):
                        if let count = limit[keyPath: path] { fields.append("\(limitAttribute.key): \(count.value)") }
                    case .duration(let path):
                        if let age = limit[keyPath: path] { fields.append("\(limitAttribute.key): \(DurationText.string(seconds: age.value))") }
                    }
                }
                lines.append("    \(key): \(flowMapping(fields))\n")
            case .payload:
                guard !event.fields.isEmpty else { continue }
                let fields = event.fields.map { "\(flowString($0.name.name)): \($0.type?.value.manifestSpelling ?? "string")" }
                lines.append("    \(key): \(flowMapping(fields))\n")
            }
        }
        let head = comments(event.comments) + "  \(key(event.name.name)):"
        return lines.isEmpty ? head + " {}\n" : head + "\n" + lines.joined()
    }

    private static func tip(_ tip: TipDecl) -> String {
        var output = comments(tip.comments) + "  \(key(tip.name.name)):"
        var lines: [String] = []
        for attribute in TipAttributes.all {
            let key = attribute.key
            switch attribute.value {
            case .key:
                if let tipKey = tip.key, let type = tipKey.type {
                    lines.append("\(key): { name: \(flowString(tipKey.name.name)), type: \(type.value.manifestSpelling) }")
                }
            case .text(let path):
                if let text = tip[keyPath: path] { lines += self.text(key, text) }
            case .image:
                lines += image(key, tip.image)
            case .actions:
                if !tip.actions.isEmpty { lines += actions(key, tip.actions) }
            case .placeholders:
                guard !tip.placeholders.isEmpty else { continue }
                let fields = tip.placeholders.map { "\(flowString($0.name.name)): \($0.type?.value.manifestSpelling ?? "string")" }
                lines.append("\(key): \(flowMapping(fields))")
            case .count(let path):
                if let count = tip[keyPath: path] { lines.append("\(key): \(count.value)") }
            case .duration(let path):
                if let seconds = tip[keyPath: path] { lines.append("\(key): \(DurationText.string(seconds: seconds.value))") }
            case .flag(let path):
                if let flag = tip[keyPath: path] { lines.append("\(key): \(flag.value)") }
            case .eventWindow(let path):
                if let window = tip[keyPath: path] {
                    let text = "\(window.event.name) within \(DurationText.string(seconds: window.windowSeconds.value))"
                    lines.append("\(key): \(blockString(text))")
                }
            case .rules:
                guard !tip.rules.isEmpty else { continue }
                lines.append("\(key):")
                for rule in tip.rules { lines.append("  - " + ruleScalar(ExpressionPrinter.print(rule))) }
            }
        }
        if lines.isEmpty { return output + " {}\n" }
        output += "\n"
        for line in lines { output += "    " + line + "\n" }
        return output
    }

    /// An image under `key`: a symbol's name, or `{ asset: NAME }`.
    private static func image(_ key: String, _ image: Located<PackImage>?) -> [String] {
        switch image?.value {
        case .symbol(let symbol): return ["\(key): \(blockString(symbol))"]
        case .asset(let asset): return ["\(key): { asset: \(flowString(asset)) }"]
        case nil: return []
        }
    }

    /// Actions under `key`, one flow mapping per item (`key: []` for none).
    private static func actions(_ key: String, _ actions: [ActionDecl]) -> [String] {
        if actions.isEmpty { return ["\(key): []"] }
        return ["\(key):"] + actions.map { action in
            var fields = ["id: \(flowString(action.id.name))"]
            if let title = action.title { fields.append("title: \(flowText(title))") }
            return "  - \(flowMapping(fields))"
        }
    }

    /// An experiment: its attributes in the order of `ExperimentAttributes`; an arm that
    /// overrides nothing in flow style, others as a block.
    private static func experiment(_ experiment: ExperimentDecl) -> String {
        var lines: [String] = []
        for attribute in ExperimentAttributes.all {
            let key = attribute.key
            switch attribute.value {
            case .tip:
                if let tip = experiment.tip { lines.append("\(key): \(blockString(tip.name))") }
            case .arms:
                guard !experiment.arms.isEmpty else { continue }
                lines.append("\(key):")
                for arm in experiment.arms { lines += self.arm(arm).map { "  " + $0 } }
            case .eventWindow(let path):
                if let window = experiment[keyPath: path] {
                    lines.append("\(key): \(blockString("\(window.event.name) within \(DurationText.string(seconds: window.windowSeconds.value))"))")
                }
            case .string(let path):
                if let text = experiment[keyPath: path] { lines.append("\(key): \(blockString(text.value))") }
            }
        }
        let head = comments(experiment.comments) + "  \(key(experiment.name.name)):"
        return lines.isEmpty ? head + " {}\n" : head + "\n" + lines.map { "    " + $0 + "\n" }.joined()
    }

    private static func arm(_ arm: ArmDecl) -> [String] {
        var fields: [String] = []
        var overrides: [String] = []
        for attribute in ArmAttributes.all {
            let key = attribute.key
            switch attribute.value {
            case .weight:
                if let weight = arm.weight { fields.append("\(key): \(weight.value)") }
            case .flag(let path):
                if let flag = arm[keyPath: path] { fields.append("\(key): \(flag.value)") }
            case .text(let path, _, _):
                if let text = arm[keyPath: path] { overrides += self.text(key, text) }
            case .image:
                overrides += image(key, arm.image)
            case .actions:
                if let actions = arm.actions { overrides += self.actions(key, actions) }
            }
        }
        let name = key(arm.name.name)
        if overrides.isEmpty { return ["\(name): \(flowMapping(fields))"] }
        return ["\(name):"] + (fields + overrides).map { "  " + $0 }
    }

    /// A tip's text under `key`: a plain text as a scalar; a localized one as a flow mapping of
    /// locales, or a block mapping when that line would be too long.
    private static func text(_ key: String, _ text: TextDecl) -> [String] {
        guard text.isLocalized else { return ["\(key): \(blockString(text.variants.first?.text.value ?? ""))"] }
        let flow = "\(key): \(flowText(text))"
        if text.variants.isEmpty || flow.count + 4 <= TipsPrinter.maximumTextLineLength { return [flow] }
        return ["\(key):"] + text.variants.map { "  \(self.key($0.locale?.value ?? "")): \(blockString($0.text.value))" }
    }

    /// A text inside a flow mapping: a scalar, or `{ en: …, de: … }`.
    private static func flowText(_ text: TextDecl) -> String {
        guard text.isLocalized else { return flowString(text.variants.first?.text.value ?? "") }
        return flowMapping(text.variants.map { "\(flowString($0.locale?.value ?? "")): \(flowString($0.text.value))" })
    }

    private static func group(_ group: GroupDecl) -> String {
        var fields: [String] = []
        for attribute in GroupAttributes.all {
            switch attribute.value {
            case .priority:
                if let priority = group.priority { fields.append("\(attribute.key): \(priority.value.spelling)") }
            case .tips:
                fields.append("\(attribute.key): [" + group.tips.map { flowString($0.name) }.joined(separator: ", ") + "]")
            }
        }
        return comments(group.comments) + "  \(key(group.name.name)): \(flowMapping(fields))\n"
    }

    // MARK: - Scalars

    /// A rule as a block list item: plain when YAML reads it back unchanged, else in single
    /// quotes (rules often hold double-quoted strings), else in double quotes.
    static func ruleScalar(_ text: String) -> String {
        if YAMLScalarWriter.isSafePlain(text, inFlow: false) { return text }
        if YAMLScalarWriter.canSingleQuote(text) { return YAMLScalarWriter.singleQuoted(text) }
        return YAMLScalarWriter.doubleQuoted(text)
    }

    /// A default value: bools and numbers plain, strings quoted where needed.
    private static func literal(_ literal: Literal) -> String {
        switch literal {
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value):
            if value.isNaN { return ".nan" }
            if value.isInfinite { return value < 0 ? "-.inf" : ".inf" }
            return value.description
        case .string(let text): return flowString(text)
        case .duration(let seconds): return DurationText.string(seconds: seconds)
        }
    }

    private static func key(_ name: String) -> String { YAMLScalarWriter.string(name, inFlow: false) }
    private static func flowString(_ text: String) -> String { YAMLScalarWriter.string(text, inFlow: true) }
    private static func blockString(_ text: String) -> String { YAMLScalarWriter.string(text, inFlow: false) }

    private static func flowMapping(_ fields: [String]) -> String {
        fields.isEmpty ? "{}" : "{ " + fields.joined(separator: ", ") + " }"
    }

    private static func comments(_ lines: [String]) -> String {
        lines.map { comment($0, indent: "  ") }.joined()
    }

    private static func comment(_ text: String, indent: String) -> String {
        indent + (text.isEmpty ? "#" : "# " + text) + "\n"
    }
}
