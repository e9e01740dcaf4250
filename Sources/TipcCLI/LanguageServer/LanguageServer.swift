import TipcJSON
import TipcCompiler

/// An error answered to a request: a JSON-RPC error code and a message.
struct ResponseError: Error {
    var code: Int
    var message: String

    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    static let serverNotInitialized = -32002
    static let requestFailed = -32803

    static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: invalidParams, message: message) }
}

/// `tipc lsp`: the language server. It reads messages one at a time and answers each request
/// before reading the next; diagnostics of the programs that changed are published once no
/// message waits (so that a burst of keystrokes is checked once, and a change never holds the
/// server for longer than one check). Every request is answered for the text the server has.
final class LanguageServer {
    enum State {
        case starting, running, shuttingDown
    }

    let workspace = Workspace()
    private let writer: MessageWriter
    private var state = State.starting
    /// Programs whose diagnostics are to be published.
    private var changedPrograms: Set<ProgramKey> = []
    /// Configuration files whose own diagnostics are to be published.
    private var changedConfigurations: Set<String> = []
    /// The files each program last published diagnostics for, so that a file that left the
    /// program (or whose problems are gone) gets an empty list.
    private var publishedFiles: [ProgramKey: Set<String>] = [:]
    private var nextRequestID = 1
    /// Set by `exit`: the process's exit status.
    private(set) var exitStatus: Int32?

    init(output: any TextOutput) {
        writer = MessageWriter(output: output)
    }

    /// Serves `reader` until `exit` or the end of the input; the process's exit status.
    func serve(_ reader: MessageReader) -> Int32 {
        while exitStatus == nil {
            switch reader.next() {
            case .message(let body): receive(body)
            case .malformedHeader(let reason): sendError(id: .null, ResponseError(code: ResponseError.parseError, message: "malformed message header: \(reason)"))
            case .tooLarge(let size):
                sendError(id: .null, ResponseError(code: ResponseError.invalidRequest,
                                                   message: "message of \(size) bytes is larger than the limit of \(MessageReader.maximumBodySize) bytes; it was skipped"))
            case .end: return state == .shuttingDown ? 0 : 1
            }
            if exitStatus == nil, !reader.hasPendingInput { publishDiagnostics() }
        }
        return exitStatus ?? 1
    }

    /// Handles one message's body.
    func receive(_ body: [UInt8]) {
        let message: JSON
        do {
            message = try JSON.parse(body)
        } catch {
            sendError(id: .null, ResponseError(code: ResponseError.parseError, message: error.description))
            return
        }
        guard case .object = message, case .string(let method)? = message["method"] else {
            // A response to one of the server's own requests (registrations): nothing to do.
            if case .object = message, message["id"] != nil, message["result"] != nil || message["error"] != nil { return }
            sendError(id: message["id"] ?? .null, ResponseError(code: ResponseError.invalidRequest, message: "a message must be a request or a notification with a 'method'"))
            return
        }
        let params = message["params"] ?? .null
        if let id = message["id"] {
            guard Self.isValidID(id) else {
                sendError(id: .null, ResponseError(code: ResponseError.invalidRequest, message: "a request's id must be a number or a string"))
                return
            }
            do {
                let result = try respond(to: method, params)
                writer.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
            } catch let error as ResponseError {
                sendError(id: id, error)
            } catch {
                sendError(id: id, ResponseError(code: ResponseError.requestFailed, message: "\(error)"))
            }
        } else {
            notify(method, params)
        }
    }

    private static func isValidID(_ id: JSON) -> Bool {
        switch id {
        case .integer, .string: return true
        default: return false
        }
    }

    private func sendError(id: JSON, _ error: ResponseError) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", id),
                             ("error", .object([("code", .integer(error.code)), ("message", .string(error.message))]))]))
    }

    func sendNotification(_ method: String, _ params: JSON) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    private func sendRequest(_ method: String, _ params: JSON) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", .integer(nextRequestID)), ("method", .string(method)), ("params", params)]))
        nextRequestID += 1
    }

    // MARK: - Requests

    private func respond(to method: String, _ params: JSON) throws -> JSON {
        switch state {
        case .starting where method != "initialize":
            throw ResponseError(code: ResponseError.serverNotInitialized, message: "the server is not initialized yet: send 'initialize' first")
        case .running where method == "initialize":
            throw ResponseError(code: ResponseError.invalidRequest, message: "the server is already initialized")
        case .shuttingDown:
            throw ResponseError(code: ResponseError.invalidRequest, message: "the server is shutting down: only 'exit' is accepted")
        default: break
        }
        switch method {
        case "initialize": return initialize(params)
        case "shutdown":
            state = .shuttingDown
            return .null
        case "textDocument/completion": return try completion(params)
        case "textDocument/hover": return try hover(params)
        case "textDocument/definition": return try definition(params)
        case "textDocument/references": return try references(params)
        case "textDocument/rename": return try rename(params)
        case "textDocument/codeAction": return try codeActions(params)
        case "textDocument/formatting": return try formatting(params)
        case "textDocument/documentSymbol": return try documentSymbols(params)
        default:
            throw ResponseError(code: ResponseError.methodNotFound, message: "method '\(method)' is not supported by tipc lsp")
        }
    }

    private var watchesFiles = false
    /// Where codes' explanations are, the code appended: the client's
    /// `initializationOptions.codeExplanationURL` (an empty one: no link), else the codes
    /// reference in the user's cache folder (see `CodeReference`).
    private var codeExplanationBase: String?

    private func initialize(_ params: JSON) -> JSON {
        state = .running
        if case .string(let base)? = params["initializationOptions"]?["codeExplanationURL"] {
            codeExplanationBase = base.isEmpty ? nil : base
        } else {
            codeExplanationBase = CodeReference.defaultBase()
        }
        if case .bool(true)? = params["capabilities"]?["workspace"]?["didChangeWatchedFiles"]?["dynamicRegistration"] {
            watchesFiles = true
        }
        let capabilities: JSON = .object([
            ("positionEncoding", .string("utf-16")),
            ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .integer(2)),
                                          ("save", .object([("includeText", .bool(false))]))])),
            ("completionProvider", .object([("triggerCharacters", .array(["$", ".", "(", "{"].map(JSON.string)))])),
            ("hoverProvider", .bool(true)),
            ("definitionProvider", .bool(true)),
            ("referencesProvider", .bool(true)),
            ("renameProvider", .bool(true)),
            ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix")]))])),
            ("documentFormattingProvider", .bool(true)),
            ("documentSymbolProvider", .bool(true)),
        ])
        return .object([("capabilities", capabilities),
                        ("serverInfo", .object([("name", .string("tipc")), ("version", .string(TipcCommandLine.version))]))])
    }

    // MARK: - Notifications

    private func notify(_ method: String, _ params: JSON) {
        if method == "exit" {
            exitStatus = state == .shuttingDown ? 0 : 1
            return
        }
        guard state == .running else { return }
        switch method {
        case "initialized":
            if watchesFiles {
                let watchers: JSON = .array(["**/*.{yaml,yml,tips,swift}", "**/" + LintConfiguration.fileName].map {
                    .object([("globPattern", .string($0))])
                })
                sendRequest("client/registerCapability", .object([("registrations", .array([.object([
                    ("id", .string("tipc-watched-files")), ("method", .string("workspace/didChangeWatchedFiles")),
                    ("registerOptions", .object([("watchers", watchers)])),
                ])]))]))
            }
        case "textDocument/didOpen":
            guard let document = params["textDocument"], case .string(let uri)? = document["uri"], let path = DocumentURI.path(uri),
                  case .string(let text)? = document["text"] else { return }
            workspace.open(uri: uri, path: path, version: Self.int(document["version"]), text: text)
            changed(path)
        case "textDocument/didChange":
            guard let document = params["textDocument"], case .string(let uri)? = document["uri"], let path = DocumentURI.path(uri),
                  var source = workspace.documents[path]?.source, case .array(let changes)? = params["contentChanges"] else { return }
            for change in changes {
                guard case .string(let text)? = change["text"] else { continue }
                if let range = change["range"], let start = ProtocolPosition(range["start"]), let end = ProtocolPosition(range["end"]) {
                    let from = source.offset(of: start)
                    source = source.replacing(from: from, to: max(from, source.offset(of: end)), with: text)
                } else {
                    source = SourceFile(path: path, text: text)
                }
            }
            workspace.replace(path: path, version: Self.int(document["version"]), source: source)
            changed(path)
        case "textDocument/didClose":
            guard case .string(let uri)? = params["textDocument"]?["uri"], let path = DocumentURI.path(uri) else { return }
            workspace.close(path: path)
            workspace.forgetDiskText(path)
            changed(path)
        case "textDocument/didSave":
            guard case .string(let uri)? = params["textDocument"]?["uri"], let path = DocumentURI.path(uri) else { return }
            workspace.forgetDiskText(path)
            changed(path)
        case "workspace/didChangeWatchedFiles":
            guard case .array(let changes)? = params["changes"] else { return }
            for change in changes {
                guard case .string(let uri)? = change["uri"], let path = DocumentURI.path(uri) else { continue }
                workspace.forgetDiskText(path)
                changed(path)
            }
        default:
            break // Other notifications ($/cancelRequest, $/setTrace, …) need nothing.
        }
    }

    static func int(_ json: JSON?) -> Int? {
        if case .integer(let value)? = json { return Int(clamping: value) }
        return nil
    }

    /// Notes that `path` changed: its program (every program, for a configuration file) is to
    /// be checked and published again.
    private func changed(_ path: String) {
        if Workspace.isConfiguration(path) {
            changedConfigurations.insert(path)
            changedPrograms.formUnion(workspace.knownPrograms)
        } else if let key = workspace.programKey(for: path) {
            changedPrograms.insert(key)
        }
        // A YAML file that stopped being a manifest leaves the program it was in.
        for (key, files) in publishedFiles where files.contains(path) { changedPrograms.insert(key) }
    }

    // MARK: - Diagnostics

    /// Publishes the diagnostics of every file of each program that changed.
    func publishDiagnostics() {
        for path in changedConfigurations.sorted() {
            let (_, found, diagnostics) = workspace.configuration(forFolder: Workspace.folder(of: path))
            guard found == path, let source = workspace.source(path) else { continue }
            publish(path: path, diagnostics: diagnostics, source: source)
        }
        changedConfigurations = []
        for key in changedPrograms.sorted(by: { ($0.folder, $0.isSwift ? 1 : 0) < ($1.folder, $1.isSwift ? 1 : 0) }) {
            let analysis = workspace.analysis(of: key)
            var byFile: [String: [Diagnostic]] = [:]
            for diagnostic in analysis.diagnostics { byFile[diagnostic.range.file, default: []].append(diagnostic) }
            let files = Set(analysis.paths).union(byFile.keys)
            for path in (publishedFiles[key] ?? []).subtracting(files).sorted() {
                sendNotification("textDocument/publishDiagnostics", .object([("uri", .string(DocumentURI.uri(path))), ("diagnostics", .array([]))]))
            }
            for path in files.sorted() {
                guard let source = analysis.sources[path] ?? workspace.source(path) else { continue }
                publish(path: path, diagnostics: byFile[path] ?? [], source: source, sources: analysis.sources)
            }
            publishedFiles[key] = files
        }
        changedPrograms = []
    }

    private func publish(path: String, diagnostics: [Diagnostic], source: SourceFile, sources: [String: SourceFile] = [:]) {
        var params: [(String, JSON)] = [("uri", .string(DocumentURI.uri(path)))]
        if let version = workspace.documents[path]?.version { params.append(("version", .integer(version))) }
        params.append(("diagnostics", .array(diagnostics.map { protocolDiagnostic($0, in: source, sources: sources) })))
        sendNotification("textDocument/publishDiagnostics", .object(params))
    }

    /// A diagnostic as the protocol has it: the message with its help, the code with a link to
    /// its explanation, notes that point somewhere as related information.
    func protocolDiagnostic(_ diagnostic: Diagnostic, in source: SourceFile, sources: [String: SourceFile]) -> JSON {
        var message = diagnostic.message
        if let help = diagnostic.help { message += "\nhelp: " + help }
        var related: [JSON] = []
        for note in diagnostic.notes {
            guard let range = note.range, let noteSource = sources[range.file] ?? workspace.source(range.file) else {
                message += "\nnote: " + note.message
                continue
            }
            related.append(.object([("location", .object([("uri", .string(DocumentURI.uri(range.file))), ("range", noteSource.protocolRange(range))])),
                                    ("message", .string(note.message))]))
        }
        let severity: Int
        switch diagnostic.severity {
        case .error: severity = 1
        case .warning: severity = 2
        case .note: severity = 3
        }
        var fields: [(String, JSON)] = [
            ("range", source.protocolRange(diagnostic.range)), ("severity", .integer(severity)),
            ("code", .string(diagnostic.code.rawValue)), ("source", .string("tipc")), ("message", .string(message)),
        ]
        if let base = codeExplanationBase {
            fields.append(("codeDescription", .object([("href", .string(base + diagnostic.code.rawValue))])))
        }
        if !related.isEmpty { fields.append(("relatedInformation", .array(related))) }
        return .object(fields)
    }
}
