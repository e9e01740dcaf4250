#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the runtime's lock, for every system it runs on.
///
/// `Synchronization.Mutex` needs iOS 18 / macOS 15, and apps embed `TipRuntime` from iOS 15 /
/// macOS 12 on; pthread mutexes exist on all of them (and on Linux), so one code path is used
/// everywhere and the one tested here is the one apps run. The mutex lives at a fixed address
/// (allocated once, freed in `deinit`), as pthreads require.
package final class RuntimeLock<Value>: Sendable {
    // Only touched with `mutex` held, which is what makes sharing them between threads safe.
    private nonisolated(unsafe) var value: Value
    private nonisolated(unsafe) let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
