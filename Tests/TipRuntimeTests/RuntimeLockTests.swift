import Testing
import TipRuntime

/// `RuntimeLock`, the runtime's pthread lock (it replaces `Synchronization.Mutex`, which Apple
/// systems before iOS 18 / macOS 15 lack): exclusive access from many tasks at once.
@Test func runtimeLockGivesExclusiveAccess() async {
    let counter = RuntimeLock(0)
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
            group.addTask {
                for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
            }
        }
    }
    #expect(counter.withLock { $0 } == 80_000)
}

@Test func runtimeLockPassesErrorsAndResultsThrough() {
    struct Refused: Error {}
    let lock = RuntimeLock([1, 2, 3])
    #expect(lock.withLock { $0.reduce(0, +) } == 6)
    #expect(throws: Refused.self) {
        try lock.withLock { (_: inout [Int]) throws(Refused) in throw Refused() }
    }
}
