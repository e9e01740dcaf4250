/// A rule pack whose every table and rule has been verified: the only input the VM accepts.
/// Made by `RulePackLoader.load(_:)` or `load(contentsOf:)`.
public struct VerifiedRulePack: Sendable {
    /// The pack's declarations: tips, parameters, events, groups and experiments.
    public let pack: RulePack
    /// Per tip, per rule: the code and its proven stack needs.
    let rules: [[VerifiedRule]]

    init(pack: RulePack, rules: [[VerifiedRule]]) {
        self.pack = pack
        self.rules = rules
    }
}

struct VerifiedRule: Sendable {
    let code: [UInt32]
    let shape: VerifiedCodeShape
}
