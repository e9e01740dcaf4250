import TipcCompiler
import TipRuntime
import TipRuntimeSQLite
import TipcJSON
import TipService

/// `tipc store`: work on a store by hand — donate, delete donations, set, status, invalidate, reset, merge, export.
public enum StoreCommand: TipcCommand {
    static let value = OptionDefinition.value("value", valueName: "json", help: "donate: the payload as a JSON object, e.g. '{\"itemID\": 3}'.")
    static let reason = OptionDefinition.value("reason", valueName: "reason", help: "invalidate: actionPerformed, tipClosed, displayCountExceeded or displayDurationExceeded.")
    static let count = OptionDefinition.value("count", valueName: "n", help: "donate: donate N times, printing each donation as it becomes durable.")
    static let action = PositionalDefinition("action", help: "donate EVENT | delete-donations EVENT | set PARAM VALUE | status [TIP] | invalidate TIP | reset [TIP] | merge OTHER_DB | export")
    static let operands = PositionalDefinition("arguments", repeated: true, optional: true, help: "The action's arguments.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "store",
            abstract: "Work on a store by hand: donate, delete donations, set, status, invalidate, reset, merge, export.",
            discussion: """
            donate EVENT        record a donation; exits 0 only once it is durable
            delete-donations EVENT  delete the event's donations up to now (--at), on every device once merged
            set PARAM VALUE     set a parameter (typed: true, 3, 2.5, text, 2026-03-01T09:00:00Z, 5m)
            status [TIP]        status, should-display and displays of one or every tip
            invalidate TIP      invalidate a tip (--reason, default actionPerformed)
            reset [TIP]         reset a tip's eligibility, or with no TIP the whole store
            merge OTHER_DB      merge another store into this one (sync)
            export              print the store as JSON
            """,
            positionals: [action, operands],
            options: [RuntimeOptions.db, RuntimeOptions.pack, RuntimeOptions.manifest, RuntimeOptions.at, value, reason, count])
    }

    /// Each action: whether it writes (only those may create the store) and how many operands
    /// it takes, with their names for "missing" messages.
    private static let actions: [String: (access: RuntimeOptions.StoreAccess, required: [String], optional: Int?)] = [
        "donate": (.write, ["EVENT"], 0),
        "delete-donations": (.write, ["EVENT"], 0),
        "set": (.write, ["PARAM", "VALUE"], 0),
        "status": (.read, [], nil),
        "invalidate": (.write, ["TIP"], 0),
        "reset": (.write, [], 1),
        "merge": (.write, ["OTHER_DB"], 0),
        "export": (.read, [], 0),
    ]

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let verb = arguments.values(of: action).first ?? ""
        let rest = arguments.values(of: operands)
        let verbs = ["donate", "delete-donations", "set", "status", "invalidate", "reset", "merge", "export"]
        guard let shape = actions[verb] else {
            throw UsageError("unknown store action '\(verb)'", help: Suggestions.didYouMean(verb, in: verbs) ?? "actions: \(verbs.joined(separator: ", "))")
        }
        // Everything that can be checked without the store is checked before it is opened, so a
        // wrong command line leaves no store behind.
        if rest.count < shape.required.count { throw UsageError("missing \(shape.required[rest.count]) for '\(verb)'") }
        if let optional = shape.optional, rest.count > shape.required.count + optional {
            throw UsageError("Unexpected argument '\(rest[shape.required.count + optional])'")
        }
        let options = try DonationOptions(arguments, verb: verb)
        let input = try RuntimeOptions.packInput(arguments, context: context)
        // The other store of a merge is read (and must exist) before this one is opened.
        let other = verb == "merge" ? try load(rest[0]) : nil
        let center = try RuntimeOptions.openCenter(arguments, pack: input, access: shape.access)
        if ["status", "invalidate", "reset"].contains(verb), let tip = rest.first {
            _ = try requireTip(tip, in: center)
        }
        do {
            switch verb {
            case "donate": try donate(center, rest[0], options, context)
            case "delete-donations": try deleteDonations(center, rest[0], context)
            case "set": try set(center, rest, context)
            case "status": try status(center, rest, context)
            case "invalidate": try invalidate(center, rest[0], options, context)
            case "reset": try reset(center, rest, context)
            case "merge": try merge(center, rest[0], other ?? StoreSnapshot(), context)
            default: try export(center, context)
            }
        } catch let error as TipError {
            throw error.failure(store: arguments.value(RuntimeOptions.db))
        }
        return .success
    }

    /// The options of `donate` and `invalidate`, read before the store is opened.
    private struct DonationOptions {
        var payload: [(String, JSON)]?
        var times = 1
        var reason = InvalidationReason.actionPerformed

        init(_ arguments: ParsedArguments, verb: String) throws {
            if let text = arguments.value(StoreCommand.value) {
                guard case .object(let fields)? = try? JSON.parse(Array(text.utf8)) else { throw UsageError("--value must be a JSON object", help: "e.g. --value '{\"itemID\": 3}'") }
                payload = fields
            }
            if let text = arguments.value(count) {
                guard let parsed = Int(text), parsed >= 1 else { throw UsageError("--count must be a positive integer") }
                times = parsed
            }
            if let text = arguments.value(StoreCommand.reason) {
                guard let parsed = InvalidationReason(rawValue: text) else {
                    throw UsageError("unknown reason '\(text)'", help: Suggestions.didYouMean(text, in: InvalidationReason.allCases.map(\.rawValue))
                                     ?? "reasons: \(InvalidationReason.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                reason = parsed
            }
        }
    }

    private static func donate(_ center: TipCenter, _ event: String, _ options: DonationOptions, _ context: CommandContext) throws {
        guard let declaration = center.pack.events.first(where: { $0.name == event }) else {
            throw CommandFailure.input("no event named '\(event)'" + (Suggestions.didYouMean(event, in: center.pack.events.map(\.name)).map { "; \($0)" } ?? ""))
        }
        var payload: [String: RuntimeValue] = [:]
        for (name, json) in options.payload ?? [] {
            guard let field = declaration.fields.first(where: { $0.name == name }) else {
                throw CommandFailure.input("event '\(event)' has no field '\(name)'")
            }
            guard let converted = ValueJSON.value(json, as: field.type) else {
                throw CommandFailure.input("field '\(name)' of event '\(event)' is \(EnglishText.withArticle("\(field.type)"))")
            }
            payload[name] = converted
        }
        for _ in 0..<options.times {
            let record = try center.donate(event, value: payload)
            context.standardOutput.write("donated \(record.event) at \(ISO8601.string(fromMilliseconds: Int(record.date))) id \(record.id)\n")
        }
    }

    private static func deleteDonations(_ center: TipCenter, _ event: String, _ context: CommandContext) throws {
        guard center.pack.events.contains(where: { $0.name == event }) else {
            throw CommandFailure.input("no event named '\(event)'" + (Suggestions.didYouMean(event, in: center.pack.events.map(\.name)).map { "; \($0)" } ?? ""))
        }
        try center.deleteDonations(of: event)
        let instant = center.donationDeletion(of: event) ?? center.nowMilliseconds
        context.standardOutput.write("deleted the donations of \(event) up to \(ISO8601.string(fromMilliseconds: Int(instant)))\n")
    }

    private static func set(_ center: TipCenter, _ rest: [String], _ context: CommandContext) throws {
        let name = rest[0], text = rest[1]
        guard let declaration = center.pack.parameters.first(where: { $0.name == name }) else {
            throw CommandFailure.input("no parameter named '\(name)'" + (Suggestions.didYouMean(name, in: center.pack.parameters.map(\.name)).map { "; \($0)" } ?? ""))
        }
        let parsed: RuntimeValue
        switch ValueText.parse(text, as: declaration.type) {
        case .success(let value): parsed = value
        case .failure(let error): throw CommandFailure.input(error.message(for: "parameter '\(name)'"))
        }
        try center.setParameter(name, to: parsed)
        context.standardOutput.write("\(name) = \(ValueText.display(parsed))\(declaration.isTransient ? " (transient: not persisted)" : "")\n")
    }

    private static func status(_ center: TipCenter, _ rest: [String], _ context: CommandContext) throws {
        // Without a tip: every tip without a key, and every instance with stored state.
        let instances = try rest.isEmpty ? storedInstances(center) : rest.map { try requireTip($0, in: center) }
        let width = instances.map(\.description.count).max() ?? 0
        for instance in instances {
            let (tip, key) = (instance.tip, instance.key)
            let status = try center.status(of: tip, key: key)
            // As explained, not asked as the app asks: a status stores no experiment
            // assignment or exposure.
            let display = try center.explanation(of: tip, key: key).shouldDisplay
            let name = instance.description
            let padded = name + String(repeating: " ", count: max(0, width - name.count))
            context.standardOutput.write("\(padded)  \(status)  shouldDisplay=\(display)  displays=\(try center.displayCount(of: tip, key: key))\n")
        }
        // With no TIP, each group's current tip too.
        guard rest.isEmpty else { return }
        for group in center.pack.groups {
            // The first member that should display, as `currentTip(of:)` decides, without storing.
            let current = try group.tips.map { center.pack.tips[$0].name }.first { try center.explanation(of: $0).shouldDisplay }
            context.standardOutput.write("group \(group.name)  currentTip=\(current ?? "none")\n")
        }
    }

    /// Every tip without a key, and every instance of a keyed tip that has stored state, in
    /// the pack's tip order (instances by key).
    static func storedInstances(_ center: TipCenter) throws -> [TipInstance] {
        var result: [TipInstance] = []
        for tip in center.pack.tips {
            if tip.key == nil {
                result.append(TipInstance(tip: tip.name))
            } else {
                result += try center.instances(of: tip.name).map { TipInstance(tip: tip.name, key: $0) }
            }
        }
        return result
    }

    /// The tip or instance `name` names (`welcome`, `newTrail[42]`), or an error with a
    /// did-you-mean.
    @discardableResult
    private static func requireTip(_ name: String, in center: TipCenter) throws -> TipInstance {
        do {
            return try center.instance(named: name)
        } catch .unknownTip(let tip) {
            let names = center.pack.tips.map(\.name)
            throw CommandFailure.input("no tip named '\(tip)'" + (Suggestions.didYouMean(tip, in: names).map { "; \($0)" } ?? ""))
        } catch {
            throw CommandFailure.input(error.description)
        }
    }

    private static func invalidate(_ center: TipCenter, _ tip: String, _ options: DonationOptions, _ context: CommandContext) throws {
        let instance = try requireTip(tip, in: center)
        try center.invalidate(instance.tip, key: instance.key, reason: options.reason)
        context.standardOutput.write("\(tip): \(try center.status(of: instance.tip, key: instance.key))\n")
    }

    private static func reset(_ center: TipCenter, _ rest: [String], _ context: CommandContext) throws {
        if let tip = rest.first {
            let instance = try requireTip(tip, in: center)
            try center.resetEligibility(instance.tip, key: instance.key)
            context.standardOutput.write("\(tip): \(try center.status(of: instance.tip, key: instance.key))\n")
        } else {
            try center.resetDatastore()
            context.standardOutput.write("the store is empty\n")
        }
    }

    /// Everything in the store at `path` to merge: it must exist, is opened read-only, and must
    /// pass SQLite's integrity check and the records' own checks before anything of it is
    /// read into this store.
    private static func load(_ path: String) throws -> StoreSnapshot {
        let store = try RuntimeOptions.openStore(path, access: .mergeSource)
        do {
            return try store.verifiedSnapshot()
        } catch {
            throw RuntimeOptions.failure(error, path: path)
        }
    }

    private static func merge(_ center: TipCenter, _ other: String, _ snapshot: StoreSnapshot, _ context: CommandContext) throws {
        try center.merge(snapshot)
        context.standardOutput.write("merged \(other): \(try center.snapshot().donations.count) donations\n")
    }

    /// The store as `SnapshotDocument`'s JSON: what `POST /v1/users/{user}/sync` takes.
    private static func export(_ center: TipCenter, _ context: CommandContext) throws {
        let document = try SnapshotDocument.encode(try center.snapshot(), pack: center.pack) { try center.status(of: $0.tip, key: $0.key) }
        context.standardOutput.write(document.serialized(pretty: true) + "\n")
    }
}
