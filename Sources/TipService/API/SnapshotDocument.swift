import TipRuntime
import TipcJSON

/// A store snapshot as JSON: `tipc store export`'s document and the body `POST …/sync` takes
/// and answers. `donations`, `parameters` (values the pack can read) and `tips` (status and
/// display figures) and `donationDeletions` (by event, the instant up to which its donations
/// are deleted) are what a person reads; `records` holds what a merge needs and the
/// others lack: each parameter's stamp, each tip record, the frequency gap's start, the
/// experiment assignments (`records.assignments`, absent from older documents). Reading,
/// `donations` and `records` are merged; `parameters` without a stamp in `records` count as
/// written at the epoch by no device (any stamped write wins over them); `tips` is derived
/// and ignored.
public enum SnapshotDocument {
    /// The document of `snapshot` under `pack`, with each tip's status now from `status`.
    /// A keyed tip is listed once per instance the snapshot has records of (`newTrail[42]`).
    public static func encode(_ snapshot: StoreSnapshot, pack: RulePack, status: (TipInstance) throws -> TipStatus) rethrows -> JSON {
        let donations = snapshot.donations.values.sorted(by: DonationRecord.precedes).map { record -> JSON in
            var members: [(String, JSON)] = [("id", .string(record.id)), ("event", .string(record.event)),
                                             ("date", .string(ISO8601.string(fromMilliseconds: Int(record.date))))]
            if !record.value.isEmpty {
                members.append(("value", .object(record.value.sorted { $0.key < $1.key }.map { ($0.key, ValueJSON.json($0.value)) })))
            }
            return .object(members)
        }
        // Only values this pack can read: a value stored under another pack's type is kept in
        // the store but never shown as this one's.
        let readable = pack.parameters.compactMap { declaration -> (String, ParameterRecord)? in
            guard let record = snapshot.parameters[declaration.name], declaration.accepts(record.value) else { return nil }
            return (declaration.name, record)
        }.sorted { $0.0 < $1.0 }
        let histories = snapshot.histories
        var tips: [(String, JSON)] = []
        var instances: [TipInstance] = []
        for tip in pack.tips {
            if tip.key == nil {
                instances.append(TipInstance(tip: tip.name))
            } else {
                // Instances of this tip's key type only: records of another (an older pack's)
                // are kept in `records` but are not this pack's instances.
                instances += Set(histories.keys.filter { $0.tip == tip.name && tip.accepts($0.key) }).sorted { ($0.key?.description ?? "") < ($1.key?.description ?? "") }
            }
        }
        for instance in instances {
            let history = histories[instance] ?? TipHistory()
            tips.append((instance.description, .object([
                ("status", .string(try status(instance).description)),
                ("displayCount", .integer(history.displayCount)),
                ("displayDuration", .string(DurationText.string(milliseconds: history.displayDurationMilliseconds))),
            ])))
        }
        var records: [(String, JSON)] = [
            ("parameters", .object(snapshot.parameters.sorted { $0.key < $1.key }.map { name, record in
                (name, .object([("value", .string(record.value.storageText)), ("stampMilliseconds", .integer(record.stamp.milliseconds)),
                                ("device", .string(record.stamp.device))]))
            })),
            ("tips", .array(snapshot.tipRecords.values.sorted { $0.id < $1.id }.map(encode))),
        ]
        if let latest = snapshot.latestFirstDisplay { records.append(("latestFirstDisplayMilliseconds", .integer(latest))) }
        if !snapshot.assignments.isEmpty {
            records.append(("assignments", .array(snapshot.assignments.values.sorted {
                ($0.experiment, $0.salt) < ($1.experiment, $1.salt)
            }.map { assignment in
                .object([("id", .string(assignment.id)), ("experiment", .string(assignment.experiment)), ("salt", .string(assignment.salt)),
                         ("arm", .string(assignment.arm)), ("dateMilliseconds", .integer(assignment.date))])
            })))
        }
        var members: [(String, JSON)] = [("donations", .array(donations)),
                                         ("parameters", .object(readable.map { ($0.0, ValueJSON.json($0.1.value)) })),
                                         ("tips", .object(tips))]
        if !snapshot.donationDeletions.isEmpty {
            // By event: the instant up to which its donations are deleted (`deleteDonations`).
            members.append(("donationDeletions", .object(snapshot.donationDeletions.sorted { $0.key < $1.key }.map {
                ($0.key, .string(ISO8601.string(fromMilliseconds: Int($0.value))))
            })))
        }
        members.append(("records", .object(records)))
        return .object(members)
    }

    private static func encode(_ record: TipEventRecord) -> JSON {
        var members: [(String, JSON)] = [("id", .string(record.id)), ("tip", .string(record.tip))]
        switch record.key {
        case .int(let number)?: members.append(("key", .integer(number)))
        case .string(let text)?: members.append(("key", .string(text)))
        case nil: break
        }
        members.append(("dateMilliseconds", .integer(record.date)))
        switch record.kind {
        case .display(let count, let milliseconds):
            members += [("kind", .string("display")), ("count", .integer(count)), ("milliseconds", .integer(milliseconds))]
        case .invalidation(let reason): members += [("kind", .string("invalidation")), ("reason", .string(reason.rawValue))]
        case .reset: members.append(("kind", .string("reset")))
        case .action(let action): members += [("kind", .string("action")), ("action", .string(action))]
        case .exposure(let experiment): members += [("kind", .string("exposure")), ("experiment", .string(experiment))]
        }
        if let arm = record.arm { members.append(("arm", .string(arm))) }
        members += [("stampMilliseconds", .integer(record.stamp.milliseconds)), ("device", .string(record.stamp.device))]
        return .object(members)
    }

    /// Reads a document back; payload values take their event's declared field types where
    /// the pack has the event (a donation of an event it lacks is kept as JSON gives it).
    public static func decode(_ json: JSON, pack: RulePack) throws(ServiceError) -> StoreSnapshot {
        guard case .object = json else { throw bad("the snapshot must be a JSON object, not \(json.kindDescription)") }
        var snapshot = StoreSnapshot()
        if let donations = json["donations"] {
            guard case .array(let list) = donations else { throw bad("'donations' must be an array") }
            for (index, item) in list.enumerated() {
                let record = try donation(item, at: index, pack: pack)
                if let earlier = snapshot.donations[record.id], earlier != record {
                    throw bad("donation \(index) has the id '\(record.id)' of an earlier donation with other content; ids must be unique")
                }
                snapshot.donations[record.id] = record
            }
        }
        let records = json["records"]
        if let stamped = records?["parameters"] {
            guard case .object(let members) = stamped else { throw bad("'records.parameters' must be an object") }
            for (name, item) in members {
                guard case .string(let text)? = item["value"], let value = RuntimeValue(storageText: text),
                      case .integer(let ms)? = item["stampMilliseconds"], case .string(let device)? = item["device"] else {
                    throw bad("'records.parameters.\(name)' needs 'value' (stored text), 'stampMilliseconds' and 'device'")
                }
                let record = ParameterRecord(value: value, stamp: Stamp(milliseconds: ms, device: device))
                if let earlier = snapshot.parameters[name], earlier != record {
                    throw bad("'records.parameters' has '\(name)' twice, with other content")
                }
                snapshot.parameters[name] = record
            }
        }
        if case .object(let plain)? = json["parameters"] {
            for (name, item) in plain where snapshot.parameters[name] == nil {
                guard let declaration = pack.parameters.first(where: { $0.name == name }), !declaration.isTransient else { continue }
                guard let value = ValueJSON.value(item, as: declaration.type) else {
                    throw bad("parameter '\(name)' must be \(ValueJSON.expected(declaration.type))")
                }
                snapshot.parameters[name] = ParameterRecord(value: value, stamp: Stamp(milliseconds: 0, device: ""))
            }
        } else if let plain = json["parameters"] {
            throw bad("'parameters' must be an object, not \(plain.kindDescription)")
        }
        if let tips = records?["tips"] {
            guard case .array(let list) = tips else { throw bad("'records.tips' must be an array") }
            for (index, item) in list.enumerated() {
                let record = try tipRecord(item, at: index)
                if let earlier = snapshot.tipRecords[record.id], earlier != record {
                    throw bad("tip record \(index) has the id '\(record.id)' of an earlier tip record with other content; ids must be unique")
                }
                snapshot.tipRecords[record.id] = record
            }
        }
        if let deletions = json["donationDeletions"] {
            guard case .object(let members) = deletions else { throw bad("'donationDeletions' must be an object of event → date") }
            for (event, item) in members {
                guard case .string(let text) = item, let instant = ISO8601.milliseconds(from: text) else {
                    throw bad("'donationDeletions.\(event)' must be an ISO-8601 date")
                }
                snapshot.donationDeletions[event] = max(Int64(instant), snapshot.donationDeletions[event] ?? Int64.min)
            }
        }
        if let assignments = records?["assignments"] {
            guard case .array(let list) = assignments else { throw bad("'records.assignments' must be an array") }
            for (index, item) in list.enumerated() {
                guard case .string(let id)? = item["id"], case .string(let experiment)? = item["experiment"],
                      case .string(let salt)? = item["salt"], case .string(let arm)? = item["arm"],
                      case .integer(let date)? = item["dateMilliseconds"] else {
                    throw bad("assignment \(index) needs 'id', 'experiment', 'salt', 'arm' (strings) and 'dateMilliseconds' (an integer)")
                }
                let assignment = AssignmentRecord(id: id, experiment: experiment, salt: salt, arm: arm, date: date)
                do throws(TipStoreError) {
                    try snapshot.insert(assignment)
                } catch {
                    throw bad("assignment \(index) has the id '\(id)' of an earlier assignment with other content; ids must be unique")
                }
            }
        }
        if let latest = records?["latestFirstDisplayMilliseconds"] {
            guard case .integer(let ms) = latest else { throw bad("'records.latestFirstDisplayMilliseconds' must be an integer") }
            snapshot.latestFirstDisplay = ms
        }
        do throws(TipStoreError) {
            try snapshot.validate()
        } catch {
            throw bad(error.message)
        }
        return snapshot
    }

    private static func donation(_ item: JSON, at index: Int, pack: RulePack) throws(ServiceError) -> DonationRecord {
        guard case .string(let id)? = item["id"], !id.isEmpty, case .string(let event)? = item["event"],
              case .string(let dateText)? = item["date"] else {
            throw bad("donation \(index) needs 'id', 'event' and 'date'")
        }
        guard let date = ISO8601.milliseconds(from: dateText) else { throw bad("donation \(index): '\(dateText)' is not an ISO-8601 date") }
        var value: [String: RuntimeValue] = [:]
        if let payload = item["value"] {
            guard case .object(let fields) = payload else { throw bad("donation \(index): 'value' must be an object") }
            let declaration = pack.events.first { $0.name == event }
            for (name, json) in fields {
                let converted: RuntimeValue?
                if let type = declaration?.fields.first(where: { $0.name == name })?.type {
                    converted = ValueJSON.value(json, as: type)
                } else {
                    converted = ValueJSON.natural(json)
                }
                guard let converted else { throw bad("donation \(index): field '\(name)' has a value of the wrong type") }
                value[name] = converted
            }
        }
        return DonationRecord(id: id, event: event, date: Int64(date), value: value)
    }

    private static func tipRecord(_ item: JSON, at index: Int) throws(ServiceError) -> TipEventRecord {
        guard case .string(let id)? = item["id"], !id.isEmpty, case .string(let tip)? = item["tip"], case .string(let kind)? = item["kind"],
              case .integer(let ms)? = item["stampMilliseconds"], case .string(let device)? = item["device"] else {
            throw bad("tip record \(index) needs 'id', 'tip', 'kind', 'stampMilliseconds' and 'device'")
        }
        let parsed: TipEventRecord.Kind
        switch kind {
        case "display":
            guard case .integer(let count)? = item["count"], case .integer(let milliseconds)? = item["milliseconds"],
                  count >= 0, milliseconds >= 0 else {
                throw bad("tip record \(index): a display needs a 'count' and 'milliseconds' (integers, not negative)")
            }
            parsed = .display(count: count, milliseconds: milliseconds)
        case "invalidation":
            guard case .string(let text)? = item["reason"], let reason = InvalidationReason(rawValue: text) else {
                throw bad("tip record \(index): an invalidation needs a 'reason' (\(InvalidationReason.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            parsed = .invalidation(reason)
        case "reset": parsed = .reset
        case "action":
            guard case .string(let action)? = item["action"] else { throw bad("tip record \(index): an action needs an 'action' (the action's id)") }
            parsed = .action(action)
        case "exposure":
            guard case .string(let experiment)? = item["experiment"] else { throw bad("tip record \(index): an exposure needs an 'experiment'") }
            parsed = .exposure(experiment: experiment)
        default: throw bad("tip record \(index): unknown kind '\(kind)' (display, invalidation, reset, action, exposure)")
        }
        var arm: String?
        switch item["arm"] {
        case .string(let text)?: arm = text
        case nil, .null?: arm = nil
        default: throw bad("tip record \(index): 'arm' must be a string")
        }
        var key: TipKey?
        switch item["key"] {
        case .integer(let number)?: key = .int(number)
        case .string(let text)?: key = .string(text)
        case nil, .null?: key = nil
        default: throw bad("tip record \(index): 'key' must be an integer or a string")
        }
        var date: Int64?
        if let written = item["dateMilliseconds"] {
            guard case .integer(let ms) = written else { throw bad("tip record \(index): 'dateMilliseconds' must be an integer") }
            date = ms
        }
        return TipEventRecord(id: id, tip: tip, key: key, stamp: Stamp(milliseconds: ms, device: device), kind: parsed, date: date, arm: arm)
    }

    private static func bad(_ message: String) -> ServiceError { .badRequest("bad-snapshot", message) }
}
