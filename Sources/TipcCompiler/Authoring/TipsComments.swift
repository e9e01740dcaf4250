/// One printed line (or line head) of a `.tips` file that comments can be attached to.
public enum TipsItem: Sendable, Hashable {
    case version
    case displayFrequency
    case defaultLocale
    case parameter(Int)
    case event(Int)
    /// The `tip NAME {` line of tip `index`.
    case tip(Int)
    case tipAttribute(tip: Int, TipAttribute)
    /// The closing `}` of tip `index`: comments written after its last attribute.
    case tipEnd(Int)
    case group(Int)
    /// The `experiment NAME {` line of experiment `index`.
    case experiment(Int)
    /// The line of experiment `experiment`'s attribute with this manifest key (`tip`, `goal`, `salt`).
    case experimentAttribute(experiment: Int, String)
    /// The `arm` line of an arm.
    case arm(experiment: Int, Int)
    /// The closing `}` of experiment `index`.
    case experimentEnd(Int)

    /// An attribute line inside a tip.
    public enum TipAttribute: Sendable, Hashable {
        /// The one line of the attribute with this manifest key (`title`, `maxDisplayCount`, …).
        case attribute(String)
        case action(Int)
        case rule(Int)
        /// Locale `index` of a localized text written one locale per line.
        case textLocale(TextSlot, Int)
    }

    /// Which text of a tip.
    public enum TextSlot: Sendable, Hashable {
        /// The text attribute with this manifest key (`title`, `message`).
        case attribute(String)
        case action(Int)
    }
}

/// The comments to print around the items of a `.tips` file: a header block (followed by a
/// blank line), comment lines above items, one comment at the end of an item's line, and
/// comment lines at the end of the file. Texts are without the `//` and the space after it.
public struct TipsComments: Sendable, Hashable {
    public var header: [String]
    public var leading: [TipsItem: [String]]
    public var trailing: [TipsItem: String]
    public var footer: [String]

    public init(header: [String] = [], leading: [TipsItem: [String]] = [:], trailing: [TipsItem: String] = [:],
                footer: [String] = []) {
        self.header = header
        self.leading = leading
        self.trailing = trailing
        self.footer = footer
    }

    /// The comments the declarations of `file` carry, above each declaration, plus `header`.
    public init(declarationsOf file: ManifestFile, header: [String] = []) {
        self.init(header: header)
        for (index, parameter) in file.parameters.enumerated() where !parameter.comments.isEmpty {
            leading[.parameter(index)] = parameter.comments
        }
        for (index, event) in file.events.enumerated() where !event.comments.isEmpty {
            leading[.event(index)] = event.comments
        }
        for (index, tip) in file.tips.enumerated() where !tip.comments.isEmpty {
            leading[.tip(index)] = tip.comments
        }
        for (index, group) in file.groups.enumerated() where !group.comments.isEmpty {
            leading[.group(index)] = group.comments
        }
        for (index, experiment) in file.experiments.enumerated() where !experiment.comments.isEmpty {
            leading[.experiment(index)] = experiment.comments
        }
    }
}
