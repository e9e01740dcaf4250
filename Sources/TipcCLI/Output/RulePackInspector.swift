#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipRuntime
import TipcCompiler

/// Renders a verified pack — header, tables and disassembled bytecode — as text or JSON
/// (`tipc inspect [--format json]`).
public struct RulePackInspector {
    public let pack: RulePack
    /// The encoded size and checksum, when rendering from bytes.
    public let byteCount: Int?
    public let checksum: UInt32?

    /// Loads and verifies `bytes` (throws what the loader throws).
    public init(bytes: [UInt8]) throws(RulePackError) {
        pack = try RulePackLoader.decode(bytes).pack
        byteCount = bytes.count
        checksum = CRC32.checksum(bytes, in: PackFormat.headerSize..<bytes.count)
    }

    public init(pack: RulePack) {
        self.pack = pack
        byteCount = nil
        checksum = nil
    }

    private func describe(_ value: RuntimeValue) -> String {
        switch value {
        case .date(let ms): return "date(\(ms) ms)"
        case .duration(let ms): return DurationText.string(milliseconds: ms)
        default: return value.description
        }
    }

    /// The human-readable rendering.
    public func text() -> String {
        var lines: [String] = []
        var header = "rule pack, format version \(pack.formatVersion)"
        if let byteCount { header += ", \(byteCount) bytes" }
        if let checksum { header += ", CRC-32 0x" + String(checksum, radix: 16) }
        lines.append(header)
        if let producer = pack.producer { lines.append("producer: \(producer)") }
        lines.append("display frequency: " + (pack.displayFrequencyMilliseconds == 0 ? "immediate" : DurationText.string(milliseconds: pack.displayFrequencyMilliseconds)))
        lines.append("strings (\(pack.strings.count)):")
        for (index, string) in pack.strings.enumerated() { lines.append("  \(index): \(RuntimeValue.string(string))") }
        lines.append("parameters (\(pack.parameters.count)):")
        for parameter in pack.parameters {
            let line = "  \(parameter.name): \(parameter.type) = \(describe(parameter.defaultValue))"
            lines.append(line + ParameterAttributes.inspectText(of: parameter))
        }
        lines.append("events (\(pack.events.count)):")
        for event in pack.events {
            var line = "  \(event.name)"
            if !event.fields.isEmpty { line += " { " + event.fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + " }" }
            lines.append(line + EventAttributes.inspectText(of: event))
        }
        lines.append("tips (\(pack.tips.count)):")
        let disassembler = Disassembler(pack: pack)
        for tip in pack.tips {
            lines.append("  \(tip.name): title \(RuntimeValue.string(tip.title))")
            if let message = tip.message { lines.append("    message \(RuntimeValue.string(message))") }
            switch tip.image {
            case .symbol(let name): lines.append("    image symbol \"\(name)\"")
            case .asset(let name): lines.append("    image asset \"\(name)\"")
            case nil: break
            }
            for action in tip.actions { lines.append("    action \"\(action.id)\" \"\(action.title)\"") }
            lines += TipAttributes.inspectLines(of: tip, in: pack).map { "    " + $0 }
            for (index, rule) in tip.rules.enumerated() {
                let place = rule.range.map { " (\($0.file):\($0.startLine):\($0.startColumn))" } ?? ""
                lines.append("    rule \(index)\(place), \(rule.code.count) words:")
                lines += disassembler.lines(rule.code).map { "      " + $0 }
            }
        }
        lines.append("groups (\(pack.groups.count)):")
        for group in pack.groups {
            let names = group.tips.map { $0 < pack.tips.count ? pack.tips[$0].name : "#\($0)" }
            lines.append("  \(group.name) \(group.priority == .ordered ? "ordered" : "firstAvailable") { \(names.joined(separator: ", ")) }")
        }
        if let texts = pack.texts { lines += textLines(texts) }
        if !pack.experiments.isEmpty { lines += experimentLines() }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The experiments table: each experiment's head, then a line per arm and per overridden
    /// text, locale, image and action.
    private func experimentLines() -> [String] {
        var lines = ["experiments (\(pack.experiments.count)):"]
        for experiment in pack.experiments {
            lines.append("  \(experiment.name)" + ExperimentAttributes.inspectText(of: experiment, in: pack))
            for arm in experiment.arms {
                lines.append("    arm \(arm.name)" + ArmAttributes.inspectText(of: arm))
                for (label, text) in labeledTexts(arm) {
                    for variant in text.variants {
                        lines.append("      \(label) \(variant.locale ?? "*"): \(RuntimeValue.string(source(variant, tip: experiment.tip)))")
                    }
                }
                switch arm.image {
                case .symbol(let name)?: lines.append("      image symbol \"\(name)\"")
                case .asset(let name)?: lines.append("      image asset \"\(name)\"")
                case nil: break
                }
                if arm.actions?.isEmpty == true { lines.append("      no actions") }
            }
        }
        return lines
    }

    /// An arm's overridden texts, labeled as the texts table's are.
    private func labeledTexts(_ arm: PackExperimentArm) -> [(String, PackLocalizedText)] {
        (arm.title.map { [("title", $0)] } ?? []) + (arm.message.map { [("message", $0)] } ?? [])
            + (arm.actions ?? []).map { ("action \"\($0.id)\"", $0.title) }
    }

    /// A text of an arm of an experiment on the tip at `tip`, whose placeholders it reads.
    private func source(_ variant: PackLocalizedText.Variant, tip: Int) -> String {
        let placeholders = pack.texts?.entry(forTip: tip)?.placeholders.map(\.name) ?? []
        return variant.template.source(parameterNames: pack.parameters.map(\.name), placeholderNames: placeholders)
    }

    /// The texts table: each entry's placeholders and texts, a line per text and locale.
    private func textLines(_ texts: PackTexts) -> [String] {
        var lines = ["texts (\(texts.tips.count)), default locale: \(texts.defaultLocale ?? "none"):"]
        for entry in texts.tips {
            let tip = pack.tips[entry.tip]
            var head = "  \(tip.name)"
            if !entry.placeholders.isEmpty {
                head += " placeholders { " + entry.placeholders.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + " }"
            }
            lines.append(head)
            for (label, text) in labeledTexts(entry) {
                for variant in text.variants {
                    lines.append("    \(label) \(variant.locale ?? "*"): \(RuntimeValue.string(source(variant, entry)))")
                }
            }
        }
        return lines
    }

    private func labeledTexts(_ entry: PackTipTexts) -> [(String, PackLocalizedText)] {
        let actions = pack.tips[entry.tip].actions
        return [("title", entry.title)] + (entry.message.map { [("message", $0)] } ?? [])
            + zip(actions, entry.actionTitles).map { ("action \"\($0.id)\"", $1) }
    }

    private func source(_ variant: PackLocalizedText.Variant, _ entry: PackTipTexts) -> String {
        variant.template.source(parameterNames: pack.parameters.map(\.name), placeholderNames: entry.placeholders.map(\.name))
    }

    private struct Document: Encodable {
        struct Parameter: Encodable { var name, type, defaultValue: String; var values: [String]?; var transient: Bool }
        struct Field: Encodable { var name, type: String }
        struct Event: Encodable { var name: String; var fields: [Field]; var maximumCount: Int64?; var maximumAgeMilliseconds: Int64? }
        struct Action: Encodable { var id, title: String }
        struct Rule: Encodable { var file: String?; var line: Int32?; var column: Int32?; var code: [UInt32]; var disassembly: [String] }
        struct Tip: Encodable {
            var name, title: String; var message: String?; var image: String?; var imageKind: String?
            var actions: [Action]; var maxDisplayCount: Int64?; var maxDisplayDurationMilliseconds: Int64?
            var ignoresDisplayFrequency: Bool; var rules: [Rule]
            /// Format 2: the key of a keyed tip, as `{"name", "type"}`.
            var key: [String: String]?
            var goal: Goal?
        }
        struct Goal: Encodable { var event: String; var windowMilliseconds: Int64 }
        struct Group: Encodable { var name, priority: String; var tips: [String] }
        struct Variant: Encodable { var locale: String?; var text: String }
        struct Text: Encodable { var of: String; var variants: [Variant] }
        struct Placeholder: Encodable { var name, type: String }
        struct TipTexts: Encodable { var tip: String; var placeholders: [Placeholder]; var texts: [Text] }
        struct Texts: Encodable { var defaultLocale: String?; var tips: [TipTexts] }
        struct ArmAction: Encodable { var id: String; var title: [Variant] }
        struct Arm: Encodable {
            var name: String; var weight: Int64; var hidden: Bool
            var title: [Variant]?; var message: [Variant]?; var image: String?; var imageKind: String?; var actions: [ArmAction]?
        }
        struct Experiment: Encodable { var name, tip, salt: String; var goal: Goal; var arms: [Arm] }
        var formatVersion: UInt32
        var producer: String?
        var byteCount: Int?
        var checksum: String?
        var displayFrequencyMilliseconds: Int64
        var strings: [String]
        var parameters: [Parameter]
        var events: [Event]
        var tips: [Tip]
        var groups: [Group]
        var texts: Texts?
        var experiments: [Experiment]?
    }

    /// The JSON rendering (keys sorted, so the output is stable).
    public func json() -> String {
        let disassembler = Disassembler(pack: pack)
        let document = Document(
            formatVersion: pack.formatVersion, producer: pack.producer, byteCount: byteCount, checksum: checksum.map { "0x" + String($0, radix: 16) },
            displayFrequencyMilliseconds: pack.displayFrequencyMilliseconds, strings: pack.strings,
            parameters: pack.parameters.map { .init(name: $0.name, type: $0.type.description, defaultValue: describe($0.defaultValue), values: $0.values, transient: $0.isTransient) },
            events: pack.events.map { .init(name: $0.name, fields: $0.fields.map { .init(name: $0.name, type: $0.type.description) },
                                            maximumCount: $0.maximumCount, maximumAgeMilliseconds: $0.maximumAgeMilliseconds) },
            tips: pack.tips.map { tip in
                let image: (String, String)? = switch tip.image {
                case .symbol(let name): ("symbol", name)
                case .asset(let name): ("asset", name)
                case nil: nil
                }
                return .init(name: tip.name, title: tip.title, message: tip.message, image: image?.1, imageKind: image?.0,
                             actions: tip.actions.map { .init(id: $0.id, title: $0.title) }, maxDisplayCount: tip.maxDisplayCount,
                             maxDisplayDurationMilliseconds: tip.maxDisplayDurationMilliseconds, ignoresDisplayFrequency: tip.ignoresDisplayFrequency,
                             rules: tip.rules.map { .init(file: $0.range?.file, line: $0.range?.startLine, column: $0.range?.startColumn,
                                                          code: $0.code, disassembly: disassembler.lines($0.code)) },
                             key: tip.key.map { ["name": $0.name, "type": $0.type.description] },
                             goal: tip.goal.map { .init(event: pack.events[$0.event].name, windowMilliseconds: $0.windowMilliseconds) })
            },
            groups: pack.groups.map { group in
                .init(name: group.name, priority: group.priority == .ordered ? "ordered" : "firstAvailable",
                      tips: group.tips.map { $0 < pack.tips.count ? pack.tips[$0].name : "#\($0)" })
            },
            texts: pack.texts.map { texts in
                .init(defaultLocale: texts.defaultLocale, tips: texts.tips.map { entry in
                    .init(tip: pack.tips[entry.tip].name,
                          placeholders: entry.placeholders.map { .init(name: $0.name, type: $0.type.description) },
                          texts: labeledTexts(entry).map { label, text in
                              .init(of: label, variants: text.variants.map { .init(locale: $0.locale, text: source($0, entry)) })
                          })
                })
            },
            experiments: pack.experiments.isEmpty ? nil : pack.experiments.map { experiment in
                func variants(_ text: PackLocalizedText?) -> [Document.Variant]? {
                    text.map { $0.variants.map { .init(locale: $0.locale, text: source($0, tip: experiment.tip)) } }
                }
                return .init(name: experiment.name, tip: pack.tips[experiment.tip].name, salt: experiment.salt,
                             goal: .init(event: pack.events[experiment.goal.event].name, windowMilliseconds: experiment.goal.windowMilliseconds),
                             arms: experiment.arms.map { arm in
                                 let image: (String, String)? = switch arm.image {
                                 case .symbol(let name): ("symbol", name)
                                 case .asset(let name): ("asset", name)
                                 case nil: nil
                                 }
                                 return .init(name: arm.name, weight: arm.weight, hidden: arm.isHidden, title: variants(arm.title),
                                              message: variants(arm.message), image: image?.1, imageKind: image?.0,
                                              actions: arm.actions?.map { .init(id: $0.id, title: variants($0.title) ?? []) })
                             })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
