/// Which web pages may call the service from a browser (`tipc serve --cors-origin ORIGIN`).
///
/// A browser sends `Origin` with a page's cross-origin request and, before a request that is not
/// "simple" (JSON bodies, `Authorization`), a preflight `OPTIONS` asking whether it may. For an
/// allowed origin the service answers the preflight itself (before any key is checked, since a
/// browser sends none with it) and marks every answer as readable by that origin; any other
/// origin gets no CORS header at all, so the browser keeps the answer from the page.
public struct CORSPolicy: Sendable {
    /// The origins allowed, as `scheme://host[:port]`; `*` allows every origin.
    public let origins: [String]

    /// Request headers a page may send: the key, the body's type and the pack's cache tag.
    static let allowedHeaders = "Authorization, Content-Type, If-None-Match"
    /// Response headers a page may read besides the simple ones.
    static let exposedHeaders = "ETag, Retry-After, WWW-Authenticate, Allow"
    /// How long a browser may keep a preflight's answer, in seconds.
    static let maximumAge = "600"

    /// Checks each origin's form. `*` is refused when the service needs keys: a key would then be
    /// usable from any page on the web, which is what `*` cannot express safely.
    public init(origins: [String], keysRequired: Bool) throws(ListenError) {
        for origin in origins {
            if origin == "*" {
                if keysRequired {
                    throw ListenError("--cors-origin '*' is allowed only without --keys: name the pages' origins instead (e.g. https://app.example.com)")
                }
                continue
            }
            guard Self.isOrigin(origin) else {
                throw ListenError("--cors-origin '\(origin)' is not an origin: write scheme://host[:port], without a path or a trailing '/' (e.g. https://app.example.com)")
            }
            // Browsers send the origin in lower case and without the scheme's default port;
            // one written otherwise would never match.
            if origin.lowercased() != origin || origin.lowercased().hasPrefix("https://") && origin.hasSuffix(":443")
                || origin.lowercased().hasPrefix("http://") && origin.hasSuffix(":80") {
                throw ListenError("--cors-origin '\(origin)': write it as a browser sends it, in lower case and without the default port")
            }
        }
        self.origins = origins
    }

    /// `scheme://host[:port]`: a scheme of letters, digits, `+`, `-` and `.`; a host without a
    /// path, query, fragment or user; a port of up to five digits.
    static func isOrigin(_ text: String) -> Bool {
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let scheme = parts[0], authority = parts[1]
        let schemeCharacters = scheme.allSatisfy { character in
            character.isASCII && (character.isLetter || character.isNumber || character == "+" || character == "-" || character == ".")
        }
        let forbidden: Set<Character> = ["/", "?", "#", "@", " "]
        guard !scheme.isEmpty, schemeCharacters, !authority.isEmpty, !authority.contains(where: forbidden.contains) else { return false }
        if !authority.hasSuffix("]"), let colon = authority.lastIndex(of: ":") {
            let port = authority[authority.index(after: colon)...]
            let digits = port.allSatisfy { $0.isASCII && $0.isNumber }
            guard !port.isEmpty, port.count <= 5, digits, colon != authority.startIndex else { return false }
        }
        return true
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, or nil when that
    /// origin is not allowed.
    func allowedOrigin(_ origin: String?) -> String? {
        guard let origin else { return nil }
        if origins.contains(origin) { return origin }
        return origins.contains("*") ? "*" : nil
    }

    /// The answer to a preflight from an allowed origin for a method the path takes (204), or
    /// nil when `request` is not one (it is then answered as any request: `OPTIONS` is a 405).
    func preflight(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "OPTIONS", let method = request.headers["access-control-request-method"],
              let allowed = allowedOrigin(request.headers["origin"]),
              (try? ServiceRoute(method: method, path: request.path)) != nil else { return nil }
        return HTTPResponse(status: 204, headers: [
            ("Access-Control-Allow-Origin", allowed),
            ("Access-Control-Allow-Methods", method),
            ("Access-Control-Allow-Headers", Self.allowedHeaders),
            ("Access-Control-Max-Age", Self.maximumAge),
            ("Vary", "Origin"),
        ])
    }

    /// `response` made readable by the page that sent `request`, when its origin is allowed.
    func decorate(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        decorate(response, origin: request.headers["origin"])
    }

    /// `response` made readable by a page of `origin` when it is allowed (once: an answer that
    /// says so already is left as it is). Every answer varies by `Origin`, so that a cache in
    /// front never serves one page's answer to another.
    public func decorate(_ response: HTTPResponse, origin: String?) -> HTTPResponse {
        guard !response.headers.contains(where: { $0.0 == "Vary" && $0.1 == "Origin" }) else { return response }
        var response = response
        response.headers.append(("Vary", "Origin"))
        guard let allowed = allowedOrigin(origin) else { return response }
        response.headers += [
            ("Access-Control-Allow-Origin", allowed),
            ("Access-Control-Expose-Headers", Self.exposedHeaders),
        ]
        return response
    }
}
