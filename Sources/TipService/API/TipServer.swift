#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TipRuntime
import TipcJSON
import TipAnalytics

/// The tip service: answers each request by running the device runtime
/// (`TipCenter`) over the user's records inside one store transaction, so every decision is
/// the one a device would make and a 2xx answer means the write is durable.
public final class TipServer: Sendable {
    /// Bodies over this are refused (413) before they are read.
    public static let maximumBodyBytes = 64 * 1024
    /// `PUT /v1/pack` may send a pack up to this size.
    public static let maximumPackBytes = 16 * 1024 * 1024
    /// `POST …/events` (a batch of donations) may send a body up to this size.
    public static let maximumBatchBytes = 1024 * 1024
    /// How far ahead of the server's clock a donation may be dated by default (`--max-clock-skew`).
    public static let defaultMaximumClockSkewMilliseconds: Int64 = 5 * 60_000
    /// User ids are opaque strings of at most this many bytes (UTF-8).
    public static let maximumUserBytes = 128
    /// The records (donations, tip records and assignments) one user may hold by default: a request of a
    /// user over it is refused (409 `too-many-records`) before the records are read, and a
    /// write that would take the user over it is rolled back, so every request reads and
    /// answers at most this many (a `sync` answer stays within a few megabytes).
    public static let defaultMaximumRecordsPerUser = 10_000

    let store: any ServiceStore
    let keys: ServiceKeys?
    let cors: CORSPolicy?
    public let metrics = ServiceMetrics()
    private let current: RuntimeLock<ServicePack>
    private let clock: any TipClock
    /// The records one user may hold (`defaultMaximumRecordsPerUser`).
    public let maximumRecordsPerUser: Int
    /// How far ahead of `clock` a donation may be dated (`defaultMaximumClockSkewMilliseconds`):
    /// one dated later is refused (422 `date-in-future`), so a device with a wrong clock cannot
    /// plant donations that count in windows for days to come.
    public let maximumClockSkewMilliseconds: Int64

    public init(pack: ServicePack, store: any ServiceStore, keys: ServiceKeys?, cors: CORSPolicy? = nil, clock: any TipClock = SystemClock(),
                maximumRecordsPerUser: Int = TipServer.defaultMaximumRecordsPerUser,
                maximumClockSkewMilliseconds: Int64 = TipServer.defaultMaximumClockSkewMilliseconds) {
        current = RuntimeLock(pack)
        self.store = store
        self.keys = keys
        self.cors = cors
        self.clock = clock
        self.maximumRecordsPerUser = maximumRecordsPerUser
        self.maximumClockSkewMilliseconds = maximumClockSkewMilliseconds
    }

    /// A `--max-clock-skew` value: a duration such as `30s`, `5m` or `1h30m` (the one duration
    /// grammar: units w, d, h, m, s, ms), from 0 to 366 days, in milliseconds; nil for anything else.
    public static func clockSkewMilliseconds(parsing text: String) -> Int64? {
        guard case .success(let milliseconds) = DurationText.milliseconds(of: text, allowsNegative: false),
              (0...366 * 86_400_000).contains(milliseconds) else { return nil }
        return milliseconds
    }

    /// The pack every request evaluates now.
    public var pack: ServicePack { current.withLock { $0 } }

    /// Replaces the pack for every user (`PUT /v1/pack`): the next request of each user opens
    /// its records with the new pack, by the rules of a store that outlives its pack.
    public func replacePack(_ pack: ServicePack) {
        current.withLock { $0 = pack }
    }

    /// Judges a request on its head, before its body is read: a path without a route, a
    /// wrong method, a bad user id or a missing or wrong key is answered at once; otherwise
    /// the body may be as large as the route takes (none for a GET).
    public func admit(_ head: HTTPRequest) -> HTTPAdmission {
        // A browser's preflight carries no key and no body; `handle` answers it.
        if cors?.preflight(head) != nil { return .read(bodyLimit: 0) }
        var pattern = "unmatched"
        do {
            let route = try ServiceRoute(method: head.method, path: head.path)
            pattern = route.pattern
            try authorize(head, route)
            switch route.endpoint {
            case .putPack: return .read(bodyLimit: Self.maximumPackBytes)
            case .donateBatch: return .read(bodyLimit: Self.maximumBatchBytes)
            case .health, .metrics, .getPack, .openAPI, .report, .tips, .export, .group, .deleteUser: return .read(bodyLimit: 0)
            case .donate, .setParameter, .tipAction, .recordAction, .sync: return .read(bodyLimit: Self.maximumBodyBytes)
            }
        } catch {
            // Refused on its head, and counted as an answer (a failed key shows in the metrics);
            // a page allowed by CORS may still read why.
            metrics.record(route: pattern, status: error.response.status, seconds: 0)
            return .refuse(cors?.decorate(error.response, for: head) ?? error.response)
        }
    }

    /// Answers one request. Never throws and never traps on any input.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = monotonicSeconds()
        if let preflight = cors?.preflight(request) {
            metrics.record(route: "OPTIONS (CORS preflight)", status: preflight.status, seconds: monotonicSeconds() - started)
            return preflight
        }
        let (route, response) = answer(request)
        metrics.record(route: route, status: response.status, seconds: monotonicSeconds() - started)
        return cors?.decorate(response, for: request) ?? response
    }

    /// The last touch to every answer the HTTP layer sends, its own refusals included (a body
    /// too large, too many query arguments, ambiguous framing, stopping): the CORS headers for
    /// a page that may read it.
    public func finish(_ response: HTTPResponse, origin: String?) -> HTTPResponse {
        cors?.decorate(response, origin: origin) ?? response
    }

    private func answer(_ request: HTTPRequest) -> (String, HTTPResponse) {
        let route: ServiceRoute
        do {
            route = try ServiceRoute(method: request.method, path: request.path)
        } catch {
            return ("unmatched", error.response)
        }
        do {
            try authorize(request, route)
            return (route.pattern, try respond(route, request))
        } catch let error as ServiceError {
            return (route.pattern, error.response)
        } catch let error as TipStoreError {
            metrics.recordStoreError(error.kind.rawValue)
            return (route.pattern, ServiceError.store(error).response)
        } catch let error as TipError {
            if case .store(let store) = error { metrics.recordStoreError(store.kind.rawValue) }
            return (route.pattern, ServiceError.runtime(error, pack: pack.pack).response)
        } catch {
            return (route.pattern, ServiceError(500, "internal", "\(error)").response)
        }
    }

    /// With keys: every route but `/healthz` needs one (401), admin routes an admin key (403).
    private func authorize(_ request: HTTPRequest, _ route: ServiceRoute) throws(ServiceError) {
        guard let keys, route.endpoint != .health else { return }
        guard let key = keys.key(authorization: request.headers["authorization"]) else {
            throw ServiceError(401, "unauthorized", request.headers["authorization"] == nil
                                   ? "this route needs an API key: send 'Authorization: Bearer TOKEN'"
                                   : "the API key is not known",
                               headers: [("WWW-Authenticate", "Bearer")])
        }
        if route.endpoint.isAdmin, key.role != .admin {
            throw ServiceError(403, "forbidden", "this route needs an admin key; the key sent is a client key")
        }
    }

    private func respond(_ route: ServiceRoute, _ request: HTTPRequest) throws -> HTTPResponse {
        switch route.endpoint {
        case .health:
            try store.checkHealth()
            return .json(200, .object([("status", .string("ok")), ("version", .string(TipcVersion.current))]))
        case .metrics:
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")], body: Array(metrics.render().utf8))
        case .openAPI:
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(OpenAPIDocument.json.utf8))
        case .getPack:
            let pack = self.pack
            if let tags = request.headers["if-none-match"],
               tags.split(separator: ",").contains(where: { $0.trimmedOfSpaces == pack.etag || $0.trimmedOfSpaces == "*" }) {
                return HTTPResponse(status: 304, headers: [("ETag", pack.etag)])
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/vnd.tipc.tippack"), ("ETag", pack.etag)], body: pack.bytes)
        case .putPack:
            let replacement: ServicePack
            do {
                replacement = try ServicePack(bytes: request.body)
            } catch {
                throw ServiceError(422, "invalid-pack", "the pack does not verify: \(error)")
            }
            replacePack(replacement)
            return .json(200, .object([("etag", .string(replacement.etag)), ("tips", .integer(Int64(replacement.pack.tips.count)))]),
                         headers: [("ETag", replacement.etag)])
        case .report:
            return try report(request)
        case .tips(let user):
            return try tips(user, request)
        case .donate(let user, let event):
            return try donate(user, event, request)
        case .donateBatch(let user):
            return try donateBatch(user, request)
        case .deleteUser(let user):
            try store.transaction(user: user) { persistence in try persistence.clear() }
            return HTTPResponse(status: 204)
        case .export(let user):
            return try export(user)
        case .group(let user, let group):
            return try currentTip(user, group, request)
        case .setParameter(let user, let name):
            return try setParameter(user, name, request)
        case .tipAction(let user, let tip, let action):
            return try tipAction(user, tip, action, request)
        case .recordAction(let user, let tip, let action):
            return try recordAction(user, tip, action, request)
        case .sync(let user):
            return try sync(user, request)
        }
    }

    /// `GET /v1/report[?experiment=NAME&at=DATE]`: what `tipc report --format json` prints for
    /// this store and the current pack, counted in the database.
    private func report(_ request: HTTPRequest) throws -> HTTPResponse {
        var at: Int64?
        if let text = request.query["at"] {
            guard let milliseconds = ISO8601.milliseconds(from: text) else {
                throw ServiceError.badRequest("bad-query", "'at' must be an ISO-8601 instant such as 2026-03-01T09:00:00Z; got '\(text.prefix(100))'")
            }
            at = Int64(milliseconds)
        }
        let pack = self.pack.pack
        let plan: ReportPlan
        do {
            plan = try ReportPlan(pack: pack, experiment: request.query["experiment"], at: at)
        } catch {
            throw ServiceError.unknown("experiment", error.experiment, in: error.known)
        }
        do {
            let report = try plan.report(try store.reportTallies(plan))
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array((try report.json() + "\n").utf8))
        } catch let error as ReportError {
            throw ServiceError(500, "impossible-counts", "the store holds counts no recording can produce: \(error)")
        }
    }

    // MARK: - Users' routes

    /// Runs `body` with the user's runtime, inside one store transaction: refused before the
    /// records are read when the user holds more than `maximumRecordsPerUser`, and rolled
    /// back when it leaves the user over it.
    private func withCenter<T>(_ user: String, _ pack: ServicePack, _ body: (TipCenter) throws -> T) throws -> T {
        try store.transaction(user: user) { persistence in
            let counting = persistence as? UserRecordCounting
            if let counting { try checkRecordCount(try counting.recordCount(atMost: maximumRecordsPerUser + 1), user: user) }
            let center = try TipCenter(pack: pack.prepared, persistence: persistence, clock: clock, assignmentUnit: user)
            let result = try body(center)
            if let counting { try checkRecordCount(try counting.recordCount(atMost: maximumRecordsPerUser + 1), user: user, writing: true) }
            return result
        }
    }

    /// 409 `too-many-records` when `count` is over the limit.
    private func checkRecordCount(_ count: Int, user: String, writing: Bool = false) throws(ServiceError) {
        guard count > maximumRecordsPerUser else { return }
        throw ServiceError(409, "too-many-records", writing
            ? "the request would take user '\(user)' over \(maximumRecordsPerUser) records (donations, tip records and assignments); nothing was written"
            : "user '\(user)' holds more than \(maximumRecordsPerUser) records (donations, tip records and assignments), more than the service reads for one request")
    }

    /// `GET …/tips`: every tip without a key, and every instance of a keyed tip the user has
    /// records of; or the one tip or instance `?tip=` names (an instance without records is
    /// evaluated fresh). It only reads (see `readingOrWriting`).
    private func tips(_ user: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        let tips = pack.pack.tips
        var wanted: (index: Int, key: TipKey?)?
        if let text = request.query["tip"] {
            let instance = try TipInstance.resolve(text, in: pack.pack)
            guard let index = tips.firstIndex(where: { $0.name == instance.tip }) else {
                throw ServiceError.unknown("tip", instance.tip, in: tips.map(\.name))
            }
            wanted = (index, instance.key)
        }
        let entries = try readingOrWriting(user, pack) { center in
            let texts = try TipTexts(pack: pack.pack, query: request.query, center: center)
            var entries: [TipsDocument.Entry] = []
            if let wanted {
                entries.append(try entry(wanted.index, key: wanted.key, center: center, texts: texts))
            } else {
                for (index, tip) in tips.enumerated() {
                    if tip.key == nil {
                        entries.append(try entry(index, key: nil, center: center, texts: texts))
                    } else {
                        for key in try center.instances(of: tip.name) { entries.append(try entry(index, key: key, center: center, texts: texts)) }
                    }
                }
            }
            return entries
        }
        return .json(200, TipsDocument.render(entries, pack: pack.pack))
    }

    /// Answers a request that reads with a runtime over one snapshot of the user's records
    /// (`ServiceStore.snapshot`), without the user's transaction, so that reads never wait for
    /// writers or for each other. Reading can need one write: the first time a user's arm in an
    /// experiment is needed (its assignment) or a hidden arm's tip would have displayed (its
    /// exposure). The snapshot refuses writes, and then the request is answered again inside
    /// the user's transaction, where the runtime stores them: once per user and experiment.
    private func readingOrWriting<T>(_ user: String, _ pack: ServicePack, _ body: (TipCenter) throws -> T) throws -> T {
        do {
            return try body(try readingCenter(user, pack))
        } catch TipError.store(let error) where error.kind == .readOnly {
            return try withCenter(user, pack, body)
        }
    }

    /// A runtime over one snapshot of the user's records, for a request that only reads (see
    /// `readingOrWriting`): refused before the records are read when the user holds too many.
    private func readingCenter(_ user: String, _ pack: ServicePack) throws -> TipCenter {
        try checkRecordCount(try store.recordCount(user: user, atMost: maximumRecordsPerUser + 1), user: user)
        return try TipCenter(pack: pack.prepared, persistence: UserSnapshotPersistence(store: store, user: user), clock: clock,
                             assignmentUnit: user)
    }

    /// The tip (instance) at `index` as an answer writes it: its decision now, why it is not
    /// displayed (`tipc explain`'s reason) and its texts.
    private func entry(_ index: Int, key: TipKey?, center: TipCenter, texts: TipTexts) throws -> TipsDocument.Entry {
        let tip = texts.pack.tips[index]
        let decision = try center.decision(of: tip.name, key: key)
        return TipsDocument.Entry(index: index, tip: tip, key: key, status: decision.status, shouldDisplay: decision.shouldDisplay,
                                  reason: decision.reasonNotDisplayed,
                                  content: try texts.content(of: tip, index: index, arm: decision.arm?.arm),
                                  experiment: decision.arm.map { ($0.experiment.name, $0.arm.name) })
    }

    /// `GET …/groups/{group}`: the tip the group offers now (`TipCenter.currentTip(of:)`), or
    /// null; an unknown group is the runtime's `unknownGroup` (404 with a did-you-mean).
    private func currentTip(_ user: String, _ name: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        let tip = try readingOrWriting(user, pack) { center in
            let texts = try TipTexts(pack: pack.pack, query: request.query, center: center)
            guard let current = try center.currentTip(of: name), let index = pack.pack.tips.firstIndex(where: { $0.name == current }) else {
                return JSON.null
            }
            return TipsDocument.render(try entry(index, key: nil, center: center, texts: texts), pack: pack.pack)
        }
        return .json(200, .object([("group", .string(name)), ("tip", tip)]))
    }

    /// `GET …/export`: the user's records as `tipc store export` writes a store, read from one
    /// snapshot (the statuses are evaluated over the same records the document lists).
    private func export(_ user: String) throws -> HTTPResponse {
        let pack = self.pack
        try checkRecordCount(try store.recordCount(user: user, atMost: maximumRecordsPerUser + 1), user: user)
        let snapshot = try UserSnapshotPersistence(store: store, user: user).load()
        let center = try TipCenter(pack: pack.prepared, persistence: MemoryPersistence(deviceID: "serve-read-only", snapshot: snapshot), clock: clock,
                                   assignmentUnit: user)
        return .json(200, try SnapshotDocument.encode(snapshot, pack: pack.pack) { try center.status(of: $0.tip, key: $0.key) })
    }

    private func donate(_ user: String, _ event: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        let body = try RequestBody(request.body, members: ["value", "date"])
        let donation = try donationRequest(event: event, value: body["value"], date: body["date"], pack: pack.pack, now: clock.milliseconds())
        let record = try withCenter(user, pack) { center in try center.donate(event, value: donation.value, at: donation.date ?? center.nowMilliseconds) }
        return .json(201, Self.render(record))
    }

    /// `POST …/events` `{"donations":[{"event","value"?,"date"?}…]}`: every donation in ONE
    /// transaction, or none: the first element that is refused (checked before any is
    /// stored, or by the runtime as it donates) rolls the whole batch back, and the error
    /// names its index.
    private func donateBatch(_ user: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        let body = try RequestBody(request.body, members: ["donations"])
        guard case .array(let items)? = body["donations"] else {
            throw ServiceError.badRequest("missing-donations", "the body needs 'donations': an array of {\"event\", \"value\"?, \"date\"?}")
        }
        let now = clock.milliseconds()
        var donations: [DonationRequest] = []
        for (index, item) in items.enumerated() {
            do throws(ServiceError) {
                guard case .object(let members) = item else {
                    throw ServiceError.badRequest("wrong-type", "a donation must be a JSON object, not \(item.kindDescription)")
                }
                for (name, _) in members where !["event", "value", "date"].contains(name) {
                    throw ServiceError.badRequest("unknown-member", "unknown member '\(name)'; members: event, value, date")
                }
                guard case .string(let event)? = item["event"] else {
                    throw ServiceError.badRequest("missing-event", "a donation needs an 'event' (a string)")
                }
                donations.append(try donationRequest(event: event, value: item["value"], date: item["date"], pack: pack.pack, now: now))
            } catch {
                throw Self.naming(index, error)
            }
        }
        let records = try withCenter(user, pack) { center in
            try donations.enumerated().map { index, donation in
                do throws(TipError) {
                    return try center.donate(donation.event, value: donation.value, at: donation.date ?? center.nowMilliseconds)
                } catch {
                    // A store failure is the batch's, not the element's.
                    if case .store = error { throw error }
                    throw Self.naming(index, ServiceError.runtime(error, pack: pack.pack))
                }
            }
        }
        return .json(201, .object([("donations", .array(records.map(Self.render)))]))
    }

    /// One donation of a request, its payload typed as its event declares the fields.
    private struct DonationRequest {
        var event: String
        var value: [String: RuntimeValue]
        var date: Int64?
    }

    /// Reads a donation's `value` and `date` for `event`: an unknown event is a 404, a value of
    /// the wrong type a 400, a date more than `maximumClockSkewMilliseconds` after `now` a 422.
    private func donationRequest(event: String, value payload: JSON?, date text: JSON?, pack: RulePack, now: Int64) throws(ServiceError) -> DonationRequest {
        guard let declaration = pack.events.first(where: { $0.name == event }) else {
            throw ServiceError.unknown("event", event, in: pack.events.map(\.name))
        }
        var value: [String: RuntimeValue] = [:]
        if let payload {
            guard case .object(let fields) = payload else {
                throw ServiceError.badRequest("wrong-type", "'value' must be an object of the event's fields, not \(payload.kindDescription)")
            }
            for (name, json) in fields {
                // A value of another type goes to the runtime as JSON types it, which refuses
                // it with its own message (`wrong-field-type`, `unknown-field`).
                let type = declaration.fields.first { $0.name == name }?.type
                guard let converted = type.flatMap({ ValueJSON.value(json, as: $0) }) ?? ValueJSON.natural(json) else {
                    throw ServiceError.badRequest("wrong-field-type", "field '\(name)' of event '\(event)' must be "
                                                  + (type.map(ValueJSON.expected) ?? "a value") + ", not \(json.kindDescription)")
                }
                value[name] = converted
            }
        }
        return DonationRequest(event: event, value: value, date: try clientDate(text, now: now))
    }

    /// A request's `date`: an ISO-8601 string (400 otherwise) at most
    /// `maximumClockSkewMilliseconds` after `now` (422 `date-in-future` otherwise); nil when absent.
    private func clientDate(_ text: JSON?, now: Int64) throws(ServiceError) -> Int64? {
        guard let text else { return nil }
        guard case .string(let string) = text, let ms = ISO8601.milliseconds(from: string) else {
            throw ServiceError.badRequest("wrong-type", "'date' must be an ISO-8601 date string such as \"2026-03-01T09:00:00Z\"")
        }
        let (latest, overflow) = now.addingReportingOverflow(maximumClockSkewMilliseconds)
        if !overflow, Int64(ms) > latest {
            throw ServiceError(422, "date-in-future", "'date' \(string) is \(DurationText.string(milliseconds: Int64(ms) - now)) ahead of the "
                               + "server's clock (\(ISO8601.string(fromMilliseconds: Int(now)))); at most "
                               + "\(DurationText.string(milliseconds: maximumClockSkewMilliseconds)) ahead is accepted; nothing was recorded")
        }
        return Int64(ms)
    }

    /// The refusal of a batch's element `index`, saying which element it is.
    private static func naming(_ index: Int, _ error: ServiceError) -> ServiceError {
        ServiceError(error.status, error.code, "donation \(index): \(error.message)", headers: error.headers)
    }

    private static func render(_ record: DonationRecord) -> JSON {
        .object([("id", .string(record.id)), ("date", .string(ISO8601.string(fromMilliseconds: Int(record.date))))])
    }

    private func setParameter(_ user: String, _ name: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        guard let declaration = pack.pack.parameters.first(where: { $0.name == name }) else {
            throw ServiceError.unknown("parameter", name, in: pack.pack.parameters.map(\.name))
        }
        let body = try RequestBody(request.body, members: ["value"])
        guard let json = body["value"] else { throw ServiceError.badRequest("missing-value", "the body needs a 'value'") }
        guard let value = ValueJSON.value(json, as: declaration.type) ?? ValueJSON.natural(json) else {
            throw ServiceError.badRequest("wrong-parameter-type", "parameter '\(name)' is \(ValueJSON.expected(declaration.type)), not \(json.kindDescription)")
        }
        try withCenter(user, pack) { center in try center.setParameter(name, to: value) }
        return .json(200, .object([("name", .string(name)), ("value", ValueJSON.json(value))]))
    }

    private func tipAction(_ user: String, _ tip: String, _ action: ServiceRoute.TipAction, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        // `newTrail[42]` names an instance of a keyed tip; a wrong or missing key is a 400.
        let instance = try TipInstance.resolve(tip, in: pack.pack)
        guard let index = pack.pack.tips.firstIndex(where: { $0.name == instance.tip }) else {
            throw ServiceError.unknown("tip", tip, in: pack.pack.tips.map(\.name))
        }
        let (name, key) = (instance.tip, instance.key)
        let change: (TipCenter) throws -> Void
        switch action {
        case .displays:
            let body = try RequestBody(request.body, members: ["milliseconds"])
            var milliseconds: Int64 = 0
            if let json = body["milliseconds"] {
                guard case .integer(let ms) = json, ms >= 0 else {
                    throw ServiceError.badRequest("wrong-type", "'milliseconds' must be a whole number of milliseconds, not negative")
                }
                milliseconds = ms
            }
            change = { center in
                // Only an available tip can have been shown: a display of another is refused
                // and records nothing (neither the display nor its time on screen).
                let status = try center.status(of: name, key: key)
                guard status == .available else {
                    let reason = try center.explanation(of: name, key: key).reasonNotDisplayed ?? status.description
                    throw ServiceError(409, "tip-not-available", "tip '\(tip)' is not available (\(reason)): only a tip that is available "
                                       + "can be displayed; nothing was recorded")
                }
                try center.recordDisplay(name, key: key, milliseconds: milliseconds)
            }
        case .invalidate:
            let body = try RequestBody(request.body, members: ["reason"])
            let reasons = InvalidationReason.allCases.map(\.rawValue)
            guard case .string(let text)? = body["reason"] else {
                throw ServiceError.badRequest("missing-reason", "the body needs a 'reason': \(reasons.joined(separator: ", "))")
            }
            guard let reason = InvalidationReason(rawValue: text) else {
                throw ServiceError.badRequest("unknown-reason", "unknown reason '\(text)'"
                                              + (Suggestion.closest(to: text, in: reasons).map { "; did you mean '\($0)'?" } ?? "; reasons: \(reasons.joined(separator: ", "))"))
            }
            change = { try $0.invalidate(name, key: key, reason: reason) }
        case .reset:
            _ = try RequestBody(request.body, members: [])
            change = { try $0.resetEligibility(name, key: key) }
        }
        let entry = try withCenter(user, pack) { center in
            try change(center)
            return try self.entry(index, key: key, center: center, texts: try TipTexts(pack: pack.pack, query: request.query, center: center))
        }
        return .json(200, TipsDocument.render(entry, pack: pack.pack))
    }

    /// `POST …/tips/{tip}/actions/{action}` `{"id"?, "date"?}`: records a tap on an action the
    /// tip declares (`TipCenter.recordAction`). `id` makes a retry safe: the same id again is
    /// the same tap (200 with the stored record, nothing added); without one, each request is
    /// a new tap (201).
    private func recordAction(_ user: String, _ tip: String, _ action: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        let instance = try TipInstance.resolve(tip, in: pack.pack)
        guard let index = pack.pack.tips.firstIndex(where: { $0.name == instance.tip }) else {
            throw ServiceError.unknown("tip", tip, in: pack.pack.tips.map(\.name))
        }
        // Checked before the body: the tip's actions, and those of its experiment's arms (the
        // runtime then accepts the user's own arm's).
        let declaration = pack.pack.tips[index]
        var declared = declaration.actions.map(\.id)
        for shown in pack.pack.experiment(onTip: index)?.arms.flatMap({ $0.actions ?? [] }) ?? [] where !declared.contains(shown.id) {
            declared.append(shown.id)
        }
        guard declared.contains(action) else {
            throw ServiceError.runtime(.unknownAction(tip: declaration.name, action: action, declared: declared), pack: pack.pack)
        }
        let body = try RequestBody(request.body, members: ["id", "date"])
        var id: String?
        if let json = body["id"] {
            guard case .string(let text) = json, !text.isEmpty, text.utf8.count <= Self.maximumActionIDBytes else {
                throw ServiceError.badRequest("wrong-type", "'id' must be a non-empty string of at most \(Self.maximumActionIDBytes) bytes "
                                              + "(e.g. 32 random hex digits, made once per tap)")
            }
            id = text
        }
        let date = try clientDate(body["date"], now: clock.milliseconds())
        let (record, stored) = try withCenter(user, pack) { center in
            try center.recordAction(instance.tip, action: action, key: instance.key, id: id ?? RecordID.random(), at: date)
        }
        return .json(stored ? 201 : 200, .object([
            ("id", .string(record.id)), ("tip", .string(instance.description)), ("action", .string(action)),
            ("date", .string(ISO8601.string(fromMilliseconds: Int(record.date)))),
        ]))
    }

    /// An action tap's `id` is at most this many bytes.
    public static let maximumActionIDBytes = 128

    private func sync(_ user: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let pack = self.pack
        let json: JSON
        do {
            json = try JSON.parse(request.body)
        } catch {
            throw ServiceError.badRequest("bad-json", error.description)
        }
        let incoming = try SnapshotDocument.decode(json, pack: pack.pack)
        let merged = try withCenter(user, pack) { center in
            try center.merge(incoming)
            return try SnapshotDocument.encode(try center.snapshot(), pack: pack.pack) { try center.status(of: $0.tip, key: $0.key) }
        }
        return .json(200, merged)
    }

    private func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// A JSON object body with known members (an empty body is an empty object); anything else
/// is a 400 that says what is wrong.
struct RequestBody {
    let members: [(String, JSON)]

    init(_ bytes: [UInt8], members allowed: [String]) throws(ServiceError) {
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { members = []; return }
        let json: JSON
        do {
            json = try JSON.parse(bytes)
        } catch {
            throw .badRequest("bad-json", error.description)
        }
        guard case .object(let members) = json else {
            throw .badRequest("wrong-type", "the body must be a JSON object, not \(json.kindDescription)")
        }
        for (name, _) in members where !allowed.contains(name) {
            throw .badRequest("unknown-member", "unknown member '\(name)'"
                              + (Suggestion.closest(to: name, in: allowed).map { "; did you mean '\($0)'?" }
                                 ?? (allowed.isEmpty ? "; this route takes no body" : "; members: \(allowed.joined(separator: ", "))")))
        }
        self.members = members
    }

    subscript(name: String) -> JSON? { members.last { $0.0 == name }?.1 }
}

extension Substring {
    var trimmedOfSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
