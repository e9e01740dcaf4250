import TipRuntime

// MARK: - An experiment

/// An experiment's attributes. In `.tips` the tip follows `on` in the head line; the others
/// are lines inside the braces, each introduced by its word, one `arm` line per arm:
///
/// ```
/// experiment favoriteCopy on favoriteBackyard {
///   arm control 45
///   arm short 45 { title "Star it" }
///   arm holdout 10 hidden
///   goal backyardFavorited within 7d
///   salt "favoriteCopy-1"
/// }
/// ```
public enum ExperimentAttributes: DeclarationTable {
    package static let lookup: ManifestKeyLookup<ExperimentAttributeValue> = ManifestKeyLookup(all)
    package static let all: [DeclarationAttribute<ExperimentAttributeValue, InspectedExperiment>] = [
        .init(key: "tip", tipsWord: "on", value: .tip, expected: "'on' and the tip the experiment varies", isRequired: true,
              schema: .object([
                  ("description", .string("The tip the experiment varies; a tip is in at most one experiment.")),
                  ("allOf", .array([ManifestSchema.reference("name")])),
              ]),
              inspect: { packed in
                  packed.experiment.tip < packed.pack.tips.count ? packed.pack.tips[packed.experiment.tip].name : "#\(packed.experiment.tip)"
              }),
        .init(key: "arms", tipsWord: "arm", value: .arms, expected: "an arm", isRequired: true,
              schema: .object([
                  ("description", .string("The arms, by name, in order: users are divided among them by weight; the first is the baseline the others are compared with.")),
                  ("type", .string("object")),
                  ("minProperties", .integer(1)),
                  ("propertyNames", ManifestSchema.reference("name")),
                  ("additionalProperties", ManifestSchema.reference("arm")),
              ])),
        .init(key: "goal", tipsWord: "goal", value: .eventWindow(\.goal),
              expected: "a goal (EVENT within DURATION, e.g. favorited within 7d)", isRequired: true,
              schema: .object([
                  ("description", .string("A user converts when this event is donated within the window after the user's first exposure to the tip, written EVENT within DURATION (favorited within 7d).")),
                  ("allOf", .array([ManifestSchema.reference("goal")])),
              ]),
              inspect: { packed in
                  let goal = packed.experiment.goal
                  let event = goal.event < packed.pack.events.count ? packed.pack.events[goal.event].name : "#\(goal.event)"
                  return "\(event) within \(DurationText.string(milliseconds: goal.windowMilliseconds))"
              }),
        .init(key: "salt", tipsWord: "salt", value: .string(\.salt), expected: "the salt as a string",
              schema: .object([
                  ("description", .string("What users are hashed with to pick their arm; the experiment's name when absent. A new salt puts every user in an arm afresh.")),
                  ("type", .string("string")),
                  ("minLength", .integer(1)),
              ]),
              inspect: { packed in "\"\(packed.experiment.salt)\"" }),
    ]

    /// The words that start a line inside an experiment's braces (all but the tip's `on`,
    /// which is in the head line).
    static let lineWords: [String] = all.filter { if case .tip = $0.value { return false } else { return true } }.compactMap(\.tipsWord)

    /// What `tipc inspect` lists after a compiled experiment's name
    /// (` on favoriteBackyard goal backyardFavorited within 7d salt "favoriteCopy-1"`).
    public static func inspectText(of experiment: PackExperiment, in pack: RulePack) -> String {
        inspectSuffix(of: (experiment, pack))
    }
}

/// A compiled experiment with the pack it is in (names of its tip and goal event), for `tipc inspect`.
package typealias InspectedExperiment = (experiment: PackExperiment, pack: RulePack)

/// The shape of an experiment's attribute.
package enum ExperimentAttributeValue: Sendable {
    /// The tip's name (`ExperimentDecl.tip`); in `.tips` `on TIP` in the head line.
    case tip
    /// The arms (`ExperimentDecl.arms`): a mapping of `ArmAttributes` per arm; in `.tips` one
    /// `arm NAME WEIGHT …` line per arm.
    case arms
    /// `EVENT within DURATION`.
    case eventWindow(WritableKeyPath<ExperimentDecl, EventWindowDecl?> & Sendable)
    /// A string (in `.tips` quoted).
    case string(WritableKeyPath<ExperimentDecl, Located<String>?> & Sendable)
}

// MARK: - An arm

/// An arm's attributes. In `.tips` the weight follows the name, then `hidden`, then the
/// overrides inside braces, one line each, spelled as in a tip:
/// `arm short 45 { title "Star it" }`.
public enum ArmAttributes: DeclarationTable {
    package static let lookup: ManifestKeyLookup<ArmAttributeValue> = ManifestKeyLookup(all)
    package static let all: [DeclarationAttribute<ArmAttributeValue, PackExperimentArm>] = [
        .init(key: "weight", tipsWord: nil, value: .weight, expected: "the arm's weight (a whole number, 0 or more)", isRequired: true,
              schema: .object([
                  ("description", .string("The arm's share of the users: its weight over the sum of the experiment's weights (a whole number, 0 or more; the sum is positive).")),
                  ("type", .string("integer")),
                  ("minimum", .integer(0)),
              ]),
              inspect: { arm in String(arm.weight) }),
        .init(key: "hidden", tipsWord: "hidden", value: .flag(\.hidden), expected: "true or false",
              schema: .object([
                  ("description", .string("The arm's users never see the tip (a holdout); the first time they would have, an exposure is recorded instead. The first arm cannot be hidden.")),
                  ("type", .string("boolean")),
              ]),
              inspect: { arm in arm.isHidden ? "" : nil }),
        .init(key: "title", tipsWord: "title", value: .text(\.title, packed: \.title, replacing: \.optionalTitle), expected: "the title",
              schema: ManifestSchema.text("The title the arm shows instead of the tip's, with the tip's placeholders: one text, or one per locale.",
                                          nonEmpty: true)),
        .init(key: "message", tipsWord: "message", value: .text(\.message, packed: \.message, replacing: \.message), expected: "the message",
              schema: ManifestSchema.text("The message the arm shows instead of the tip's, with the tip's placeholders: one text, or one per locale.",
                                          nonEmpty: false)),
        .init(key: "image", tipsWord: "image", value: .image, expected: "an image name as a string (or asset \"name\")",
              schema: TipAttributes.schema(ofKey: "image", description: "The image the arm shows instead of the tip's: a symbol name, or {asset: NAME}.")),
        .init(key: "actions", tipsWord: "action", value: .actions, expected: "an action id",
              schema: TipAttributes.schema(ofKey: "actions", description: "The buttons the arm shows instead of the tip's (all of them); ids are unique within the arm.")),
    ]

    /// What `tipc inspect` lists after a compiled arm's name (` 10 hidden`); its texts, image
    /// and actions the inspector lists below it.
    public static func inspectText(of arm: PackExperimentArm) -> String {
        inspectSuffix(of: arm)
    }

    /// How `.tips` writes an arm whose actions replace the tip's with none (`no actions`).
    static let noActionsWords = ("no", "actions")

    /// The arm's texts, image and actions: the rows an arm overrides the tip with.
    static var overrides: [DeclarationAttribute<ArmAttributeValue, PackExperimentArm>] {
        all.filter(\.value.isOverride)
    }
}

/// The shape of an arm's attribute.
package enum ArmAttributeValue: Sendable {
    /// A whole number, 0 or more (`ArmDecl.weight`); in `.tips` after the arm's name.
    case weight
    /// `true` or `false`; in `.tips` the word alone means true.
    case flag(WritableKeyPath<ArmDecl, Located<Bool>?> & Sendable)
    /// A text replacing the tip's, as a tip writes it: where the arm holds it as declared and
    /// as compiled, and which of the tip's compiled texts it replaces.
    case text(WritableKeyPath<ArmDecl, TextDecl?> & Sendable, packed: WritableKeyPath<PackExperimentArm, PackLocalizedText?> & Sendable,
              replacing: KeyPath<PackTipTexts, PackLocalizedText?> & Sendable)
    /// The image and the actions replacing the tip's, as a tip writes them.
    case image, actions

    /// Whether the attribute replaces a part of the tip (written inside the arm's braces in `.tips`).
    var isOverride: Bool {
        switch self {
        case .weight, .flag: return false
        case .text, .image, .actions: return true
        }
    }
}

extension PackTipTexts {
    /// The title, as the one text an arm's `title` replaces.
    var optionalTitle: PackLocalizedText? { title }
}

extension TipAttributes {
    /// The schema of the tip attribute `key` with another description (an arm's override of it).
    static func schema(ofKey key: String, description: String) -> ManifestSchema.Node {
        guard let row = all.first(where: { $0.key == key }), case .object(let members) = row.schema else { return .object([]) }
        return .object([("description", .string(description))] + members.filter { $0.0 != "description" })
    }
}
