import Foundation
import Testing

/// The build plugin, end to end: `Fixtures/plugin-sample` (an app whose target keeps a YAML
/// manifest and a `.tips` file among its sources and lists `TipcPlugin`) is copied to a
/// temporary folder, built with `swift build` against this checkout, and run: it loads the
/// pack the plugin compiled from `Bundle.module` and uses the accessors it generated. Then a
/// checker error in a manifest fails the same package's build at the manifest's line, a
/// warning is shown without failing it, and the package's `.tipc.yml` makes it an error.
///
/// Slow (a nested `swift build`, which builds `tipc` itself the first time): one package, built
/// for both checks, into a scratch folder under `.build` that later runs reuse.
@Suite(.serialized) struct BuildPluginTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scratch = root.appendingPathComponent(".build/plugin-sample").path

    /// `swift` on PATH, or nil.
    static let swift: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs `executable` in `folder`, ending it after `seconds`; its status and output (stdout
    /// and stderr together), nil status when it was ended.
    static func run(_ executable: String, _ arguments: [String], in folder: String, seconds: Int) throws -> (status: Int32?, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let log = folder + "/.run-output"
        try Data().write(to: URL(fileURLWithPath: log))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        var status: Int32? = nil
        if ended.wait(timeout: .now() + .seconds(seconds)) == .success {
            status = process.terminationStatus
        } else {
            process.terminate()
            ended.wait()
        }
        return (status, try String(contentsOfFile: log, encoding: .utf8))
    }

    @Test(.enabled(if: swift != nil, "swift is not on PATH: the build plugin's sample package cannot be built"))
    func theSampleAppBuildsRunsAndFailsAtAManifestsLine() throws {
        let swift = try #require(Self.swift)
        let folder = try TemporaryFolder()
        let package = folder.path + "/plugin-sample"
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Tests/TipcCLITests/Fixtures/plugin-sample").path,
                                         toPath: package)
        let manifestPath = package + "/Package.swift"
        let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
        #expect(manifest.contains(#"path: "../../../..""#))
        try manifest.replacingOccurrences(of: #"path: "../../../..""#, with: "path: \"\(Self.root.path)\"")
            .write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let build = ["build", "--scratch-path", Self.scratch, "--product", "SampleApp"]

        let built = try Self.run(swift, build, in: package, seconds: 1_200)
        try #require(built.status == 0, "\(built.output)")
        let app = try Self.run(Self.scratch + "/debug/SampleApp", [], in: package, seconds: 60)
        #expect(app.status == 0, "\(app.output)")
        #expect(app.output == """
            shouldDisplay: true
            displayCount: 1, displayDuration: 3.5 s
            title: Download Maps

            """)

        // A misspelled event: the build fails, and says where.
        let tips = package + "/Sources/SampleApp/Tips/offline-maps.tips"
        let source = try String(contentsOfFile: tips, encoding: .utf8)
        try source.replacingOccurrences(of: "rule trailViewed.count", with: "rule trailVeiwed.count").write(toFile: tips, atomically: true, encoding: .utf8)
        let broken = try Self.run(swift, build, in: package, seconds: 600)
        #expect(broken.status != 0 && broken.status != nil, "\(broken.output)")
        #expect(broken.output.contains(tips + ":9:8: error: no event named 'trailVeiwed'"), "\(broken.output)")

        // A warning is shown at its line without failing the build; the package's `.tipc.yml`
        // applies, and a change to it can make it an error.
        try source.write(toFile: tips, atomically: true, encoding: .utf8)
        let hiking = package + "/Sources/SampleApp/Tips/hiking.yaml"
        let parameters = try String(contentsOfFile: hiking, encoding: .utf8)
        try parameters.replacingOccurrences(of: "events:\n", with: "  beta: { type: bool, default: false }\nevents:\n")
            .write(toFile: hiking, atomically: true, encoding: .utf8)
        let unused = hiking + ":4:3: %@: parameter 'beta' is not used by any rule [unused]"
        let warned = try Self.run(swift, build, in: package, seconds: 600)
        #expect(warned.status == 0 && warned.output.contains(unused.replacingOccurrences(of: "%@", with: "warning")), "\(warned.output)")
        let configuration = package + "/.tipc.yml"
        try String(contentsOfFile: configuration, encoding: .utf8).replacingOccurrences(of: "unused: warning", with: "unused: error")
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        let configured = try Self.run(swift, build, in: package, seconds: 600)
        #expect(configured.status != 0 && configured.status != nil, "\(configured.output)")
        #expect(configured.output.contains(unused.replacingOccurrences(of: "%@", with: "error")), "\(configured.output)")
    }
}
