/// An experiment on a tip, as a loaded pack holds it (the optional experiments table): which
/// tip it varies, how users are divided among its arms, and what counts as the tip having
/// worked. Verified on load: the tip and the goal's event exist, the arms' names are unique and
/// their weights add up to more than zero, the first arm is not hidden, and every text an arm
/// overrides reads only the tip's placeholders.
public struct PackExperiment: Sendable, Hashable {
    /// The experiment's name (unique in the pack).
    public package(set) var name: String
    /// The tip it varies, by index into `RulePack.tips`.
    public package(set) var tip: Int
    /// What users are hashed with: the experiment's name unless the manifest names another.
    public package(set) var salt: String
    /// The event whose donation within the window after a user's first exposure counts as a
    /// conversion.
    public package(set) var goal: PackTipGoal
    /// The arms in declared order; the first is the baseline.
    public package(set) var arms: [PackExperimentArm]

    package init(name: String, tip: Int, salt: String, goal: PackTipGoal, arms: [PackExperimentArm]) {
        self.name = name
        self.tip = tip
        self.salt = salt
        self.goal = goal
        self.arms = arms
    }

    /// How users are put in the arms (`ExperimentAssignment`): the salt and the arms' weights in
    /// declared order. Never throws for a pack the loader verified.
    package func assignment() throws(ExperimentAssignmentError) -> ExperimentAssignment {
        try ExperimentAssignment(salt: salt, arms: arms.map { ($0.name, Int($0.weight)) })
    }
}

/// One arm of an experiment: its share of the users and what it changes about the tip.
public struct PackExperimentArm: Sendable, Hashable {
    /// The arm's name (unique in its experiment): what a user's assignment stores.
    public package(set) var name: String
    /// Its share of the users is weight / the experiment's total weight (0: no users).
    public package(set) var weight: Int64
    /// A hidden arm never displays the tip: its users are the holdout.
    public package(set) var isHidden: Bool
    /// The title the arm shows instead of the tip's; nil: the tip's own.
    package var title: PackLocalizedText?
    /// The message the arm shows instead of the tip's; nil: the tip's own.
    package var message: PackLocalizedText?
    /// The image the arm shows instead of the tip's; nil: the tip's own.
    public package(set) var image: PackImage?
    /// The buttons the arm shows instead of the tip's (possibly none); nil: the tip's own.
    public package(set) var actions: [PackArmAction]?

    package init(name: String, weight: Int64, isHidden: Bool = false, title: PackLocalizedText? = nil, message: PackLocalizedText? = nil,
                image: PackImage? = nil, actions: [PackArmAction]? = nil) {
        self.name = name
        self.weight = weight
        self.isHidden = isHidden
        self.title = title
        self.message = message
        self.image = image
        self.actions = actions
    }

    /// Whether the arm shows the tip exactly as declared.
    package var overridesNothing: Bool {
        title == nil && message == nil && image == nil && actions == nil
    }
}

/// A button of an experiment's arm (its title in the user's locale comes with `TipCenter.content(of:locale:)`).
public struct PackArmAction: Sendable, Hashable {
    /// The button's id (unique among the arm's actions): what a tap on it records (`recordAction`).
    public package(set) var id: String
    package var title: PackLocalizedText

    package init(id: String, title: PackLocalizedText) {
        self.id = id
        self.title = title
    }
}

extension PackExperimentArm {
    /// Whether one of the arm's texts is written per locale (the pack then needs a default locale).
    package var isLocalized: Bool {
        ([title, message] + (actions ?? []).map(\.title)).contains { text in text?.variants.first?.locale != nil }
    }
}
