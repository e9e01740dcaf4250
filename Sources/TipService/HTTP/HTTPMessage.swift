import TipcJSON

/// A request as the service sees it: the path still percent-encoded (so a user id may hold
/// any byte, `/` included), the query decoded, header names lowercased, the body whole.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The raw path, e.g. `/v1/users/ann%2Fb/tips`.
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// A response: a status, headers and a body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body.
    public static func json(_ status: Int, _ document: JSON, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers,
                     body: document.utf8() + [UInt8(ascii: "\n")])
    }
}

/// What the server does with a request once its head (request line and headers) has arrived,
/// before any of its body is read.
public enum HTTPAdmission: Sendable {
    /// Answer at once, without reading the body (a wrong route, a missing key).
    case refuse(HTTPResponse)
    /// Read a body of at most this many bytes, then run the handler.
    case read(bodyLimit: Int)
}

/// Percent-decoding of paths and query components.
public enum PercentEncoding {
    /// `text` with `%XX` decoded (and `+` as a space when `plusIsSpace`); nil when an escape is
    /// malformed or the result is not UTF-8.
    public static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        // Nothing to decode (most paths): the text as it is, UTF-8 already.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+"), plusIsSpace {
                bytes.append(0x20)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
