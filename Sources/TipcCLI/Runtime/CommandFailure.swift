/// A command that cannot go on: `tipc` prints `error: MESSAGE` and exits with `exitCode`
/// (2 for usage and I/O problems, 1 for bad input).
public struct CommandFailure: Error, Sendable {
    public var exitCode: ExitCode
    public var message: String

    public init(_ exitCode: ExitCode, _ message: String) {
        self.exitCode = exitCode
        self.message = message
    }

    public static func io(_ message: String) -> CommandFailure { CommandFailure(.usageOrIOError, message) }
    public static func input(_ message: String) -> CommandFailure { CommandFailure(.inputHasErrors, message) }
}
