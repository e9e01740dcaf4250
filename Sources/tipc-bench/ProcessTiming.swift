#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension Measure {
    /// Nanoseconds of CPU time used by the whole process so far (every thread).
    static func processCPUNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// The value of a line of `/proc/self/status` (`Cpus_allowed_list:`), trimmed.
    static func statusField(_ name: String) -> String? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(name) {
                return String(text.dropFirst(name.count).filter { !$0.isWhitespace })
            }
        }
        return nil
    }
}

/// Whole `tipc` processes, timed from spawn to exit: what a user waits for.
enum ProcessTiming {
    /// One finished process: its wall time and its CPU time (user + system), in nanoseconds.
    struct Run {
        var wall: Double
        var cpu: Double
        var exitStatus: Int32
        /// The process's peak resident memory (`ru_maxrss`), in bytes.
        var peakResidentBytes: Int = 0
    }

    /// `tipc check` of `manifest` (written to a temporary file) against `tipc --version`, in
    /// turns, `runs` times each: medians of wall and CPU time. Every check must exit 0 having
    /// printed `expectedDiagnostics` diagnostics (counted in its JSON output once, first).
    static func checkAgainstVersion(manifest: [UInt8], expectedDiagnostics: Int, runs: Int) {
        guard let tipc = siblingExecutable("tipc") else {
            print("tipc is not built beside tipc-bench: swift build -c release --product tipc")
            return
        }
        guard let folder = temporaryFolder() else {
            print("cannot make a temporary folder")
            return
        }
        let path = folder + "/tips200.yaml"
        defer {
            unlink(path)
            rmdir(folder)
        }
        guard write(manifest, to: path) else {
            print("cannot write \(path)")
            return
        }
        // The process reports what the check in this process found.
        struct CheckOutput: Decodable {
            struct Summary: Decodable { var errors: Int; var warnings: Int }
            var summary: Summary
        }
        let json = output(of: tipc, ["check", "--format", "json", path])
        let summary = json.flatMap { try? JSONDecoder().decode(CheckOutput.self, from: Data($0.utf8)) }?.summary
        guard let summary, summary.errors == 0, summary.warnings == expectedDiagnostics else {
            print("tipc check --format json did not report \(expectedDiagnostics) warnings: \(json ?? "no output")")
            return
        }

        var checks: [Run] = [], versions: [Run] = []
        for _ in 0..<runs {
            let check = spawn(tipc, ["check", path])
            precondition(check.exitStatus == 0, "tipc check exited with \(check.exitStatus)")
            checks.append(check)
            let version = spawn(tipc, ["--version"])
            precondition(version.exitStatus == 0, "tipc --version exited with \(version.exitStatus)")
            versions.append(version)
        }
        let checkWall = Measure.median(of: checks.map(\.wall)) / 1e6, versionWall = Measure.median(of: versions.map(\.wall)) / 1e6
        let checkCPU = Measure.median(of: checks.map(\.cpu)) / 1e6, versionCPU = Measure.median(of: versions.map(\.cpu)) / 1e6
        Report.ratio("tipc check process, wall (median of \(runs))", value: checkWall, floor: versionWall,
                     floorLabel: "tipc --version", unit: "ms")
        Report.ratio("tipc check process, CPU (median of \(runs))", value: checkCPU, floor: versionCPU,
                     floorLabel: "tipc --version", unit: "ms")
        Report.figure("the check's own work (wall, difference of medians)", checkWall - versionWall, unit: "ms")
    }

    /// A new, empty folder under /tmp named `prefix` and a random suffix (nil when it cannot
    /// be made).
    static func temporaryFolder(_ prefix: String = "tipc-bench") -> String? {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        return mkdtemp(&template).map { String(cString: $0) }
    }

    /// An executable in the same folder as this one.
    static func siblingExecutable(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let exe = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = exe.lastIndex(of: "/") else { return nil }
        let path = String(exe[...slash]) + name
        return access(path, X_OK) == 0 ? path : nil
    }

    /// Runs `path` with `arguments`, its output thrown away, and waits for it.
    static func spawn(_ path: String, _ arguments: [String]) -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        return spawn(path, arguments, actions: &actions)
    }

    /// Runs `path` with `arguments` and returns what it printed on standard output.
    static func output(of path: String, _ arguments: [String]) -> String? {
        outputAndRun(of: path, arguments).map(\.output)
    }

    /// Runs `path` with `arguments`: what it printed on standard output, and the run's figures;
    /// nil when it could not be run.
    static func outputAndRun(of path: String, _ arguments: [String]) -> (output: String, run: Run)? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var bytes: [UInt8] = []
        let run = spawn(path, arguments, actions: &actions, beforeWaiting: {
            close(pipeEnds[1])
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(pipeEnds[0], &chunk, chunk.count)
                guard count > 0 else { break }
                bytes += chunk[..<count]
            }
            close(pipeEnds[0])
        })
        return run.exitStatus < 0 ? nil : (String(decoding: bytes, as: UTF8.self), run)
    }

    private static func spawn(_ path: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t,
                              beforeWaiting: () -> Void = {}) -> Run {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let start = Measure.now()
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return Run(wall: 0, cpu: 0, exitStatus: -1) }
        beforeWaiting()
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { return Run(wall: 0, cpu: 0, exitStatus: -1) }
        let wall = Double(Measure.now() - start)
        let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime)
        // Exited normally: the low seven bits are 0 and the status is in the next byte.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        return Run(wall: wall, cpu: cpu * 1e9, exitStatus: exitStatus, peakResidentBytes: Int(usage.ru_maxrss) * 1024)
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }

    /// Writes `bytes` to a new file at `path`.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
    }
}
