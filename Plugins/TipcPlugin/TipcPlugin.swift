import Foundation
import PackagePlugin

/// Builds a target's tip manifests into the target: the checked program as a rule pack
/// (`Tips.tippack`, a resource: `Bundle.module.url(forResource: "Tips", withExtension: "tippack")`)
/// and typed accessors over `TipRuntime` (`AppTips.swift`, compiled with the target's sources).
///
/// The manifests are the target's `*.yml`, `*.yaml` and `*.tips` files (timelines and
/// `.tipc.yml` excepted); together they form one program. Two build commands run `tipc`, so
/// SwiftPM reruns them only when a manifest changes: `compile` writes the pack and reports the
/// checker's findings at their lines (`path:line:col: error: …`, which fails the build), and
/// `generate swift` (after it, from the same files) writes the accessors; they are `public`
/// in a library target, so that the app that links it can use them. The nearest `.tipc.yml`
/// between the manifests' folder and the package's applies to `compile`, as it does to `tipc check`.
@main
struct TipcPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let manifests = target.sourceFiles
            .map(\.url)
            .filter(Self.isManifest)
            .sorted { $0.path < $1.path }
        guard !manifests.isEmpty else {
            Diagnostics.warning("TipcPlugin: target '\(target.name)' has no tip manifests (*.yml, *.yaml, *.tips) among its sources")
            return []
        }
        let tipc = try context.tool(named: "tipc").url
        let output = context.pluginWorkDirectoryURL
        let pack = output.appendingPathComponent("Tips.tippack")
        let accessors = output.appendingPathComponent("AppTips.swift")
        let paths = manifests.map { $0.path }
        // `tipc check`'s configuration (code severities, `strict`) applies to the build too: the
        // nearest `.tipc.yml` from the manifests' folder up to the package's.
        let configuration = Self.configuration(from: manifests[0].deletingLastPathComponent(), upTo: context.package.directoryURL)
        let configurationArguments = configuration.map { ["--config", $0.path] } ?? []
        var generate = ["generate", "swift"] + paths + ["-o", accessors.path, "--diagnostics", "xcode"]
        if target.kind != .executable { generate.append("--public") }
        return [
            .buildCommand(
                displayName: "Compiling \(manifests.count) tip manifest(s) of \(target.name)",
                executable: tipc,
                arguments: ["compile"] + paths + ["-o", pack.path, "--diagnostics", "xcode"] + configurationArguments,
                inputFiles: manifests + (configuration.map { [$0] } ?? []),
                outputFiles: [pack]),
            // The pack among the inputs orders this after `compile`: a program with errors is
            // reported once, by `compile`, and nothing is generated from it.
            .buildCommand(
                displayName: "Generating tip accessors for \(target.name)",
                executable: tipc,
                arguments: generate,
                inputFiles: manifests + [pack],
                outputFiles: [accessors]),
        ]
    }

    /// The `.tipc.yml` of `folder` or of its nearest parent, not above `top`.
    static func configuration(from folder: URL, upTo top: URL) -> URL? {
        var folder = folder.standardizedFileURL
        let top = top.standardizedFileURL.path
        while true {
            let candidate = folder.appendingPathComponent(".tipc.yml")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            guard folder.path.hasPrefix(top), folder.path != top else { return nil }
            folder = folder.deletingLastPathComponent()
        }
    }

    /// Whether `url` is a manifest: a YAML or `.tips` file that is not a timeline or the
    /// configuration of `tipc check`.
    static func isManifest(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        if name == ".tipc.yml" || name.hasSuffix(".timeline.yaml") || name.hasSuffix(".timeline.yml") { return false }
        return ["yml", "yaml", "tips"].contains(url.pathExtension)
    }
}
