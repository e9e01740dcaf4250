import TipRuntime

/// The device id that stamps the service's writes for one user: the same for every server
/// and store (SQLite or PostgreSQL) and for the life of the user, derived from the user id,
/// so the service needs no per-user row to stamp a write and its stamps stay comparable
/// with the user's devices' (last writer wins by time, then device id).
public enum ServiceDeviceID {
    public static func forUser(_ user: String) -> String {
        "serve-" + String(SHA256.hex(Array("tipc-serve-user:\(user)".utf8)).prefix(16))
    }
}
