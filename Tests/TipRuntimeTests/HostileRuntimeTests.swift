import Testing
import TipRuntime
import TipcCompiler
import TipcFuzzing

/// Runtime faults: damaged packs, wrong-typed parameters and malformed donations are typed
/// errors that change nothing.
@Suite struct HostileRuntimeTests {
    static let pack = try! ExampleProgram.compiled()
    static let bytes = RulePackWriter.encode(pack)

    static func loadError(_ bytes: [UInt8]) -> RulePackError? {
        do {
            _ = try RulePackLoader.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Packs

    @Test func emptyAndTinyInputsAreTruncatedOrBadMagic() {
        #expect(Self.loadError([])?.kind == .truncated)
        #expect(Self.loadError(Array(PackFormat.magic.prefix(4)))?.kind == .truncated)
        #expect(Self.loadError(Array(Self.bytes.prefix(PackFormat.headerSize - 1)))?.kind == .truncated)
        #expect(Self.loadError(Array("tipkit: 1\n".utf8))?.kind == .badMagic)
    }

    @Test func everyTruncationIsATypedError() {
        for length in stride(from: 0, to: Self.bytes.count, by: 7) {
            let error = Self.loadError(Array(Self.bytes.prefix(length)))
            #expect(error != nil, "a pack cut to \(length) bytes loaded")
            #expect(error.map { [.truncated, .badMagic].contains($0.kind) } ?? false, "\(String(describing: error))")
        }
    }

    @Test func garbageAfterAValidHeaderIsAChecksumMismatch() {
        var bytes = Self.bytes
        for index in PackFormat.headerSize..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 131) }
        #expect(Self.loadError(bytes)?.kind == .checksumMismatch)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func resealedGarbageBodiesAreRefused(seed: UInt64) {
        // A valid header, a garbage body, and a matching length and checksum: the structural
        // checks must refuse it.
        var state = seed
        let body = (0..<2_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let bytes = PackMutation.resealed(Array(Self.bytes.prefix(PackFormat.headerSize)) + body)
        let error = Self.loadError(bytes)
        #expect(error != nil)
        #expect(error?.kind != .checksumMismatch)
    }

    @Test func trailingBytesAreMalformed() {
        let error = Self.loadError(Self.bytes + [0])
        #expect(error != nil)
        #expect(Self.loadError(PackMutation.resealed(Self.bytes + [0, 0, 0, 0]))?.kind == .malformed)
    }

    // MARK: - Parameters

    @Test func wrongTypedParameterIsRefusedAndChangesNothing() throws {
        var values = ParameterValues(pack: Self.pack)
        let before = values
        // Parameter 1 is an Int.
        #expect(throws: ParameterValues.AssignmentError.wrongType(parameter: 1, expected: .int, actual: .string)) {
            try values.set(1, to: .string("3"))
        }
        #expect(throws: ParameterValues.AssignmentError.wrongType(parameter: 1, expected: .int, actual: .double)) {
            try values.set(1, to: .double(3))
        }
        #expect(throws: ParameterValues.AssignmentError.wrongType(parameter: 4, expected: .date, actual: .duration)) {
            try values.set(4, to: .duration(milliseconds: 1))
        }
        #expect(throws: ParameterValues.AssignmentError.unknownParameter(99)) { try values.set(99, to: .int(1)) }
        #expect(throws: ParameterValues.AssignmentError.unknownParameter(-1)) { try values.set(-1, to: .int(1)) }
        #expect(values == before)
        try values.set(1, to: .int(7))
        #expect(values.values[1] == .int(7))
    }

    // MARK: - Donations

    static func snapshot(_ store: InMemoryDonationStore) -> [DonationColumns] {
        store.events.indices.map { store.donations(ofEvent: $0) }
    }

    @Test func malformedDonationsAreRefusedAndChangeNothing() throws {
        var store = ExampleProgram.store(for: Self.pack, now: 1_750_000_000_000)
        let before = Self.snapshot(store)
        let count = store.donationCount
        let good: [RuntimeValue] = [.int(1), .string("shoes"), .double(2), .bool(true), .date(milliseconds: 0), .duration(milliseconds: 1)]

        #expect(throws: DonationError.unknownEvent(7)) { try store.donate(event: 7, at: 0, payload: []) }
        #expect(throws: DonationError.unknownEvent(-1)) { try store.donate(event: -1, at: 0, payload: []) }
        #expect(throws: DonationError.unknownEventName("nope")) { try store.donate(eventNamed: "nope", at: 0) }
        #expect(throws: DonationError.wrongFieldCount(event: "searchPerformed", expected: 0, actual: 1)) {
            try store.donate(event: 0, at: 0, payload: [.int(1)])
        }
        #expect(throws: DonationError.wrongFieldCount(event: "itemViewed", expected: 6, actual: 5)) {
            try store.donate(event: 1, at: 0, payload: Array(good.prefix(5)))
        }
        var wrongType = good
        wrongType[1] = .int(3)
        #expect(throws: DonationError.wrongFieldType(event: "itemViewed", field: "category", expected: .string, actual: .int)) {
            try store.donate(event: 1, at: 0, payload: wrongType)
        }
        for number in [Double.nan, .infinity, -.infinity] {
            var nonFinite = good
            nonFinite[2] = .double(number)
            #expect(throws: DonationError.nonFiniteDouble(event: "itemViewed", field: "price")) {
                try store.donate(event: 1, at: 0, payload: nonFinite)
            }
        }
        #expect(throws: DonationError.unknownField(event: "searchPerformed", field: "extra")) {
            try store.donate(eventNamed: "searchPerformed", at: 0, payload: ["extra": .int(1)])
        }
        #expect(throws: DonationError.missingField(event: "itemViewed", field: "itemID")) {
            try store.donate(eventNamed: "itemViewed", at: 0, payload: ["category": .string("x")])
        }
        #expect(Self.snapshot(store) == before)
        #expect(store.donationCount == count)

        try store.donate(event: 1, at: 1_750_000_000_000, payload: good)
        #expect(store.donationCount == count + 1)
    }
}
