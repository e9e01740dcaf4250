import TipcCompiler

/// The exit status of `tipc`, the CI convention of linters.
public enum ExitCode: Int32, Sendable, Hashable {
    /// Success: the input is clean.
    case success = 0
    /// The input has errors (or warnings under `--strict`).
    case inputHasErrors = 1
    /// The command line is wrong, or an input could not be read.
    case usageOrIOError = 2
    /// A bug in tipc.
    case internalError = 3

    /// The status of a check: unreadable input wins, then errors, then warnings when `strict`.
    public static func forCheck(_ diagnostics: [Diagnostic], strict: Bool, inputUnreadable: Bool) -> ExitCode {
        if inputUnreadable { return .usageOrIOError }
        if diagnostics.errorCount > 0 { return .inputHasErrors }
        if strict, diagnostics.warningCount > 0 { return .inputHasErrors }
        return .success
    }
}
