#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the service cannot listen where it was asked to.
public struct ListenError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// `HOST:PORT` (`[IPv6]:PORT` for an IPv6 literal); port 0 asks the system for a free one.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`.
    public init(parsing text: String) throws(ListenError) {
        guard let colon = text.lastIndex(of: ":") else {
            throw ListenError("--listen '\(text)' is not HOST:PORT (e.g. 127.0.0.1:8080)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
            throw ListenError("--listen '\(text)' is not HOST:PORT with a port from 0 to 65535")
        }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A bound, listening TCP socket (its port known, even when the system chose it).
public struct ListenSocket: Sendable {
    public let descriptor: Int32
    public let address: ListenAddress
    /// Whether the socket is bound to a loopback address only.
    public let isLoopback: Bool

    /// Resolves `address` (numeric hosts and names such as `localhost`), binds and listens.
    public init(_ address: ListenAddress) throws(ListenError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            throw ListenError("cannot resolve listen host '\(address.host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let info = first.pointee
        let descriptor = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard descriptor >= 0 else { throw ListenError("cannot create a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, info.ai_addr, info.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            closeSocket(descriptor)
            throw ListenError("cannot listen on \(address): \(reason)")
        }
        guard listen(descriptor, 512) == 0 else {
            let reason = String(cString: strerror(errno))
            closeSocket(descriptor)
            throw ListenError("cannot listen on \(address): \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var port = address.port
        var loopback = false
        withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard getsockname(descriptor, raw, &length) == 0 else { return }
                if Int32(raw.pointee.sa_family) == AF_INET {
                    raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        port = Int(UInt16(bigEndian: v4.pointee.sin_port))
                        loopback = UInt32(bigEndian: v4.pointee.sin_addr.s_addr) >> 24 == 127
                    }
                } else if Int32(raw.pointee.sa_family) == AF_INET6 {
                    raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        port = Int(UInt16(bigEndian: v6.pointee.sin6_port))
                        let bytes = withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) }
                        loopback = bytes == [UInt8](repeating: 0, count: 15) + [1]
                    }
                }
            }
        }
        self.descriptor = descriptor
        self.address = ListenAddress(host: address.host, port: port)
        self.isLoopback = loopback
    }

    /// Closes the socket (when the server never took it).
    public func close() { closeSocket(descriptor) }
}

func closeSocket(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
