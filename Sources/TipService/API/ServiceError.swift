import TipRuntime

/// An error answer: `{"error":{"code","message"}}` with its HTTP status.
public struct ServiceError: Error, Sendable {
    public var status: Int
    public var code: String
    public var message: String
    public var headers: [(String, String)] = []

    public init(_ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var response: HTTPResponse {
        .json(status, .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]), headers: headers)
    }

    static func badRequest(_ code: String, _ message: String) -> ServiceError { ServiceError(400, code, message) }

    /// A 404 for a name the pack does not have, with a did-you-mean when one is close.
    static func unknown(_ what: String, _ name: String, in candidates: [String]) -> ServiceError {
        var message = "no \(what) named '\(name)'"
        if let close = Suggestion.closest(to: name, in: candidates) { message += "; did you mean '\(close)'?" }
        return ServiceError(404, "unknown-\(what)", message)
    }

    /// The runtime's refusal of a call, as an answer: unknown names 404, wrong values 400, a
    /// store that cannot be reached 503.
    static func runtime(_ error: TipError, pack: RulePack) -> ServiceError {
        switch error {
        case .unknownTip(let name): return unknown("tip", name, in: pack.tips.map(\.name))
        case .unknownGroup(let name): return unknown("group", name, in: pack.groups.map(\.name))
        case .unknownParameter(let name): return unknown("parameter", name, in: pack.parameters.map(\.name))
        case .donation(.unknownEventName(let name)): return unknown("event", name, in: pack.events.map(\.name))
        case .stampOutOfRange: return ServiceError(409, error.code, error.description)
        case .unknownAction(let tip, let action, let declared):
            if let close = Suggestion.closest(to: action, in: declared) {
                return ServiceError(404, error.code, "tip '\(tip)' has no action '\(action)'; did you mean '\(close)'?")
            }
            return ServiceError(404, error.code, error.description)
        case .invalidPack, .unreadablePack, .incompatiblePack: return ServiceError(500, error.code, error.description)
        case .wrongParameterType, .valueNotAllowed, .nonFiniteValue, .missingPlaceholderValue, .wrongPlaceholderType, .missingKey, .unexpectedKey,
             .wrongKeyType, .unreadableKey, .invalidAction, .invalidDuration, .unrepresentableTime, .donation:
            return badRequest(error.code, error.description)
        case .store(let store): return Self.store(store)
        }
    }

    /// A store failure: unreachable or busy → 503 (try again); a record colliding with a
    /// stored one → 409; anything else → 500.
    static func store(_ error: TipStoreError) -> ServiceError {
        switch error.kind {
        case .unavailable, .locked, .io: return ServiceError(503, "store-unavailable", "the store is unavailable: \(error.message)",
                                                            headers: [("Retry-After", "1")])
        case .collision: return ServiceError(409, "collision", error.message)
        case .corrupt, .readOnly, .newerSchema: return ServiceError(500, "store-\(error.kind.rawValue)", error.message)
        }
    }

    /// 503 for a request that arrived too late while the server stops: its handler did not
    /// run, so sending it again (to this server's successor) is safe.
    public static let stopping = ServiceError(503, "stopping", "the server is stopping; the request was not run, send it again",
                                       headers: [("Retry-After", "1"), ("Connection", "close")])

    /// 413, for a body over the limit (answered before the body is read).
    public static func tooLarge(limit: Int) -> ServiceError {
        ServiceError(413, "body-too-large", "the request body is over the limit of \(limit) bytes")
    }
}

/// The closest name to a misspelt one (at most a third of its length in edits, 1 to 3).
enum Suggestion {
    static func closest(to name: String, in candidates: [String]) -> String? {
        let limit = min(3, max(1, name.count / 3))
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            if candidate.lowercased() == name.lowercased() { return candidate }
            let distance = editDistance(Array(name), Array(candidate))
            if distance <= limit, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard a.count < 256, b.count < 256 else { return .max }
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
