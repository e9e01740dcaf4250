/// The words an editor offers while a manifest or a rule is typed: the keys of each kind of
/// manifest mapping and the members and functions of the rule language, as the front ends and
/// the checker know them.
public enum EditorVocabulary {
    /// The kinds of mapping a YAML manifest has, each with its own keys.
    public enum MappingKind: Sendable, CaseIterable {
        case file, parameter, event, donationLimit, tip, tipKey, image, action, group, experiment, arm
    }

    /// The keys a mapping of `kind` may have, in the order the format lists them.
    public static func keys(of kind: MappingKind) -> [String] {
        switch kind {
        case .file: return FileAttributes.keys
        case .parameter: return ParameterAttributes.keys
        case .event: return EventAttributes.keys
        case .donationLimit: return DonationLimitAttributes.keys
        case .tip: return TipAttributes.keys
        case .tipKey: return ManifestKeys.TipKey.names
        case .image: return ManifestKeys.Image.names
        case .action: return ManifestKeys.Action.names
        case .group: return GroupAttributes.keys
        case .experiment: return ExperimentAttributes.keys
        case .arm: return ArmAttributes.keys
        }
    }

    /// The members of an event collection (`e.count`, `e.within(3d)`, …).
    public static let collectionMembers = ["count", "within", "where", "largestSubset", "smallestSubset", "distinct"]

    /// The members of another tip's state (`tip(X).invalidated`, …).
    public static let tipStateMembers = [TipStateQuery.Member.invalidated, .displays, .invalidations].map(\.rawValue)

    /// The rule language's functions.
    public static let functions = ["date", "tip"]

    /// The rule language's keywords, sorted.
    public static let keywords = NameSyntax.expressionKeywords.sorted()
}
