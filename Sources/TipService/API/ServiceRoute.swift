/// A request's route: what it asks for, with its path's names decoded. An
/// unknown path is a 404, a known one with another method a 405 (with `Allow`), a user id
/// that is empty, over 128 bytes or not UTF-8 a 400.
struct ServiceRoute {
    enum TipAction: String { case displays, invalidate, reset }

    enum Endpoint: Equatable {
        case health, metrics, getPack, putPack, openAPI
        /// Every experiment's and tip's report (admin).
        case report
        case tips(user: String)
        case donate(user: String, event: String)
        case donateBatch(user: String)
        case deleteUser(user: String)
        case export(user: String)
        case group(user: String, group: String)
        case setParameter(user: String, name: String)
        case tipAction(user: String, tip: String, action: TipAction)
        /// A tap on one of the tip's declared actions (`action` is its id).
        case recordAction(user: String, tip: String, action: String)
        case sync(user: String)

        var isAdmin: Bool { self == .putPack || self == .report }
    }

    let endpoint: Endpoint
    /// The route's pattern, for metrics (never a user id).
    let pattern: String

    init(method: String, path: String) throws(ServiceError) {
        guard path.hasPrefix("/") else { throw ServiceError(404, "not-found", "no route for '\(path)'") }
        let raw = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [String] = []
        for (index, segment) in raw.enumerated() {
            guard let decoded = PercentEncoding.decode(segment) else {
                throw ServiceError(400, "bad-path", "path segment \(index + 1) has a malformed %-escape or is not UTF-8")
            }
            segments.append(decoded)
        }
        func allow(_ methods: [String], _ endpoint: Endpoint, _ pattern: String) throws(ServiceError) -> (Endpoint, String) {
            guard methods.contains(method) else {
                throw ServiceError(405, "method-not-allowed", "\(pattern.split(separator: " ").last ?? "") takes \(methods.joined(separator: " or ")), not \(method)",
                                   headers: [("Allow", methods.joined(separator: ", "))])
            }
            return (endpoint, "\(method) \(pattern)")
        }
        let matched: (Endpoint, String)
        switch segments.count {
        case 1 where segments[0] == "healthz": matched = try allow(["GET"], .health, "/healthz")
        case 1 where segments[0] == "metrics": matched = try allow(["GET"], .metrics, "/metrics")
        case 2 where segments == ["v1", "openapi.json"]: matched = try allow(["GET"], .openAPI, "/v1/openapi.json")
        case 2 where segments == ["v1", "report"]: matched = try allow(["GET"], .report, "/v1/report")
        case 2 where segments == ["v1", "pack"]:
            matched = try allow(["GET", "PUT"], method == "PUT" ? .putPack : .getPack, "/v1/pack")
        case 3 where segments[0] == "v1" && segments[1] == "users":
            matched = try allow(["DELETE"], .deleteUser(user: try Self.user(segments[2])), "/v1/users/{user}")
        case 4... where segments[0] == "v1" && segments[1] == "users":
            let user = try Self.user(segments[2])
            switch (segments[3], segments.count) {
            case ("tips", 4): matched = try allow(["GET"], .tips(user: user), "/v1/users/{user}/tips")
            case ("tips", 6):
                guard let action = TipAction(rawValue: segments[5]) else { throw Self.notFound(path) }
                matched = try allow(["POST"], .tipAction(user: user, tip: segments[4], action: action), "/v1/users/{user}/tips/{tip}/\(action.rawValue)")
            case ("tips", 7) where segments[5] == "actions":
                matched = try allow(["POST"], .recordAction(user: user, tip: segments[4], action: segments[6]),
                                    "/v1/users/{user}/tips/{tip}/actions/{action}")
            case ("events", 4): matched = try allow(["POST"], .donateBatch(user: user), "/v1/users/{user}/events")
            case ("events", 5): matched = try allow(["POST"], .donate(user: user, event: segments[4]), "/v1/users/{user}/events/{event}")
            case ("parameters", 5): matched = try allow(["PUT"], .setParameter(user: user, name: segments[4]), "/v1/users/{user}/parameters/{name}")
            case ("sync", 4): matched = try allow(["POST"], .sync(user: user), "/v1/users/{user}/sync")
            case ("export", 4): matched = try allow(["GET"], .export(user: user), "/v1/users/{user}/export")
            case ("groups", 5): matched = try allow(["GET"], .group(user: user, group: segments[4]), "/v1/users/{user}/groups/{group}")
            default: throw Self.notFound(path)
            }
        default: throw Self.notFound(path)
        }
        (endpoint, pattern) = matched
    }

    private static func user(_ text: String) throws(ServiceError) -> String {
        guard !text.isEmpty else { throw ServiceError(400, "bad-user", "the user id is empty") }
        guard text.utf8.count <= TipServer.maximumUserBytes else {
            throw ServiceError(400, "bad-user", "the user id is \(text.utf8.count) bytes; at most \(TipServer.maximumUserBytes) are allowed")
        }
        return text
    }

    private static func notFound(_ path: String) -> ServiceError {
        ServiceError(404, "not-found", "no route for '\(path.prefix(200))'; routes: /v1/users/{user}, …/tips, …/events, …/events/{event}, "
                     + "…/parameters/{name}, …/tips/{tip}/displays|invalidate|reset, …/tips/{tip}/actions/{action}, …/groups/{group}, …/sync, …/export, "
                     + "/v1/pack, /v1/report, /v1/openapi.json, /healthz, /metrics")
    }
}
