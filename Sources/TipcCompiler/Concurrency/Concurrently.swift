import Dispatch
import Synchronization

/// Runs `other` on the helper thread while `here` runs on this one, and returns both results:
/// for splitting a large pass in two (the results are combined in order by the caller, so
/// the outcome does not depend on which half finishes first).
/// When there is no helper thread, both run here, `here` first.
func concurrently<Here, Other: Sendable>(_ here: () -> Here, _ other: @escaping @Sendable () -> Other) -> (Here, Other) {
    let result = Handoff<Other>()
    guard HelperThread.shared.run({ result.put(other()) }) else {
        return (here(), other())
    }
    let mine = here()
    return (mine, result.take())
}

/// Moves a value from one thread to another, once.
final class Handoff<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    init() {}

    func put(_ newValue: sending Value) {
        value.withLock { $0 = newValue }
        ready.signal()
    }

    /// Waits for the value and takes it (the handoff no longer holds it).
    func take() -> Value {
        ready.wait()
        return value.withLock { $0.take()! }
    }

    /// Takes the value if it has been put; nil, without waiting, if not yet.
    func takeIfPut() -> Value? {
        guard ready.wait(timeout: .now()) == .success else { return nil }
        return value.withLock { $0.take()! }
    }
}
