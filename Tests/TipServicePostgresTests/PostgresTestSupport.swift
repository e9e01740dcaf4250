import Foundation
import Testing
import TipRuntime
@testable import TipServicePostgres

/// The PostgreSQL cluster the tests run against: scripts/test.sh starts a throw-away one and
/// exports its URL. Without it these tests fail (they are part of the suite, not optional).
enum TestCluster {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "TIPC_TEST_POSTGRES_URL (or another TIPC_TEST_POSTGRES_ variable) is not set: run the tests with scripts/test.sh, which starts throw-away PostgreSQL clusters for them"
        }
    }

    static func url() throws -> String { try environment("TIPC_TEST_POSTGRES_URL") }

    /// The cluster that the restart tests stop and start (no other test uses it).
    static func restartableURL() throws -> String { try environment("TIPC_TEST_POSTGRES_RESTARTABLE_URL") }

    private static func environment(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { throw Missing() }
        return value
    }

    /// The cluster's URL with another database name (the path's last part).
    static func url(database: String) throws -> String {
        let base = try url()
        let query = base.firstIndex(of: "?") ?? base.endIndex
        guard let slash = base[..<query].lastIndex(of: "/") else { return base }
        return base[...slash] + database + base[query...]
    }

    /// A new, empty database on the cluster; its URL.
    static func freshDatabase() throws -> String {
        let name = "tipc_test_" + RecordID.random().prefix(12)
        let admin = try PostgresConnection(url: try url())
        try admin.execute("CREATE DATABASE \(name)")
        return try url(database: name)
    }

    /// Runs the control script (`stop`, `start-again`) on the restartable cluster, as
    /// scripts/test.sh exported them.
    static func control(_ action: String, _ mode: String? = nil) throws {
        let script = try environment("TIPC_TEST_POSTGRES_CONTROL"), cluster = try environment("TIPC_TEST_POSTGRES_RESTARTABLE_CLUSTER")
        // posix_spawn and waitpid, not Foundation's Process: its exit notification (a SIGCHLD
        // source) was seen to miss the child's exit while exit tests run beside it.
        let arguments = [script, action, cluster] + (mode.map { [$0] } ?? [])
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, script, nil, nil, &cArguments, environ)
        guard spawned == 0 else { throw TipStoreError(.io, "cannot run \(script): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw TipStoreError(.io, "\(script) \(action) failed with status \(status)") }
    }
}


/// A user id no other test uses.
func freshUser(_ prefix: String = "user") -> String { prefix + "-" + RecordID.random() }

extension PostgresServiceStore {
    /// Everything stored for `user`, as one consistent state.
    func load(user: String) throws -> StoreSnapshot {
        try transaction(user: user) { try $0.load() }
    }
}
