/// A command line that does not fit the command: reported with the usage line, exit code 2.
public struct UsageError: Error, Sendable, Hashable {
    /// The text after `Error: `.
    public var message: String
    /// The text after `Help: ` (a did-you-mean, the allowed values), if any.
    public var help: String?

    public init(_ message: String, help: String? = nil) {
        self.message = message
        self.help = help
    }
}
