import Testing
import TipRuntime
@testable import TipcCompiler
import TipcTestSupport
import TipcDriver
@testable import TipKitBridge

/// Random programs → `generate tipkit` → `import` → the same program.
///
/// "The same" is: the two programs compile without errors to packs that are equal once their
/// rules (and the string table, which holds only the rules' constants) are set aside — every
/// parameter, event, field, limit, tip text, image, action, option, group and the display
/// frequency, byte for byte — and whose rules mean the same: replaying one random history of
/// parameter changes, donations, displays and time passing on both, every tip's status and
/// `shouldDisplay` agree at every step. The rules' bytecode may differ, as the round trip is
/// allowed to write a rule differently (split at its top-level `and`s, a `within` suffix moved
/// onto each event, `$b == true` read back as `$b`).
///
/// `TipKitProgramGenerator` draws only what TipKit can express at the minimum OS. Programs of
/// the unrestricted `ProgramGenerator` either fail with `tipkit-unsupported` errors alone, or
/// round trip the same way (after the one documented change: an event without a limit comes
/// back with TipKit's 1,000).
@Suite struct TipKitRoundTripPropertyTests {
    struct Compiled {
        var pack: RulePack
        var swift: String
    }

    /// The program of `file` as a pack, and as TipKit Swift imported back into a pack.
    private static func roundTrip(_ file: ManifestFile, minimumOS: TipKitGenerator.MinimumOS,
                                  seed: UInt64) throws -> (original: RulePack, imported: RulePack, swift: String)? {
        let yaml = SourceFile(path: "generated-\(seed).yaml", text: ManifestYAMLPrinter.print(file))
        let (checked, original) = Frontend.compile(sources: [yaml])
        let errors = checked.diagnostics.filter { $0.severity == .error }
        try #require(errors.isEmpty, "seed \(seed): \(errors.map(\.message))\n\(String(decoding: yaml.bytes, as: UTF8.self))")
        var diagnostics: [Diagnostic] = []
        let parsed = Frontend.parse(yaml, diagnostics: &diagnostics)
        guard let swift = TipKitGenerator.generate([parsed], sources: [yaml.path], minimumOS: minimumOS, diagnostics: &diagnostics) else {
            return nil
        }
        let (imported, pack) = Frontend.compile(sources: [SourceFile(path: "Tips.swift", text: swift)])
        let importErrors = imported.diagnostics.filter { $0.severity == .error }
        try #require(importErrors.isEmpty, "seed \(seed): \(importErrors.map(\.message))\n\(swift)")
        return (try #require(original), try #require(pack, "seed \(seed)\n\(swift)"), swift)
    }

    /// The pack without its rules and their constants.
    private static func declarations(_ pack: RulePack) -> RulePack {
        var copy = pack
        copy.strings = []
        for index in copy.tips.indices { copy.tips[index].rules = [] }
        return copy
    }

    /// Replays one random history on both packs; the first step where a tip's status or
    /// `shouldDisplay` differs, or nil.
    private static func firstDisagreement(_ first: RulePack, _ second: RulePack, seed: UInt64) throws -> String? {
        let start: Int64 = 1_780_000_000_000
        var centers: [(TipCenter, ManualClock)] = []
        for pack in [first, second] {
            let clock = ManualClock(now: start)
            centers.append((try TipCenter(pack: try RulePackLoader.decode(RulePackWriter.encode(pack)), persistence: MemoryPersistence(),
                                          clock: clock), clock))
        }
        var random = SeededGenerator(seed: seed ^ 0x5EED)
        let day: Int64 = 86_400_000
        let texts = ProgramGenerator.texts + ["a", "b", "é 🎉", "quote \" and \\"]
        func value(_ type: ValueType) -> RuntimeValue {
            switch type {
            case .bool: return .bool(Bool.random(using: &random))
            case .int: return .int(Int64.random(in: -5...25, using: &random))
            case .double: return .double([0, 0.5, 0.2, 1, 2.5, 3.5, -1].randomElement(using: &random)!)
            case .string: return .string(texts.randomElement(using: &random)!)
            case .date: return .date(milliseconds: start)
            case .duration: return .duration(milliseconds: day)
            }
        }
        for step in 0..<30 {
            var action = ""
            switch Int.random(in: 0...9, using: &random) {
            case 0...2 where !first.parameters.isEmpty:
                let parameter = first.parameters.randomElement(using: &random)!
                let newValue = value(parameter.type)
                action = "set \(parameter.name) = \(newValue)"
                for (center, _) in centers { try center.setParameter(parameter.name, to: newValue) }
            case 3...6 where !first.events.isEmpty:
                let event = first.events.randomElement(using: &random)!
                var payload: [String: RuntimeValue] = [:]
                for field in event.fields { payload[field.name] = value(field.type) }
                let date = centers[0].1.milliseconds() - Int64.random(in: 0...(3 * day), using: &random)
                action = "donate \(event.name) \(payload) at \(date)"
                for (center, _) in centers { try center.donate(event.name, value: payload, at: date) }
            case 7 where !first.tips.isEmpty:
                let tip = first.tips.randomElement(using: &random)!.name
                action = "display \(tip)"
                for (center, _) in centers where try center.shouldDisplay(tip) { try center.recordDisplay(tip, milliseconds: 60_000) }
            default:
                let milliseconds = Int64.random(in: 0...(2 * day), using: &random)
                action = "advance \(milliseconds) ms"
                for (_, clock) in centers { clock.advance(milliseconds: milliseconds) }
            }
            let statuses = centers.map { $0.0.statuses() }
            if statuses[0] != statuses[1] { return "step \(step) (\(action)): \(statuses[0]) against \(statuses[1])" }
            for tip in first.tips {
                let display = try centers.map { try $0.0.shouldDisplay(tip.name) }
                if display[0] != display[1] { return "step \(step) (\(action)): shouldDisplay(\(tip.name)) \(display[0]) against \(display[1])" }
            }
        }
        return nil
    }

    private static func expectSame(_ original: RulePack, _ imported: RulePack, swift: String, seed: UInt64,
                                   sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(declarations(original) == declarations(imported), "seed \(seed)\n\(swift)", sourceLocation: sourceLocation)
        let disagreement = try firstDisagreement(original, imported, seed: seed)
        #expect(disagreement == nil, "seed \(seed): \(disagreement ?? "")\n\(swift)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [(TipKitGenerator.MinimumOS.ios17, UInt64(1)...100), (.ios18, 101...200), (.ios26, 201...400)])
    func expressibleProgramsComeBackTheSame(_ minimumOS: TipKitGenerator.MinimumOS, _ seeds: ClosedRange<UInt64>) throws {
        for seed in seeds {
            var generator = TipKitProgramGenerator(seed: seed, minimumOS: minimumOS)
            let file = generator.manifest()
            let trip = try #require(try Self.roundTrip(file, minimumOS: minimumOS, seed: seed),
                                    "seed \(seed): \(ManifestYAMLPrinter.print(file))")
            try Self.expectSame(trip.original, trip.imported, swift: trip.swift, seed: seed)
        }
    }

    /// Unrestricted programs: refused with `tipkit-unsupported` errors only, or the same
    /// program back. Both outcomes must occur.
    @Test func anyProgramIsRefusedOrComesBackTheSame() throws {
        var refused = 0
        var same = 0
        for seed in UInt64(1)...200 {
            var generator = ProgramGenerator(seed: seed)
            var file = generator.manifest()
            // The documented change: an event without a count limit comes back with TipKit's 1,000.
            for index in file.events.indices where file.events[index].donationLimit?.maximumCount == nil {
                file.events[index].donationLimit = DonationLimitDecl(maximumCount: Located(1_000, at: file.events[index].range),
                                                                     maximumAgeSeconds: file.events[index].donationLimit?.maximumAgeSeconds)
            }
            var diagnostics: [Diagnostic] = []
            let yaml = SourceFile(path: "any-\(seed).yaml", text: ManifestYAMLPrinter.print(file))
            let parsed = Frontend.parse(yaml, diagnostics: &diagnostics)
            if TipKitGenerator.generate([parsed], sources: [yaml.path], minimumOS: .ios26, diagnostics: &diagnostics) == nil {
                let errors = diagnostics.filter { $0.severity == .error }
                #expect(!errors.isEmpty && errors.allSatisfy { $0.code == .tipkitUnsupported }, "seed \(seed): \(errors.map(\.message))")
                refused += 1
                continue
            }
            let trip = try #require(try Self.roundTrip(file, minimumOS: .ios26, seed: seed))
            try Self.expectSame(trip.original, trip.imported, swift: trip.swift, seed: seed)
            same += 1
        }
        #expect(refused > 0 && same > 0, "\(refused) refused, \(same) the same")
    }
}
