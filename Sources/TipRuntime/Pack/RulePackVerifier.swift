/// Verifies a pack built in memory (by the compiler, or a test) the same way the loader does:
/// the encoded form is the single source of truth for what a valid pack is, so the pack is
/// encoded and loaded, and the loader's checks (tables, names, bytecode) all apply.
package enum RulePackVerifier {
    package static func verify(_ pack: RulePack) throws(RulePackError) -> VerifiedRulePack {
        try RulePackLoader.decode(RulePackWriter.encode(pack))
    }
}
