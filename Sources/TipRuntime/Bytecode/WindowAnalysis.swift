/// The event windows a rule reads: every `(event, window)` of its `WITHIN` and
/// `COUNT_EVENT_WITHIN` instructions. The runtime uses them to compute the next instant at which
/// a window's contents change with no new donation.
package struct EventWindow: Sendable, Hashable {
    package var event: Int
    package var milliseconds: Int64
}

/// A window over another tip's displays or invalidations (`tip(X).invalidations.within(1d)`):
/// its contents change as time passes like an event window's. `tip` is the tip whose records
/// it reads (any instance of it, when the tip has a key).
package struct TipRecordWindow: Sendable, Hashable {
    package var tip: Int
    package var milliseconds: Int64
}

package enum WindowAnalysis {
    /// The windows of verified `code`, in program order without duplicates.
    package static func windows(in code: [UInt32]) -> [EventWindow] {
        analyze(code).events
    }

    /// The windows of verified `code` over tips' records, in program order without duplicates.
    package static func tipWindows(in code: [UInt32]) -> [TipRecordWindow] {
        analyze(code).tips
    }

    private enum Source {
        case event(Int)
        case tip(Int)
    }

    private static func analyze(_ code: [UInt32]) -> (events: [EventWindow], tips: [TipRecordWindow]) {
        var result: [EventWindow] = []
        var tipResult: [TipRecordWindow] = []
        var collections: [Source] = []
        var pc = 0
        while pc < code.count {
            let word = code[pc]
            guard let opcode = Opcode(rawValue: Instruction.opcodeByte(word)) else { break }
            let a = word >> 8, info = opcode.info
            if info.opensCollection { collections.append(info.operand == .event ? .event(Int(a)) : .tip(Int(a))) }
            if info.extra == .window, pc + 2 < code.count {
                // The window of event A (`COUNT_EVENT_WITHIN`) or of the top collection (`WITHIN`).
                let milliseconds = Instruction.immediate(code[pc + 1], code[pc + 2])
                switch info.operand == .event ? .event(Int(a)) : collections.last {
                case .event(let event)?: append(EventWindow(event: event, milliseconds: milliseconds), to: &result)
                case .tip(let tip)?:
                    let window = TipRecordWindow(tip: tip, milliseconds: milliseconds)
                    if milliseconds > 0, !tipResult.contains(window) { tipResult.append(window) }
                case nil: break
                }
            }
            if info.closesCollection, !collections.isEmpty { collections.removeLast() }
            pc += 1 + info.extra.count(operand: a)
        }
        return (result, tipResult)
    }

    private static func append(_ window: EventWindow, to result: inout [EventWindow]) {
        if window.milliseconds > 0, !result.contains(window) { result.append(window) }
    }

    /// The first instant after `now` at which the set of donations inside `window` changes
    /// without a new donation: the oldest donation inside leaves it, or a donation dated in the
    /// future enters it. Nil when neither will happen.
    package static func nextChange(timestamps: [Int64], window: Int64, now: Int64) -> Int64? {
        // First donation with date > now - window.
        let (start, overflow) = now.subtractingReportingOverflow(window)
        let lowerBound = overflow ? Int64.min : start
        let first = firstIndex(in: timestamps) { $0 > lowerBound }
        var candidates: [Int64] = []
        if first < timestamps.count, timestamps[first] <= now {
            let (leaves, overflow) = timestamps[first].addingReportingOverflow(window)
            if !overflow { candidates.append(leaves) }
        }
        let future = firstIndex(in: timestamps) { $0 > now }
        if future < timestamps.count { candidates.append(timestamps[future]) }
        return candidates.filter { $0 > now }.min()
    }

    /// The first index whose element satisfies `predicate`, which must be false then true
    /// along the sorted array.
    private static func firstIndex(in sorted: [Int64], where predicate: (Int64) -> Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(sorted[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
