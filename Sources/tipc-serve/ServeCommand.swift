#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TipRuntime
import TipService
import TipServiceHTTP
import TipcCLI
import TipServicePostgres

/// `tipc serve`: the tip service (docs/api.md) — tips evaluated for many users over HTTP.
enum ServeCommand: TipcCommand {
    static let pack = OptionDefinition.value("pack", valueName: "path", help: "The rule pack (.tippack), or a manifest folder compiled at start.").required
    static let store = OptionDefinition.value("store", valueName: "store", help: "sqlite:PATH (default: sqlite:tipc-serve.sqlite in the current folder) or postgres://…")
    static let listen = OptionDefinition.value("listen", valueName: "host:port", help: "Where to listen (default 127.0.0.1:8080; port 0 picks a free one). Without --keys, loopback only.")
    static let keys = OptionDefinition.value("keys", valueName: "file", help: "API keys: lines 'client|admin SHA256-OF-TOKEN [name]'; requests send 'Authorization: Bearer TOKEN'.")
    static let threads = OptionDefinition.value("threads", valueName: "n", help: "Worker threads (default 8).")
    static let maxConnections = OptionDefinition.value("max-connections", valueName: "n",
                                                       help: "Connections open at once (default 1000); a new one past it closes the one reading its request longest.")
    static let requestTimeout = OptionDefinition.value("request-timeout", valueName: "seconds",
                                                       help: "Seconds a request may take to arrive whole and its answer to leave (default 30).")
    static let maxRecords = OptionDefinition.value("max-records", valueName: "n",
                                                   help: "Records (donations and tip records) one user may hold (default 10000); past it, 409 too-many-records.")
    static let maxClockSkew = OptionDefinition.value("max-clock-skew", valueName: "duration",
                                                     help: "How far ahead of the server's clock a donation may be dated (default 5m; e.g. 30s, 2h); later: 422 date-in-future.")
    static let corsOrigin = OptionDefinition.value("cors-origin", valueName: "origin", help: "A web page's origin (https://app.example.com) that may call the service from a browser; repeatable. '*' (any page) only without --keys.")

    static var signature: CommandSignature {
        CommandSignature(
            name: TipcCommandLine.serve.name,
            abstract: TipcCommandLine.serve.abstract,
            discussion: "Prints 'listening on http://HOST:PORT' once ready. SIGTERM or SIGINT stops accepting connections and requests (one on a kept-alive connection is answered 503), "
                + "lets the requests in flight finish, and exits 0. Routes: docs/api.md.",
            positionals: [],
            options: [pack, store, listen, keys, threads, maxConnections, requestTimeout, maxRecords, maxClockSkew, corsOrigin])
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let packPath = arguments.value(pack) else { throw UsageError("missing '--pack <path>'") }
        let address: ListenAddress
        do {
            address = try ListenAddress(parsing: arguments.value(listen) ?? "127.0.0.1:8080")
        } catch {
            throw UsageError(error.description)
        }
        var workers = 8
        if let text = arguments.value(threads) {
            guard let parsed = Int(text), (1...256).contains(parsed) else { throw UsageError("--threads must be a whole number from 1 to 256") }
            workers = parsed
        }
        var limits = HTTPLimits()
        if let text = arguments.value(maxConnections) {
            guard let parsed = Int(text), (1...100_000).contains(parsed) else { throw UsageError("--max-connections must be a whole number from 1 to 100000") }
            limits.connections = parsed
        }
        if let text = arguments.value(requestTimeout) {
            guard let parsed = Double(text), parsed >= 0.1, parsed <= 3_600 else { throw UsageError("--request-timeout must be a number of seconds from 0.1 to 3600") }
            limits.requestSeconds = parsed
        }
        var recordLimit = TipServer.defaultMaximumRecordsPerUser
        if let text = arguments.value(maxRecords) {
            guard let parsed = Int(text), (1...10_000_000).contains(parsed) else { throw UsageError("--max-records must be a whole number from 1 to 10000000") }
            recordLimit = parsed
        }
        var clockSkew = TipServer.defaultMaximumClockSkewMilliseconds
        if let text = arguments.value(maxClockSkew) {
            guard let parsed = TipServer.clockSkewMilliseconds(parsing: text) else {
                throw UsageError("--max-clock-skew must be a duration from 0s to 366d, such as 30s, 5m or 1h30m; got '\(text)'")
            }
            clockSkew = parsed
        }
        let keyring = try arguments.value(keys).map { path -> ServiceKeys in
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure.io("cannot read keys file '\(path)'") }
            do {
                return try ServiceKeys(text: String(decoding: data, as: UTF8.self), file: path)
            } catch {
                throw CommandFailure.io("\(error)")
            }
        }
        let origins = arguments.values(corsOrigin)
        var cors: CORSPolicy?
        if !origins.isEmpty {
            do {
                cors = try CORSPolicy(origins: origins, keysRequired: keyring != nil)
            } catch {
                throw UsageError(error.description)
            }
        }
        // The pack and the address first: a wrong one leaves no store behind.
        let servicePack = try loadPack(packPath, context: context)
        let listener: ListenSocket
        do {
            listener = try ListenSocket(address)
        } catch {
            throw CommandFailure.io("\(error)")
        }
        if keyring == nil, !listener.isLoopback {
            listener.close()
            throw UsageError("without --keys the service listens on loopback only; '\(address)' is not a loopback address",
                             help: "listen on 127.0.0.1 or ::1, or give --keys FILE")
        }
        let serviceStore: any ServiceStore
        do {
            serviceStore = try openStore(arguments.value(store) ?? "sqlite:tipc-serve.sqlite", context: context)
        } catch {
            listener.close()
            throw error
        }
        // SIGTERM and SIGINT wait for `sigwait` below: blocked before the workers start, so no
        // worker takes them; SIGPIPE (a client gone) must not end the server.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        signal(SIGPIPE, SIG_IGN)
        let service = TipServer(pack: servicePack, store: serviceStore, keys: keyring, cors: cors, maximumRecordsPerUser: recordLimit,
                                maximumClockSkewMilliseconds: clockSkew)
        let server: HTTPServer
        do {
            server = try HTTPServer(listener: listener, threads: workers, limits: limits, admit: { service.admit($0) },
                                    finish: { service.finish($0, origin: $1) }, handler: { service.handle($0) })
        } catch {
            listener.close()
            throw CommandFailure.io("\(error)")
        }
        context.standardOutput.write("listening on http://\(server.address)\n")
        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        context.standardError.write("tipc serve: stopping (signal \(received)): finishing the requests in flight\n")
        server.stop()
        return .success
    }

    /// A `.tippack` as its bytes (what `GET /v1/pack` serves), or manifests compiled now.
    private static func loadPack(_ path: String, context: CommandContext) throws -> ServicePack {
        guard PackInput.isPack(path) else {
            return ServicePack(verified: try PackInput.load(pack: nil, manifests: [path], context: context).pack)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure.io("cannot read '\(path)'") }
        do {
            return try ServicePack(bytes: [UInt8](data))
        } catch {
            throw CommandFailure.input("\(path): \(error)")
        }
    }

    /// `sqlite:PATH` (or a bare path) or a `postgres://` URL.
    private static func openStore(_ text: String, context: CommandContext) throws -> any ServiceStore {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            do {
                return try PostgresServiceStore(url: text)
            } catch {
                throw CommandFailure.io("cannot open the PostgreSQL service store: \(error.message)")
            }
        }
        let path = text.hasPrefix("sqlite:") ? String(text.dropFirst("sqlite:".count)) : text
        guard !path.isEmpty else { throw UsageError("--store sqlite: needs a path", help: "e.g. --store sqlite:tipc-serve.sqlite") }
        let resolved = path.hasPrefix("/") ? path : context.workingDirectory + "/" + path
        do {
            return try SQLiteServiceStore(path: resolved)
        } catch {
            throw CommandFailure.io("cannot open the service store '\(path)': \(error.message)")
        }
    }
}
