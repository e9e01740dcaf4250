import TipRuntime
import TipcCompiler

/// VM benchmarks: each figure beside its floor, a hand-written Swift closure doing the same
/// work on the same in-memory data and giving the same answers, timed in turns in one run.
/// The data make rules fail as well as hold, and `and` short-circuit as well as not; each
/// figure says how often. Everything here runs on one thread: run it under `taskset -c 0`.
func runVMBenchmarks() {
    VMBenchmarks().run()
}

/// The inputs of one evaluation: parameter values and the instant.
private struct Case {
    var parameters: ParameterValues
    var now: Int64
}

private struct VMBenchmarks {
    let day: Int64 = 86_400_000
    /// The start of every store's history.
    let start: Int64 = 1_750_000_000_000
    /// Calls cycle through this many cases (a power of two): too many for the branch predictor
    /// to learn, which it did with 1,024 (the same instants again every 1,024 calls), and then
    /// the figures measured how well it had learnt each loop.
    let caseCount = 1 << 16

    func compile(_ program: CheckedProgram) -> RulePack {
        var diagnostics: [Diagnostic] = []
        guard let pack = RulePackCompiler.compile(program, diagnostics: &diagnostics) else { fatalError("\(diagnostics)") }
        return pack
    }

    func verified(_ pack: RulePack) -> VerifiedRulePack {
        do { return try RulePackVerifier.verify(pack) } catch { fatalError("the benchmark's pack does not verify: \(error)") }
    }

    func donate(_ store: inout InMemoryDonationStore, event: Int, at date: Int64, payload: [RuntimeValue] = []) {
        do { try store.donate(event: event, at: date, payload: payload) } catch { fatalError("\(error)") }
    }

    func node(_ kind: CheckedExpression.Kind, _ type: ExpressionType) -> CheckedExpression {
        CheckedExpression(kind, type: type, range: SourceRange(file: "bench.tips", at: SourceLocation(line: 1, column: 1)))
    }

    /// `$signedIn and searchPerformed.count >= 3 within 3d`
    var signedInRule: CheckedExpression {
        node(.logical(.and, node(.parameter(0), .value(.bool)),
                      node(.compare(.greaterOrEqual,
                                    node(.count(node(.within(node(.event(0), .collection(event: 0)), windowMilliseconds: 3 * 86_400_000), .collection(event: 0))), .value(.int)),
                                    node(.constant(.int(3)), .value(.int))), .value(.bool))), .value(.bool))
    }

    /// `itemViewed.largestSubset(itemID).count >= 3 within 5d` (the window pushed onto the event)
    var largestSubsetRule: CheckedExpression {
        let viewed = node(.within(node(.event(1), .collection(event: 1)), windowMilliseconds: 5 * 86_400_000), .collection(event: 1))
        return node(.compare(.greaterOrEqual, node(.count(node(.largestSubset(viewed, field: 0), .collection(event: 1))), .value(.int)),
                             node(.constant(.int(3)), .value(.int))), .value(.bool))
    }

    /// A program over Bool parameters `flag0`… (default true) and the events `searchPerformed`,
    /// `itemViewed(itemID)` and `event2`….
    func program(tips: [[CheckedExpression]], parameters: Int = 1, events: Int = 2) -> CheckedProgram {
        var declared = [PackEvent(name: "searchPerformed"),
                        PackEvent(name: "itemViewed", fields: [PackField(name: "itemID", type: .int)])]
        for index in 2..<max(2, events) { declared.append(PackEvent(name: "event\(index)")) }
        return CheckedProgram(
            displayFrequency: .immediate,
            parameters: (0..<parameters).map { PackParameter(name: "flag\($0)", type: .bool, defaultValue: .bool(true)) },
            events: declared,
            tips: tips.enumerated().map { CheckedTip(name: "tip\($0.offset)", title: "Tip \($0.offset)", rules: $0.element,
                                                     range: SourceRange(file: "bench.tips", at: SourceLocation(line: 1, column: 1))) })
    }

    /// Parameter values with the Bool parameters set to `flags`, in order.
    func parameters(_ pack: RulePack, _ flags: [Bool]) -> ParameterValues {
        var parameters = ParameterValues(pack: pack)
        for (index, flag) in flags.enumerated() {
            do { try parameters.set(index, to: .bool(flag)) } catch { fatalError("\(error)") }
        }
        return parameters
    }

    func percent(_ part: Int, of whole: Int) -> String {
        Report.format(100 * Double(part) / Double(whole)) + "%"
    }

    /// `$signedIn and searchPerformed.count >= 3 within 3d` over `donations` donations: 33 days
    /// of history whose days 10–20 have none, so a 3-day window ending in days 13–20 counts
    /// fewer than 3; `signedIn` is false in half the calls, and then `and` stops early.
    /// Returns the VM's and the floor's ns per evaluation.
    ///
    /// The store and both parameter sets are `let`s the calls borrow, as the engine lends its
    /// own: a copy (out of an array, or of a captured `var`) would add five retains and
    /// releases to each call, more than the rule costs.
    func signedInBenchmark(donations: Int, withReference: Bool) -> (vm: Double, native: Double) {
        let pack = compile(program(tips: [[signedInRule]]))
        let evaluator = RuleEvaluator(pack: verified(pack))
        var filling = InMemoryDonationStore(events: pack.events)
        // Days 0–10 and 20–30, evenly.
        let spacing = 20 * day / Int64(donations)
        for index in 0..<donations {
            let offset = Int64(index) * spacing
            donate(&filling, event: 0, at: start + (offset < 10 * day ? offset : offset + 10 * day))
        }
        let store = filling
        let signedIn = parameters(pack, [true]), signedOut = parameters(pack, [false])
        var random = SeededRandom()
        let nows = (0..<caseCount).map { _ in Int64.random(in: start..<(start + 33 * day), using: &random) }
        let isSignedIn = (0..<caseCount).map { _ in Bool.random(using: &random) }
        let mask = caseCount - 1
        let columns = (0..<pack.events.count).map { store.donations(ofEvent: $0).timestamps }
        let event = 0, threshold = 3, length = 3 * day
        // The floor reads the parameter and looks up the event's column on every call, as the
        // VM must (the columns are the store's, by event).
        func native(_ parameters: ParameterValues, _ now: Int64) -> Int {
            guard case .bool(true) = parameters.values[0] else { return 0 }
            return columns[event].withUnsafeBufferPointer { window($0, now: now, window: length).count } >= threshold ? 1 : 0
        }
        let floor = { (index: Int) -> Int in
            isSignedIn[index & mask] ? native(signedIn, nows[index & mask]) : native(signedOut, nows[index & mask])
        }
        let iterations = 4 * caseCount
        let timing = PairedTiming(clock: .threadCPU, iterations: iterations, measured: { index in
            let now = nows[index & mask]
            let outcome = isSignedIn[index & mask]
                ? evaluator.evaluateRule(tip: 0, rule: 0, parameters: signedIn, store: store, now: now)
                : evaluator.evaluateRule(tip: 0, rule: 0, parameters: signedOut, store: store, now: now)
            return outcome.holds ? 1 : 0
        }, floor: floor)
        precondition(timing.measuredSum == timing.floorSum, "the VM and the floor disagree")
        Report.ratio("signedIn and searchPerformed.count >= 3 within 3d, \(donations) donations", value: timing.measured,
                     floor: timing.floor, floorLabel: "native", unit: "ns/eval", target: 2)
        let stopped = isSignedIn.filter { !$0 }.count
        print("    held in \(percent(timing.measuredSum, of: iterations)) of calls; `and` stopped at $signedIn in \(percent(stopped, of: caseCount))")

        if withReference {
            // The tree-walker's input (every donation as a struct) is built once, outside the
            // timed calls; each call makes only the evaluator for its instant.
            let donations = ReferenceEvaluator(parameters: [], store: store, now: 0).donations
            let reference = PairedTiming(clock: .threadCPU, samples: 7, iterations: 1024, measured: { index in
                let parameters = isSignedIn[index & mask] ? signedIn.values : signedOut.values
                switch ReferenceEvaluator(parameters: parameters, donations: donations, now: nows[index & mask]).evaluateRule(signedInRule) {
                case .success(let holds): return holds ? 1 : 0
                case .failure(let failure): fatalError("the reference evaluator failed: \(failure)")
                }
            }, floor: floor)
            precondition(reference.measuredSum == reference.floorSum, "the reference evaluator and the floor disagree")
            // Against the floor above: the floor's turns here, 1,024 calls each, start with a
            // cache the tree-walker has just filled with its own data and vary by 3×.
            Report.ratio("  reference tree-walker, same rule and inputs", value: reference.measured, floor: timing.floor,
                         floorLabel: "native (above)", unit: "ns/eval")
        }
        return (timing.measured, timing.floor)
    }

    /// `itemViewed.largestSubset(itemID).count >= 3 within 5d` over 200 donations in 20 days,
    /// item ids at random among 128, the window ending anywhere in days 0–22.
    func largestSubsetBenchmark() {
        let pack = compile(program(tips: [[largestSubsetRule]]))
        let evaluator = RuleEvaluator(pack: verified(pack))
        var random = SeededRandom()
        var filling = InMemoryDonationStore(events: pack.events)
        for index in 0..<200 {
            donate(&filling, event: 1, at: start + Int64(index) * (20 * day / 200), payload: [.int(Int64.random(in: 0..<128, using: &random))])
        }
        let store = filling
        let parameters = ParameterValues(pack: pack)
        let nows = (0..<caseCount).map { _ in Int64.random(in: start..<(start + 22 * day), using: &random) }
        let mask = caseCount - 1
        let length = 5 * day
        let iterations = caseCount / 4
        let timing = PairedTiming(clock: .threadCPU, iterations: iterations, measured: { index in
            evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: nows[index & mask]).holds ? 1 : 0
        }, floor: { index in
            let now = nows[index & mask]
            let columns = store.donations(ofEvent: 1)
            let items = columns.fields[0].slots
            let inWindow = columns.timestamps.withUnsafeBufferPointer { window($0, now: now, window: length) }
            var groups: [Int64: Int] = [:]
            for offset in inWindow { groups[items[offset], default: 0] += 1 }
            return (groups.values.max() ?? 0) >= 3 ? 1 : 0
        })
        precondition(timing.measuredSum == timing.floorSum, "the VM and the floor disagree")
        let windowSizes = store.donations(ofEvent: 1).timestamps.withUnsafeBufferPointer { timestamps in
            nows.prefix(iterations).map { window(timestamps, now: $0, window: length).count }
        }
        Report.ratio("itemViewed.largestSubset(itemID).count >= 3 within 5d", value: timing.measured, floor: timing.floor,
                     floorLabel: "native (Dictionary)", unit: "ns/eval")
        print("    held in \(percent(timing.measuredSum, of: iterations)) of calls; \(Report.format(Double(windowSizes.reduce(0, +)) / Double(iterations))) donations in the window on average")
    }

    /// Every tip of a 1,000-tip pack: tip i is `$flag(i % 10)` then
    /// `event(i % 10).count >= T within W`, over 1,000 donations per event in 20 days, with
    /// W of 1–7 days and T at random below 400, so about half the counts reach T; each flag is
    /// false in half the cases, and then the tip stops at its first rule.
    func thousandTipsBenchmark() {
        let tipCount = 1000, flags = 10, events = 10
        var random = SeededRandom()
        var rules: [[CheckedExpression]] = []
        var tips: [(flag: Int, event: Int, window: Int64, threshold: Int)] = []
        for index in 0..<tipCount {
            let flag = index % flags, event = 2 + index % events
            let window = Int64.random(in: 1...7, using: &random) * day, threshold = Int.random(in: 1..<400, using: &random)
            tips.append((flag, event, window, threshold))
            rules.append([node(.parameter(flag), .value(.bool)),
                          node(.compare(.greaterOrEqual,
                                        node(.count(node(.within(node(.event(event), .collection(event: event)), windowMilliseconds: Int(window)), .collection(event: event))), .value(.int)),
                                        node(.constant(.int(Int64(threshold))), .value(.int))), .value(.bool))])
        }
        let pack = compile(program(tips: rules, parameters: flags, events: 2 + events))
        let evaluator = RuleEvaluator(pack: verified(pack))
        var filling = InMemoryDonationStore(events: pack.events)
        for event in 2..<(2 + events) {
            for index in 0..<1000 { donate(&filling, event: event, at: start + Int64(index) * (20 * day / 1000)) }
        }
        let store = filling
        // Each case: every flag at random, `now` in the last day; 1,024 cases of 1,000 tips each
        // are more than the branch predictor learns. (Reading a case's parameters out of the
        // array costs a few retains per call of 1,000 tips, on both sides.)
        let caseCount = 1024
        let cases = (0..<caseCount).map { _ in
            Case(parameters: parameters(pack, (0..<flags).map { _ in Bool.random(using: &random) }),
                 now: Int64.random(in: (start + 19 * day)..<(start + 20 * day), using: &random))
        }
        let mask = caseCount - 1
        let columns = (0..<pack.events.count).map { store.donations(ofEvent: $0).timestamps }
        /// Whether rule `rule` (0 or 1) of `tip` holds.
        func holds(_ tip: (flag: Int, event: Int, window: Int64, threshold: Int), rule: Int, _ input: Case) -> Bool {
            if rule == 0 {
                guard case .bool(true) = input.parameters.values[tip.flag] else { return false }
                return true
            }
            return columns[tip.event].withUnsafeBufferPointer { window($0, now: input.now, window: tip.window).count } >= tip.threshold
        }
        let iterations = caseCount / 4

        // `evaluateAllTips`: per tip, the outcome of each rule evaluated, stopping at the first
        // that does not hold; the floor builds the same arrays.
        let all = PairedTiming(clock: .threadCPU, iterations: iterations, measured: { index in
            evaluator.evaluateAllTips(parameters: cases[index & mask].parameters, store: store, now: cases[index & mask].now)
                .reduce(0) { $0 + ($1.isSatisfied ? 1 : 0) }
        }, floor: { index in
            let input = cases[index & mask]
            let outcomes = tips.map { tip -> [Bool] in
                var outcomes: [Bool] = []
                outcomes.reserveCapacity(2)
                for rule in 0..<2 {
                    outcomes.append(holds(tip, rule: rule, input))
                    if !outcomes[rule] { break }
                }
                return outcomes
            }
            return outcomes.reduce(0) { $0 + ($1.allSatisfy { $0 } ? 1 : 0) }
        })
        precondition(all.measuredSum == all.floorSum, "the VM and the floor disagree")
        let tipCalls = iterations * tipCount
        Report.ratio("all tips of a 1,000-tip pack, per tip (evaluateAllTips: each rule's outcome)", value: all.measured / Double(tipCount),
                     floor: all.floor / Double(tipCount), floorLabel: "native", unit: "ns/tip")

        // `satisfiedTips`: only whether each tip's rules all hold.
        let satisfied = PairedTiming(clock: .threadCPU, iterations: iterations, measured: { index in
            evaluator.satisfiedTips(parameters: cases[index & mask].parameters, store: store, now: cases[index & mask].now)
                .reduce(0) { $0 + ($1 ? 1 : 0) }
        }, floor: { index in
            let input = cases[index & mask]
            var satisfied = [Bool](repeating: true, count: tipCount)
            for (offset, tip) in tips.enumerated() where !holds(tip, rule: 0, input) || !holds(tip, rule: 1, input) {
                satisfied[offset] = false
            }
            return satisfied.reduce(0) { $0 + ($1 ? 1 : 0) }
        })
        precondition(satisfied.measuredSum == satisfied.floorSum && satisfied.measuredSum == all.measuredSum, "the VM and the floor disagree")
        Report.ratio("all tips of a 1,000-tip pack, per tip (satisfiedTips)", value: satisfied.measured / Double(tipCount),
                     floor: satisfied.floor / Double(tipCount), floorLabel: "native", unit: "ns/tip")
        var flagFalse = 0, countHeld = 0
        for index in 0..<iterations {
            for tip in tips {
                if !holds(tip, rule: 0, cases[index & mask]) { flagFalse += 1 }
                if holds(tip, rule: 1, cases[index & mask]) { countHeld += 1 }
            }
        }
        print("    tips satisfied: \(percent(satisfied.measuredSum, of: tipCalls)); stopped at the flag: \(percent(flagFalse, of: tipCalls)); count rule held: \(percent(countHeld, of: tipCalls))")
    }

    /// Loading and verifying a 10,000-tip pack, beside the CRC-32 of its bytes (which any load
    /// must compute: it reads every byte once).
    func loadBenchmark() {
        let tips = (0..<10_000).map { _ in [signedInRule] }
        let bytes = RulePackWriter.encode(compile(program(tips: tips)))
        let timing = PairedTiming(clock: .threadCPU, samples: 7, iterations: 1, measured: { _ in
            do { return try RulePackLoader.decode(bytes).pack.tips.count } catch { fatalError("the pack does not load: \(error)") }
        }, floor: { _ in
            Int(CRC32.checksum(bytes))
        })
        precondition(timing.measuredSum == tips.count)
        Report.ratio("load + verify of a 10,000-tip pack (\(bytes.count) bytes)", value: timing.measured / 1e6, floor: timing.floor / 1e6,
                     floorLabel: "CRC-32 of its bytes", unit: "ms")
        print("    target < 50 ms: \(timing.measured / 1e6 < 50 ? "met" : "NOT met")")
    }

    /// Resident memory of 1,000,000 valueless donations in the in-memory store, beside the same
    /// two columns (timestamps, sequence numbers) as plain arrays, both measured the same way:
    /// what is resident afterwards and the peak while they grow, above what was resident before.
    /// Run first, on a heap that holds nothing large yet (see `run`).
    func memoryBenchmark() {
        let count = 1_000_000
        /// Resident bytes per donation above what was resident before `build`, when `build`
        /// calls its argument with the donations in memory: the peak so far, and what is held
        /// once freed memory is given back.
        func measured(_ build: (_ read: () -> Void) -> Int) -> (held: Double, peak: Double) {
            Measure.releaseFreedMemory()
            let before = Measure.residentBytes()
            Measure.resetPeak()
            var held = 0, peak = 0
            let built = build {
                peak = Measure.peakResidentBytes() - before
                Measure.releaseFreedMemory()
                held = Measure.residentBytes() - before
            }
            precondition(built == count && peak > 0)
            return (Double(held) / Double(count), Double(peak) / Double(count))
        }
        let store = measured { read in
            var store = InMemoryDonationStore(events: [PackEvent(name: "opened")])
            for index in 0..<count { donate(&store, event: 0, at: Int64(index) * 1000) }
            read()
            return store.donationCount
        }
        let arrays = measured { read in
            var timestamps: [Int64] = [], sequences: [UInt32] = []
            for index in 0..<count {
                timestamps.append(Int64(index) * 1000)
                sequences.append(UInt32(index))
            }
            read()
            return timestamps.count == sequences.count ? timestamps.count : 0
        }
        Report.ratio("memory per valueless donation, 1,000,000 in the in-memory store: resident", value: store.held, floor: arrays.held,
                     floorLabel: "two plain arrays", unit: "bytes")
        Report.ratio("  peak while they are donated", value: store.peak, floor: arrays.peak, floorLabel: "two plain arrays", unit: "bytes")
        print("    target ≤ 16 bytes resident: \(store.held <= 16 ? "met" : "NOT met")")
    }

    func run() {
        Report.header("VM (one thread, its CPU time: run under taskset -c 0; medians of 7–11 runs, the VM and its floor in turns)")
        // Every block over 128 KiB gets its own mapping, returned when freed. (glibc would
        // otherwise raise that threshold as large blocks are freed, and serve later ones from
        // freed heap, so what ran before would decide whether a column's old copies stay resident.)
        Measure.fixMmapThreshold(128 * 1024)
        memoryBenchmark()
        let small = signedInBenchmark(donations: 10_000, withReference: true)
        let large = signedInBenchmark(donations: 1_000_000, withReference: false)
        print("    1,000,000 vs 10,000 donations: VM \(Report.format(large.vm / small.vm, digits: 2))× (target ≤ 2×: \(large.vm / small.vm <= 2 ? "met" : "NOT met")), native \(Report.format(large.native / small.native, digits: 2))×")
        largestSubsetBenchmark()
        thousandTipsBenchmark()
        loadBenchmark()
    }
}

/// The donations with `now - window < date <= now`, as positions in `timestamps` (the floor of
/// the VM and format-2 benchmarks): the VM's binary search (`Window.bounds`), the same source. Not inlined, so that how the compiler
/// builds it does not depend on the benchmark code around the call: inlined, its step was
/// a conditional move in some builds and a branch in others, and that moved this floor
/// between 20 and 44 ns, since on random instants the branch mispredicts half the time.
@inline(never)
func window(_ timestamps: UnsafeBufferPointer<Int64>, now: Int64, window: Int64) -> Range<Int> {
    func upper(_ bound: Int64) -> Int {
        var length = timestamps.count
        guard length > 0 else { return 0 }
        var base = 0
        while length > 1 {
            let half = length >> 1
            base = timestamps[base &+ half] <= bound ? base &+ half : base
            length &-= half
        }
        return timestamps[base] <= bound ? base &+ 1 : base
    }
    guard window > 0 else { return 0..<0 }
    let high = upper(now)
    let low = upper(now - window)
    return low < high ? low..<high : high..<high
}
