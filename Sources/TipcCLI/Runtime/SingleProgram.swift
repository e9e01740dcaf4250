import TipcCompiler
import TipcDriver

/// The one program a command that builds a pack works on (`compile`, and the runtime commands'
/// manifests). Files are grouped as every command groups them (`Frontend.load`); paths that
/// hold several programs (several folders) are refused rather than merged, since names are
/// global to a program and two apps' manifests are not one app.
enum SingleProgram {
    /// With `keepingParsedFiles`, the result holds the parsed files (for a command that prints
    /// rules as written, `tipc preview`).
    static func load(_ paths: [String], configuration: LintConfiguration = .none, keepingParsedFiles: Bool = false,
                     context: CommandContext) throws -> Frontend.Result {
        if paths.contains(SourceDiscovery.standardInputPath) {
            throw UsageError("'-' (standard input) is read by 'tipc check' and 'tipc fmt' only", help: "give the manifest's path")
        }
        let loaded = Frontend.load(paths: paths, keepingParsedFiles: keepingParsedFiles, configuration: configuration)
        if let failure = loaded.unreadable.first { throw CommandFailure.io(failure.message) }
        guard !loaded.programs.isEmpty else {
            throw CommandFailure.io("no source files (*.yaml, *.yml, *.tips) in \(paths.map { "'\($0)'" }.joined(separator: ", "))")
        }
        guard loaded.programs.count == 1 else {
            let folders = loaded.programs.map { program in
                let path = program.sources.keys.min() ?? "."
                return "'" + (path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ".") + "'"
            }
            throw CommandFailure.io("the paths hold \(loaded.programs.count) programs (the files of each folder form one: \(folders.joined(separator: ", "))); give one folder, or files of one folder")
        }
        return loaded.programs[0]
    }
}
