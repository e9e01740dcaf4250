import TipRuntime

/// Prints a `ManifestFile` as a `.tips` file in canonical layout: the header (`tipkit`,
/// `displayFrequency`), then parameters, events, tips and groups, each kind in its own block
/// separated by one blank line (and a blank line between tips); tip attributes in a fixed
/// order, indented by two spaces; rules through `ExpressionPrinter`. Parsing the output gives
/// the same declarations (positions and comments aside).
public enum TipsPrinter {
    /// The file as `.tips` text, with the comments its declarations carry.
    public static func print(_ file: ManifestFile, header: [String] = []) -> String {
        print(file, comments: TipsComments(declarationsOf: file, header: header))
    }

    /// The file as `.tips` text, with `comments` placed around its items.
    public static func print(_ file: ManifestFile, comments: TipsComments) -> String {
        var writer = Writer(comments: comments)
        if !comments.header.isEmpty {
            for line in comments.header { writer.comment(line, indent: "") }
            writer.blankLine()
        }
        var needsSeparator = false
        func separate() {
            if needsSeparator { writer.blankLine() }
            needsSeparator = true
        }
        for attribute in FileAttributes.all {
            guard let word = attribute.tipsWord else { continue }
            switch attribute.value {
            case .version:
                if let version = file.version {
                    writer.line("\(word) \(version.value)", item: .version)
                    needsSeparator = true
                }
            case .displayFrequency:
                if let frequency = file.displayFrequency {
                    writer.line("\(word) \(spelling(of: frequency.value))", item: .displayFrequency)
                    needsSeparator = true
                }
            case .defaultLocale:
                if let locale = file.defaultLocale {
                    writer.line("\(word) \(NameSyntax.spelling(ofName: locale.value))", item: .defaultLocale)
                    needsSeparator = true
                }
            case .parameters:
                guard !file.parameters.isEmpty else { continue }
                separate()
                for (index, parameter) in file.parameters.enumerated() {
                    writer.line(declaration(of: parameter), item: .parameter(index))
                }
            case .events:
                guard !file.events.isEmpty else { continue }
                separate()
                for (index, event) in file.events.enumerated() {
                    writer.line(declaration(of: event), item: .event(index))
                }
            case .tips:
                for (index, tip) in file.tips.enumerated() {
                    separate()
                    write(tip, index: index, into: &writer)
                }
            case .groups:
                guard !file.groups.isEmpty else { continue }
                separate()
                for (index, group) in file.groups.enumerated() {
                    writer.line(declaration(of: group), item: .group(index))
                }
            case .experiments:
                for (index, experiment) in file.experiments.enumerated() {
                    separate()
                    write(experiment, index: index, into: &writer)
                }
            }
        }
        if !comments.footer.isEmpty {
            if needsSeparator { writer.blankLine() }
            for line in comments.footer { writer.comment(line, indent: "") }
        }
        return writer.output
    }

    // MARK: - Declarations

    static func spelling(of frequency: DisplayFrequencySpec) -> String {
        switch frequency {
        case .immediate: return "immediate"
        case .hourly: return "hourly"
        case .daily: return "daily"
        case .weekly: return "weekly"
        case .monthly: return "monthly"
        case .custom(let seconds): return DurationText.string(seconds: seconds)
        }
    }

    /// A declared name: backticks unless it is a plain identifier and not a keyword.
    static func name(_ identifier: Identifier) -> String {
        NameSyntax.spelling(ofName: identifier.name)
    }

    static func declaration(of parameter: ParameterDecl) -> String {
        var text = "\(FileAttributes.tipsWord(of: .parameters)) \(name(parameter.name))"
        for attribute in ParameterAttributes.all {
            let word = attribute.tipsWord ?? ""
            switch attribute.value {
            case .type:
                text += "\(word) \(parameter.type?.value.tipsSpelling ?? "String")"
            case .defaultValue:
                if let value = parameter.defaultValue?.value { text += " \(word) " + defaultSpelling(of: value, type: parameter.type?.value) }
            case .values:
                if let values = parameter.values {
                    text += " \(word) [" + values.map { ExpressionPrinter.quoted($0.value) }.joined(separator: ", ") + "]"
                }
            case .flag(let path):
                if parameter[keyPath: path] { text += " \(word)" }
            }
        }
        return text
    }

    /// A default value as the `.tips` grammar writes it: a date parameter's text as `date("…")`.
    static func defaultSpelling(of literal: Literal, type: ValueType?) -> String {
        if type == .date, case .string(let text) = literal {
            return "date(\(ExpressionPrinter.quoted(text)))"
        }
        return ExpressionPrinter.spelling(of: literal)
    }

    static func declaration(of event: EventDecl) -> String {
        var text = "\(FileAttributes.tipsWord(of: .events)) \(name(event.name))"
        // The payload is part of the head (`event NAME { … }`), before the donation limit.
        if !event.fields.isEmpty {
            let fields = event.fields.map { "\(name($0.name)): \($0.type?.value.tipsSpelling ?? "String")" }
            text += " { " + fields.joined(separator: ", ") + " }"
        }
        for eventAttribute in EventAttributes.all {
            guard case .retention(let eventPath) = eventAttribute.value, let limit = event[keyPath: eventPath] else { continue }
            for attribute in DonationLimitAttributes.all {
                guard let word = attribute.tipsWord else { continue }
                switch attribute.value {
                case .count(let path):
                    if let count = limit[keyPath: path] { text += " \(word) \(count.value)" }
                case .duration(let path):
                    if let age = limit[keyPath: path] { text += " \(word) \(DurationText.string(seconds: age.value))" }
                }
            }
        }
        return text
    }

    static func declaration(of group: GroupDecl) -> String {
        let priority = group.priority?.value ?? .firstAvailable
        let tips = group.tips.map(name).joined(separator: ", ")
        return "\(FileAttributes.tipsWord(of: .groups)) \(name(group.name)) \(priority.spelling) {" + (tips.isEmpty ? "}" : " \(tips) }")
    }

    private static func write(_ tip: TipDecl, index: Int, into writer: inout Writer) {
        let key = tip.key.flatMap { key in key.type.map { "[\(name(key.name)): \($0.value.tipsSpelling)]" } } ?? ""
        writer.line("\(FileAttributes.tipsWord(of: .tips)) \(name(tip.name))\(key) {", item: .tip(index))
        func attribute(_ text: String, _ attribute: TipsItem.TipAttribute) {
            writer.line("  " + text, item: .tipAttribute(tip: index, attribute))
        }
        func text(_ head: String, _ text: TextDecl, _ attribute: TipsItem.TipAttribute, _ slot: TipsItem.TextSlot) {
            writeText(head, text, tip: index, attribute: attribute, slot: slot, into: &writer)
        }
        for row in TipAttributes.all {
            guard let word = row.tipsWord else { continue }  // the key, in the head line
            let item = TipsItem.TipAttribute.attribute(row.key)
            switch row.value {
            case .text(let path):
                if let value = tip[keyPath: path] { text(word, value, item, .attribute(row.key)) }
            case .image:
                if let image = tip.image { attribute("\(word) \(spelling(of: image.value))", item) }
            case .actions:
                for (offset, action) in tip.actions.enumerated() {
                    let head = "\(word) \(ExpressionPrinter.quoted(action.id.name))"
                    if let title = action.title { text(head, title, .action(offset), .action(offset)) } else { attribute(head + " \"\"", .action(offset)) }
                }
            case .placeholders:
                guard !tip.placeholders.isEmpty else { continue }
                let fields = tip.placeholders.map { "\(name($0.name)): \($0.type?.value.tipsSpelling ?? "String")" }
                attribute("\(word) { " + fields.joined(separator: ", ") + " }", item)
            case .count(let path):
                if let count = tip[keyPath: path] { attribute("\(word) \(count.value)", item) }
            case .duration(let path):
                if let seconds = tip[keyPath: path] { attribute("\(word) \(DurationText.string(seconds: seconds.value))", item) }
            case .flag(let path):
                if let flag = tip[keyPath: path] { attribute("\(word) \(flag.value)", item) }
            case .eventWindow(let path):
                if let window = tip[keyPath: path] {
                    attribute("\(word) \(name(window.event)) within \(DurationText.string(seconds: window.windowSeconds.value))", item)
                }
            case .rules:
                for (offset, rule) in tip.rules.enumerated() { attribute("\(word) " + ExpressionPrinter.print(rule), .rule(offset)) }
            case .key:
                break
            }
        }
        writer.line("}", item: .tipEnd(index), leadingIndent: "  ")
    }

    /// An image after the word `image`: `"symbol"` or `asset "name"`.
    static func spelling(of image: PackImage) -> String {
        switch image {
        case .symbol(let symbol): return ExpressionPrinter.quoted(symbol)
        case .asset(let asset): return "asset \(ExpressionPrinter.quoted(asset))"
        }
    }

    private static func write(_ experiment: ExperimentDecl, index: Int, into writer: inout Writer) {
        var head = "\(FileAttributes.tipsWord(of: .experiments)) \(name(experiment.name))"
        for row in ExperimentAttributes.all {
            if case .tip = row.value, let word = row.tipsWord, let tip = experiment.tip { head += " \(word) \(name(tip))" }
        }
        writer.line(head + " {", item: .experiment(index))
        for row in ExperimentAttributes.all {
            guard let word = row.tipsWord else { continue }
            let item = TipsItem.experimentAttribute(experiment: index, row.key)
            switch row.value {
            case .tip:
                break  // in the head line
            case .arms:
                for (offset, arm) in experiment.arms.enumerated() {
                    write(arm, word: word, item: .arm(experiment: index, offset), into: &writer)
                }
            case .eventWindow(let path):
                if let window = experiment[keyPath: path] {
                    writer.line("  \(word) \(name(window.event)) within \(DurationText.string(seconds: window.windowSeconds.value))", item: item)
                }
            case .string(let path):
                if let text = experiment[keyPath: path] { writer.line("  \(word) \(ExpressionPrinter.quoted(text.value))", item: item) }
            }
        }
        writer.line("}", item: .experimentEnd(index), leadingIndent: "  ")
    }

    /// `arm NAME WEIGHT [hidden]`, then its overrides inside braces, a line each.
    private static func write(_ arm: ArmDecl, word: String, item: TipsItem, into writer: inout Writer) {
        var head = "  \(word) \(name(arm.name))"
        var overrides: [String] = []
        for row in ArmAttributes.all {
            let rowWord = row.tipsWord ?? ""
            switch row.value {
            case .weight:
                head += " \(arm.weight?.value ?? 0)"
            case .flag(let path):
                if arm[keyPath: path]?.value == true { head += " \(rowWord)" }
            case .text(let path, _, _):
                if let text = arm[keyPath: path] { overrides.append("\(rowWord) \(inlineText(text))") }
            case .image:
                if let image = arm.image { overrides.append("\(rowWord) \(spelling(of: image.value))") }
            case .actions:
                if arm.actions?.isEmpty == true { overrides.append("\(ArmAttributes.noActionsWords.0) \(ArmAttributes.noActionsWords.1)") }
                for action in arm.actions ?? [] {
                    overrides.append("\(rowWord) \(ExpressionPrinter.quoted(action.id.name)) \(action.title.map(inlineText) ?? "\"\"")")
                }
            }
        }
        guard !overrides.isEmpty else {
            writer.line(head, item: item)
            return
        }
        writer.line(head + " {", item: item)
        for line in overrides { writer.line("    " + line, item: nil) }
        writer.line("  }", item: nil)
    }

    /// A text on one line: `"text"`, or `{ en: "…", de: "…" }`.
    private static func inlineText(_ text: TextDecl) -> String {
        guard text.isLocalized else { return ExpressionPrinter.quoted(text.variants.first?.text.value ?? "") }
        let entries = text.variants.map { "\(NameSyntax.spelling(ofName: $0.locale?.value ?? "")): \(ExpressionPrinter.quoted($0.text.value))" }
        return entries.isEmpty ? "{}" : "{ " + entries.joined(separator: ", ") + " }"
    }

    /// The longest line a localized text is written on; a longer one takes a line per locale.
    static let maximumTextLineLength = 100

    /// `head "text"` for a plain text; `head { en: "…", de: "…" }` for a localized one, or one
    /// locale per line inside the braces when that line would be too long or a comment goes
    /// with one of its locales.
    private static func writeText(_ head: String, _ text: TextDecl, tip: Int, attribute: TipsItem.TipAttribute,
                                  slot: TipsItem.TextSlot, into writer: inout Writer) {
        let item = TipsItem.tipAttribute(tip: tip, attribute)
        guard text.isLocalized else {
            writer.line("  " + head + " " + ExpressionPrinter.quoted(text.variants.first?.text.value ?? ""), item: item)
            return
        }
        let entries = text.variants.map { "\(NameSyntax.spelling(ofName: $0.locale?.value ?? "")): \(ExpressionPrinter.quoted($0.text.value))" }
        let localeItems = entries.indices.map { TipsItem.tipAttribute(tip: tip, .textLocale(slot, $0)) }
        let line = "  " + head + (entries.isEmpty ? " {}" : " { " + entries.joined(separator: ", ") + " }")
        if entries.isEmpty || (line.count <= maximumTextLineLength && !localeItems.contains(where: writer.hasComments)) {
            writer.line(line, item: item)
            return
        }
        writer.line("  " + head + " {", item: item)
        for (entry, localeItem) in zip(entries, localeItems) { writer.line("    " + entry, item: localeItem) }
        writer.line("  }", item: nil)
    }

    /// Accumulates lines, placing each item's comments around it.
    private struct Writer {
        let comments: TipsComments
        var output = ""

        init(comments: TipsComments) {
            self.comments = comments
        }

        mutating func line(_ text: String, item: TipsItem?, leadingIndent: String? = nil) {
            let indent = leadingIndent ?? String(text.prefix(while: { $0 == " " }))
            for comment in item.flatMap({ comments.leading[$0] }) ?? [] { self.comment(comment, indent: indent) }
            output += text
            if let trailing = item.flatMap({ comments.trailing[$0] }) { output += " " + Self.commentText(trailing) }
            output += "\n"
        }

        func hasComments(_ item: TipsItem) -> Bool {
            comments.leading[item] != nil || comments.trailing[item] != nil
        }

        mutating func comment(_ text: String, indent: String) {
            output += indent + Self.commentText(text) + "\n"
        }

        mutating func blankLine() {
            output += "\n"
        }

        static func commentText(_ text: String) -> String {
            text.isEmpty ? "//" : "// " + text
        }
    }
}
