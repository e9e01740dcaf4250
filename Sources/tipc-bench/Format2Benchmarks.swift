import TipRuntime
import TipcCompiler

/// Format 2 in the VM: a rule over another tip's invalidations in a window, and a
/// keyed tip's rule over its instance's donations, each beside a hand-written Swift closure
/// doing the same work on the same data in the same run. One thread: run under `taskset -c 0`.
func runFormat2Benchmarks() {
    Format2Benchmarks().run()
}

/// Where the VM reads tips' records: one history per tip, read as the engine's table reads
/// them (a class, so that the VM is lent a reference, as the engine lends its own).
private final class BenchmarkRecords: TipRecordReader {
    let histories: [TipHistory]

    init(_ histories: [TipHistory]) { self.histories = histories }

    func isInvalidated(tip: Int, key: TipKey?) -> Bool { histories[tip].currentInvalidation != nil }
    func displays(ofTip tip: Int, key: TipKey?) -> DonationColumns { histories[tip].displayColumns }
    func invalidations(ofTip tip: Int, key: TipKey?) -> DonationColumns { histories[tip].invalidationColumns }
    func countDates(ofTip tip: Int, key: TipKey?, invalidations: Bool, within window: Int64?, endingAt now: Int64) -> Int {
        if invalidations { return histories[tip].invalidationColumns.count(within: window, endingAt: now) }
        return histories[tip].displayColumns.count(within: window, endingAt: now)
    }

    func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns {
        let history = histories[tip]
        return TipRecordColumns(invalidated: history.currentInvalidation != nil, displays: history.displayColumns,
                                invalidations: history.invalidationColumns)
    }
}

private struct Format2Benchmarks {
    let day: Int64 = 86_400_000
    let start: Int64 = 1_750_000_000_000
    let caseCount = 1 << 16
    let range = SourceRange(file: "bench.tips", at: SourceLocation(line: 1, column: 1))

    func node(_ kind: CheckedExpression.Kind, _ type: ExpressionType) -> CheckedExpression {
        CheckedExpression(kind, type: type, range: range)
    }

    func evaluator(_ program: CheckedProgram) -> RuleEvaluator {
        var diagnostics: [Diagnostic] = []
        guard let pack = RulePackCompiler.compile(program, diagnostics: &diagnostics) else { fatalError("\(diagnostics)") }
        do { return RuleEvaluator(pack: try RulePackVerifier.verify(pack)) } catch { fatalError("the benchmark's pack does not verify: \(error)") }
    }


    func percent(_ part: Int, of whole: Int) -> String { Report.format(100 * Double(part) / Double(whole)) + "%" }

    /// `tip(welcome).invalidated and tip(welcome).invalidations.within(1d).count == 0` ("a day
    /// after the welcome tip went away") for tip `followUp`, the welcome tip's history holding
    /// 24 invalidations (a tip closed again and again, on several devices) over 30 days, and
    /// `now` anywhere in days 0–33: the count is 0 in some calls and not in others. In a quarter
    /// of the calls the welcome tip was reset after them (not invalidated, no invalidations), so
    /// `and` stops at its first operand.
    func invalidationWindowBenchmark() {
        let welcome = CheckedTip(name: "welcome", title: "Welcome", range: range)
        let invalidated = node(.tipState(TipStateQuery(tip: 0, member: .invalidated)), .value(.bool))
        // No events: the invalidations collection comes second after them (index 1).
        let invalidations = node(.tipState(TipStateQuery(tip: 0, member: .invalidations)), .collection(event: 1))
        let count = node(.count(node(.within(invalidations, windowMilliseconds: Int(day)), .collection(event: 1))), .value(.int))
        let rule = node(.logical(.and, invalidated, node(.compare(.equal, count, node(.constant(.int(0)), .value(.int))), .value(.bool))), .value(.bool))
        let program = CheckedProgram(displayFrequency: .daily, tips: [welcome, CheckedTip(name: "followUp", title: "F", rules: [rule], range: range)])
        let evaluator = evaluator(program)
        var random = SeededRandom(seed: 0x2F0_12A7_9E37_79B9)
        var records: [TipEventRecord] = []
        for index in 0..<24 {
            let date = start + Int64.random(in: 0..<(30 * day), using: &random)
            records.append(TipEventRecord(id: "i\(index)", tip: "welcome", stamp: Stamp(milliseconds: date, device: "d\(index % 3)"),
                                          kind: .invalidation(index % 2 == 0 ? .tipClosed : .actionPerformed)))
        }
        let table = BenchmarkRecords([TipHistory(records: records), TipHistory()])
        let reset = TipEventRecord(id: "r", tip: "welcome", stamp: Stamp(milliseconds: start + 31 * day, device: "d0"), kind: .reset)
        let resetTable = BenchmarkRecords([TipHistory(records: records + [reset]), TipHistory()])
        precondition(table.isInvalidated(tip: 0, key: nil) && !resetTable.isInvalidated(tip: 0, key: nil))
        let instance = RuleInstance(records: table), resetInstance = RuleInstance(records: resetTable)
        let parameters = ParameterValues(pack: evaluator.pack.pack)
        let store = InMemoryDonationStore(events: [])
        let nows = (0..<caseCount).map { _ in Int64.random(in: start..<(start + 33 * day), using: &random) }
        let wasReset = (0..<caseCount).map { _ in Int.random(in: 0..<4, using: &random) == 0 }
        let mask = caseCount - 1
        // The floor asks the same table for the same history and counts its invalidations in
        // the window by the same binary search.
        let timing = PairedTiming(clock: .threadCPU, iterations: 4 * caseCount, measured: { index in
            evaluator.evaluateRule(tip: 1, rule: 0, parameters: parameters, store: store, now: nows[index & mask],
                                   instance: wasReset[index & mask] ? resetInstance : instance).holds ? 1 : 0
        }, floor: { index in
            let table = wasReset[index & mask] ? resetTable : table
            guard table.isInvalidated(tip: 0, key: nil) else { return 0 }
            let now = nows[index & mask]
            return table.invalidations(ofTip: 0, key: nil).timestamps.withUnsafeBufferPointer { window($0, now: now, window: day).count } == 0 ? 1 : 0
        })
        precondition(timing.measuredSum == timing.floorSum, "the VM and the floor disagree")
        Report.ratio("tip(welcome).invalidated and tip(welcome).invalidations.within(1d).count == 0, 24 invalidations",
                     value: timing.measured, floor: timing.floor, floorLabel: "native", unit: "ns/eval", target: 2)
        let stopped = (0..<4 * caseCount).count { wasReset[$0 & mask] }
        print("    held in \(percent(timing.measuredSum, of: 4 * caseCount)) of calls; `and` stopped at its first operand in \(percent(stopped, of: 4 * caseCount))")
    }

    /// `trailViewed.where(trailID == key).count >= 3` for instances of `newTrail[trailID: Int]`,
    /// over 100 donations whose trail ids are at random among 32, each call for a key at random
    /// among them: about half the instances have 3 views.
    func instanceWhereBenchmark() {
        let event = PackEvent(name: "trailViewed", fields: [PackField(name: "trailID", type: .int)])
        let viewed = node(.event(0), .collection(event: 0))
        let matches = node(.compare(.equal, node(.field(0), .value(.int)), node(.instanceKey, .value(.int))), .value(.bool))
        let count = node(.count(node(.filter(viewed, predicate: matches), .collection(event: 0))), .value(.int))
        let rule = node(.compare(.greaterOrEqual, count, node(.constant(.int(3)), .value(.int))), .value(.bool))
        let program = CheckedProgram(displayFrequency: .daily, events: [event],
                                     tips: [CheckedTip(name: "newTrail", title: "A new trail", rules: [rule], range: range,
                                                       key: PackTipKey(name: "trailID", type: .int))])
        let evaluator = evaluator(program)
        var random = SeededRandom(seed: 0x2F0_12A7_9E37_79B9)
        var filling = InMemoryDonationStore(events: [event])
        for index in 0..<100 {
            do {
                try filling.donate(event: 0, at: start + Int64(index) * 60_000, payload: [.int(Int64.random(in: 0..<32, using: &random))])
            } catch { fatalError("\(error)") }
        }
        let store = filling
        let parameters = ParameterValues(pack: evaluator.pack.pack)
        let keys = (0..<caseCount).map { _ in Int64.random(in: 0..<32, using: &random) }
        let mask = caseCount - 1
        let now = start + day
        // The VM is asked for the instance as the engine asks: a `RuleInstance` made per call.
        // The floor reads the event's payload column from the store, as the VM must, and counts
        // the donations whose id is the key.
        let timing = PairedTiming(clock: .threadCPU, iterations: 4 * caseCount, measured: { index in
            evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: now,
                                   instance: RuleInstance(key: .int(keys[index & mask]))).holds ? 1 : 0
        }, floor: { index in
            let key = keys[index & mask]
            let ids = store.donations(ofEvent: 0).fields[0].slots
            var matching = 0
            for id in ids where id == key { matching += 1 }
            return matching >= 3 ? 1 : 0
        })
        precondition(timing.measuredSum == timing.floorSum, "the VM and the floor disagree")
        Report.ratio("newTrail[trailID]: trailViewed.where(trailID == key).count >= 3, 100 donations", value: timing.measured,
                     floor: timing.floor, floorLabel: "native", unit: "ns/eval", target: 2)
        print("    held in \(percent(timing.measuredSum, of: 4 * caseCount)) of calls")
    }

    func run() {
        Report.header("Format 2 in the VM (one thread, its CPU time: run under taskset -c 0)")
        invalidationWindowBenchmark()
        instanceWhereBenchmark()
    }
}

