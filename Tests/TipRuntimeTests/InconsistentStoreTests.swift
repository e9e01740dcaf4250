import Testing
@testable import TipRuntime
import TipcCompiler

/// The VM trusts no `DonationStore` conformance but its own: a store whose data does not fit
/// the pack, or whose answers change between calls, makes the rules that read it fail with
/// `inconsistentStore` (false, with the reason), and never makes the VM read out of bounds.
/// Run this suite under AddressSanitizer too (see docs/decisions.md).
@Suite("Runtime: inconsistent donation stores")
struct InconsistentStoreTests {
    static let source = """
    tipkit 1
    event viewed { itemID: Int, section: String, liked: Bool }
    event opened
    tip counted {
      title "C"
      rule viewed.count >= 1
    }
    tip windowed {
      title "W"
      rule viewed.count >= 1 within 1d
    }
    tip withinCall {
      title "V"
      rule viewed.within(1d).count >= 1
    }
    tip strings {
      title "S"
      rule viewed.where(section == "news").count >= 1
    }
    tip flags {
      title "F"
      rule viewed.where(liked).count >= 1
    }
    tip subset {
      title "L"
      rule viewed.largestSubset(itemID).count >= 2
    }
    tip distinct {
      title "D"
      rule viewed.distinct(section) >= 2
    }
    tip listWindow {
      title "LW"
      rule viewed.where(itemID > 0).within(1d).count >= 1
    }
    tip other {
      title "O"
      rule opened.count >= 1
    }
    """
    /// The tips above that read `viewed`, and the one that reads only `opened`.
    static let readsViewed = 0..<8
    static let readsOpened = 8

    static let now = testStart

    /// A sound in-memory store: three `viewed` (two in the last day), one `opened`.
    static func soundStore(_ pack: RulePack) throws -> InMemoryDonationStore {
        var store = InMemoryDonationStore(events: pack.events)
        try store.donate(eventNamed: "viewed", at: now - 3 * oneDay, payload: ["itemID": .int(1), "section": .string("news"), "liked": .bool(true)])
        try store.donate(eventNamed: "viewed", at: now - oneHour, payload: ["itemID": .int(2), "section": .string("sport"), "liked": .bool(false)])
        try store.donate(eventNamed: "viewed", at: now - oneMinute, payload: ["itemID": .int(2), "section": .string("news"), "liked": .bool(true)])
        try store.donate(eventNamed: "opened", at: now - oneMinute, payload: [:])
        return store
    }

    /// Ways a conformance's answer for `viewed` can disagree with the pack or with itself.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case moreTimestampsThanSlots, fewerSlotsInOneColumn, stringCodeTooLarge, negativeStringCode
        case missingFieldColumn, extraFieldColumn, wrongColumnType, timestampsOutOfOrder, boolSlotNotZeroOrOne
        case fewerEventsThanThePack

        var testDescription: String { rawValue }

        /// Damages the columns of `viewed` (`fewerEventsThanThePack` damages `events` instead).
        func apply(_ columns: inout DonationColumns) {
            switch self {
            case .moreTimestampsThanSlots: columns.timestamps += [InconsistentStoreTests.now, InconsistentStoreTests.now]
            case .fewerSlotsInOneColumn: columns.fields[1].slots.removeLast(2)
            case .stringCodeTooLarge: columns.fields[1].slots[2] = 1_000_000
            case .negativeStringCode: columns.fields[1].slots[0] = -1
            case .missingFieldColumn: columns.fields.removeLast()
            case .extraFieldColumn: columns.fields.append(PayloadColumn(type: .int, slots: columns.fields[0].slots))
            case .wrongColumnType: columns.fields[0].type = .string
            case .timestampsOutOfOrder: columns.timestamps.reverse()
            case .boolSlotNotZeroOrOne: columns.fields[2].slots[0] = 2
            case .fewerEventsThanThePack: break
            }
        }
    }

    /// A conformance that answers with the sound store's data for `opened` and damaged data for
    /// `viewed` (event 0). It also has a `withTimestamps` of its own that disagrees with its
    /// columns, which the VM must not use.
    struct DamagedStore: DonationStore {
        var inner: InMemoryDonationStore
        var damage: Damage

        var events: [PackEvent] { damage == .fewerEventsThanThePack ? Array(inner.events.dropLast()) : inner.events }

        func donations(ofEvent event: Int) -> DonationColumns {
            var columns = inner.donations(ofEvent: event)
            if event == 0 { damage.apply(&columns) }
            return columns
        }

        func withTimestamps<Result>(ofEvent event: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result {
            [Int64](repeating: InconsistentStoreTests.now, count: 10_000).withUnsafeBufferPointer(body)
        }

        mutating func donate(event: Int, at milliseconds: Int64, payload: [RuntimeValue]) throws(DonationError) {
            try inner.donate(event: event, at: milliseconds, payload: payload)
        }
    }

    /// Every evaluation entry point, its outcomes by tip (all rules evaluated).
    func outcomes(_ evaluator: RuleEvaluator, _ store: some DonationStore) -> [[RuleOutcome]] {
        let pack = evaluator.pack.pack
        let parameters = ParameterValues(pack: pack)
        let all = evaluator.evaluateAllTips(parameters: parameters, store: store, now: Self.now).map(\.rules)
        let satisfied = evaluator.satisfiedTips(parameters: parameters, store: store, now: Self.now)
        for tip in pack.tips.indices {
            let single = evaluator.evaluateTip(tip, parameters: parameters, store: store, now: Self.now, allRules: true).rules
            let rule = evaluator.evaluateRule(tip: tip, rule: 0, parameters: parameters, store: store, now: Self.now)
            let traced = evaluator.trace(tip: tip, rule: 0, parameters: parameters, store: store, now: Self.now).outcome
            #expect(single == all[tip] && rule == all[tip][0] && traced == all[tip][0], "tip \(pack.tips[tip].name)")
            #expect(satisfied[tip] == all[tip].allSatisfy(\.holds))
        }
        return all
    }

    @Test func theSoundStoreHoldsEveryRule() throws {
        let evaluator = RuleEvaluator(pack: try verifiedPack(Self.source))
        let store = try Self.soundStore(evaluator.pack.pack)
        #expect(outcomes(evaluator, store).allSatisfy { $0 == [.value(true)] })
        let wrapped = DamagedStore(inner: store, damage: .moreTimestampsThanSlots)
        #expect(outcomes(evaluator, wrapped)[Self.readsOpened] == [.value(true)], "a conformance is read like the in-memory store")
    }

    @Test(arguments: Damage.allCases)
    func aStoreThatDoesNotFitThePackFailsTheRulesThatReadIt(_ damage: Damage) throws {
        let evaluator = RuleEvaluator(pack: try verifiedPack(Self.source))
        let store = DamagedStore(inner: try Self.soundStore(evaluator.pack.pack), damage: damage)
        let results = outcomes(evaluator, store)
        for tip in Self.readsViewed {
            guard case .failed(.inconsistentStore, _) = results[tip][0] else {
                Issue.record("\(damage): tip \(evaluator.pack.pack.tips[tip].name) gave \(results[tip][0])")
                continue
            }
        }
        let opened = results[Self.readsOpened][0]
        if damage == .fewerEventsThanThePack {
            #expect(opened == .failed(.inconsistentStore, pc: 0), "a store for another pack is read for nothing")
        } else {
            #expect(opened == .value(true), "another event's rules are unaffected")
        }
        #expect(EvaluationFailure.inconsistentStore.description == "the donation store's data for an event does not fit the rule pack")
    }

    /// A conformance whose answers change from call to call, each consistent on its own.
    final class ChangingAnswers {
        var calls = 0
    }

    struct ChangingStore: DonationStore {
        let inner: InMemoryDonationStore
        let state: ChangingAnswers

        var events: [PackEvent] { inner.events }

        func donations(ofEvent event: Int) -> DonationColumns {
            state.calls += 1
            var columns = inner.donations(ofEvent: event)
            if state.calls % 2 == 0, event == 0 {
                // Every second answer: only the oldest donation.
                columns.timestamps = Array(columns.timestamps.prefix(1))
                for index in columns.fields.indices { columns.fields[index].slots = Array(columns.fields[index].slots.prefix(1)) }
            }
            return columns
        }

        mutating func donate(event: Int, at milliseconds: Int64, payload: [RuntimeValue]) throws(DonationError) {}
    }

    @Test func oneEvaluationReadsEachEventOnce() throws {
        let evaluator = RuleEvaluator(pack: try verifiedPack(Self.source))
        let pack = evaluator.pack.pack
        let state = ChangingAnswers()
        let store = ChangingStore(inner: try Self.soundStore(pack), state: state)
        let results = evaluator.evaluateAllTips(parameters: ParameterValues(pack: pack), store: store, now: Self.now)
        #expect(state.calls == 2, "one read of each event for the whole pack")
        #expect(results.allSatisfy { $0.rules == [.value(true)] }, "every rule saw the first answer")
    }

    @Test func anInMemoryStoreOfAnotherPackIsReadForNothing() throws {
        let evaluator = RuleEvaluator(pack: try verifiedPack(Self.source))
        let parameters = ParameterValues(pack: evaluator.pack.pack)
        // The same number of events, fields of other types: timestamps are read, payloads are not.
        var other = InMemoryDonationStore(events: [PackEvent(name: "viewed", fields: [PackField(name: "itemID", type: .string)]),
                                                   PackEvent(name: "opened")])
        try other.donate(event: 0, at: Self.now - oneMinute, payload: [.string("a")])
        let results = evaluator.evaluateAllTips(parameters: parameters, store: other, now: Self.now).map(\.rules)
        #expect(results[0] == [.value(true)] && results[1] == [.value(true)] && results[2] == [.value(true)])
        for tip in 3..<8 {
            guard case .failed(.inconsistentStore, _) = results[tip][0] else { Issue.record("tip \(tip): \(results[tip])"); continue }
        }
        // Fewer events: nothing is read.
        let fewer = InMemoryDonationStore(events: [PackEvent(name: "viewed")])
        let none = evaluator.evaluateAllTips(parameters: parameters, store: fewer, now: Self.now).map(\.rules)
        #expect(none.allSatisfy { $0 == [.failed(.inconsistentStore, pc: 0)] })
        #expect(evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: fewer, now: Self.now) == .failed(.inconsistentStore, pc: 0))
    }
}
