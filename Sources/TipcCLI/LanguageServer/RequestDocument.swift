import TipcJSON
import TipcCompiler

/// The document a request is about, with the text the server has for it (a request about a
/// stale version is answered for this text) and its program's analysis.
struct RequestDocument {
    var path: String
    var source: SourceFile
    /// Nil for a file that is no program's (a timeline, a YAML file without `tipkit`).
    var analysis: ProgramAnalysis?
}

extension LanguageServer {
    func requestDocument(_ params: JSON) throws -> RequestDocument {
        guard case .string(let uri)? = params["textDocument"]?["uri"] else { throw ResponseError.invalidParams("textDocument.uri is missing") }
        guard let path = DocumentURI.path(uri) else { throw ResponseError.invalidParams("'\(uri)' is not a file URI") }
        let analysis = workspace.programKey(for: path).map { workspace.analysis(of: $0) }
        guard let source = analysis?.sources[path] ?? workspace.source(path) else {
            throw ResponseError(code: ResponseError.requestFailed, message: "'\(path)' is neither open nor readable")
        }
        return RequestDocument(path: path, source: source, analysis: analysis)
    }

    func requestPosition(_ params: JSON) throws -> ProtocolPosition {
        guard let position = ProtocolPosition(params["position"]) else { throw ResponseError.invalidParams("position is missing or invalid") }
        return position
    }

    /// A location `{uri, range}` of a compiler range, or nil when its file cannot be read.
    func protocolLocation(_ range: SourceRange, sources: [String: SourceFile]) -> JSON? {
        guard let source = sources[range.file] ?? workspace.source(range.file) else { return nil }
        return .object([("uri", .string(DocumentURI.uri(range.file))), ("range", source.protocolRange(range))])
    }
}
