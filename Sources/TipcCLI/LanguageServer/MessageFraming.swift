#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TipcJSON
import TipcCompiler

/// The base protocol's framing: each message is a header block (`Content-Length: N`, other
/// fields ignored, lines ending in CR LF) and a blank line, then N bytes of JSON.
///
/// A broken header is reported and skipped up to the next blank line; a body larger than
/// `maximumBodySize` is read and thrown away, so that the stream stays in step and the server
/// answers the next message.
final class MessageReader {
    /// The largest body read: a source file at its size limit, with room for JSON escaping.
    static let maximumBodySize = 2 * Frontend.maximumFileSize + 1024 * 1024
    /// The largest header block.
    static let maximumHeaderSize = 8 * 1024

    enum Next {
        case message([UInt8])
        /// The header block could not be read; the reason, for the error response.
        case malformedHeader(String)
        /// The body was larger than `maximumBodySize` (and has been skipped).
        case tooLarge(Int)
        /// The input ended.
        case end
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Whether another message is at hand already (buffered, or waiting on the descriptor).
    var hasPendingInput: Bool {
        if start < buffer.count || ended { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    func next() -> Next {
        // The header block, up to the blank line.
        var headerEnd: Int?
        while headerEnd == nil {
            if let found = find([13, 10, 13, 10], from: start) {
                headerEnd = found
            } else if buffer.count - start > Self.maximumHeaderSize {
                start = buffer.count
                return .malformedHeader("a header block longer than \(Self.maximumHeaderSize) bytes")
            } else if !fill() {
                return .end
            }
        }
        let header = String(decoding: buffer[start..<headerEnd!], as: UTF8.self)
        start = headerEnd! + 4
        var length: Int?
        for line in header.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else {
                return .malformedHeader("a header line without ':' ('\(line.prefix(80))')")
            }
            if line[..<colon].lowercased() == "content-length" {
                length = Int(line[line.index(after: colon)...].filter { $0 != " " && $0 != "\t" })
                if length == nil || length! < 0 {
                    return .malformedHeader("Content-Length is not a number ('\(line.prefix(80))')")
                }
            }
        }
        guard let length else { return .malformedHeader("no Content-Length header") }
        if length > Self.maximumBodySize {
            var remaining = length
            while remaining > 0 {
                if start == buffer.count, !fill() { return .end }
                let taken = min(remaining, buffer.count - start)
                start += taken
                remaining -= taken
            }
            compact()
            return .tooLarge(length)
        }
        while buffer.count - start < length {
            if !fill() { return .end }
        }
        let body = Array(buffer[start..<(start + length)])
        start += length
        compact()
        return .message(body)
    }

    private func find(_ pattern: [UInt8], from index: Int) -> Int? {
        guard buffer.count - index >= pattern.count else { return nil }
        var position = index
        while position + pattern.count <= buffer.count {
            if buffer[position] == pattern[0], Array(buffer[position..<(position + pattern.count)]) == pattern { return position }
            position += 1
        }
        return nil
    }

    /// Reads more input; false at its end.
    private func fill() -> Bool {
        if ended { return false }
        compact()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count < 0, errno == EINTR { continue }
            ended = true
            return false
        }
    }

    private func compact() {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 20 {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

/// Writes framed messages.
struct MessageWriter {
    let output: any TextOutput

    func send(_ message: JSON) {
        let body = message.utf8()
        output.write(bytes: Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }
}
