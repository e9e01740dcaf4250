#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes text: standard output, standard error, or a buffer in tests.
public protocol TextOutput: AnyObject {
    /// Writes `text` as UTF-8, unchanged (callers add their own line breaks).
    func write(_ text: String)
    /// Writes bytes unchanged (a rule pack on standard output).
    func write(bytes: [UInt8])
    /// Whether the output is an interactive terminal (decides `--color auto`).
    var isTerminal: Bool { get }
}

/// Writes straight to a file descriptor, unbuffered, so output interleaves in the order
/// it was written and nothing is lost when the process exits.
public final class FileDescriptorOutput: TextOutput, Sendable {
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public static let standardOutput = FileDescriptorOutput(descriptor: 1)
    public static let standardError = FileDescriptorOutput(descriptor: 2)

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Reads `descriptor` to its end (standard input, for `-` as a path).
    public static func readAll(descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return bytes
            }
        }
    }

    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Darwin)
                let written = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #elseif canImport(Musl)
                let written = Musl.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return // a closed pipe or full disk: nothing sensible left to do
                }
            }
        }
    }
}

/// Collects everything written, for tests and for callers that post-process output.
public final class CapturedOutput: TextOutput {
    public private(set) var text = ""
    public let isTerminal: Bool

    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    /// Everything written with `write(bytes:)`.
    public private(set) var bytes: [UInt8] = []

    public func write(_ text: String) {
        self.text += text
    }

    public func write(bytes: [UInt8]) {
        self.bytes += bytes
    }
}
