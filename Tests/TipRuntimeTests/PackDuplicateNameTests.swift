import Testing
@testable import TipRuntime
import TipcCompiler

/// The runtime finds parameters, events, fields, tips, groups and actions by name, so a pack
/// that names two of one kind alike is refused when it is loaded (two tips named `t` used to
/// share one state).
@Suite("Pack: duplicate names")
struct PackDuplicateNameTests {
    static let source = """
    tipkit 1
    param plan: String = "free"
    event viewed { itemID: Int, section: String }
    tip t {
      title "T"
      action "ok" "OK"
      rule $plan == "free" and viewed.count >= 1
    }
    tip u {
      title "U"
    }
    group g ordered { t, u }
    """

    enum Duplicate: String, CaseIterable, CustomTestStringConvertible {
        case parameter, event, field, tip, group, action
        var testDescription: String { rawValue }

        /// Adds a second declaration with an existing name, keeping every index valid.
        func apply(to pack: inout RulePack) {
            switch self {
            case .parameter: pack.parameters.append(pack.parameters[0])
            case .event: pack.events.append(PackEvent(name: "viewed"))
            case .field: pack.events[0].fields.append(PackField(name: "itemID", type: .string))
            case .tip: pack.tips.append(pack.tips[1])
            case .group: pack.groups.append(PackGroup(name: "g", priority: .firstAvailable, tips: [1]))
            case .action: pack.tips[0].actions.append(PackAction(id: "ok", title: "Okay"))
            }
        }

        var message: String {
            switch self {
            case .parameter: return "duplicate parameter name: 'plan'"
            case .event: return "duplicate event name: 'viewed'"
            case .field: return "duplicate field name of event 'viewed': 'itemID'"
            case .tip: return "duplicate tip name: 'u'"
            case .group: return "duplicate group name: 'g'"
            case .action: return "duplicate action id of tip 't': 'ok'"
            }
        }
    }

    @Test(arguments: Duplicate.allCases)
    func aPackWithTwoNamesAlikeIsRefusedNamingTheDuplicate(_ duplicate: Duplicate) throws {
        var pack = try verifiedPack(Self.source).pack
        duplicate.apply(to: &pack)
        let bytes = RulePackWriter.encode(pack)
        do {
            _ = try RulePackLoader.decode(bytes)
            Issue.record("a pack with a duplicate \(duplicate) loaded")
        } catch {
            #expect(error.kind == .duplicateName)
            #expect(error.message == duplicate.message)
            #expect(error.offset > 0 && error.offset < bytes.count)
        }
        #expect(throws: RulePackError.self) { try RulePackVerifier.verify(pack) }
    }

    @Test func namesAlikeAcrossKindsAndFieldsOfDifferentEventsLoad() throws {
        var pack = try verifiedPack(Self.source).pack
        pack.events.append(PackEvent(name: "other", fields: [PackField(name: "itemID", type: .int)]))
        pack.tips[1].actions.append(PackAction(id: "ok", title: "OK"))
        pack.groups[0].name = "t"
        #expect(throws: Never.self) { try RulePackVerifier.verify(pack) }
    }
}
