import Foundation
import Testing
import TipcCompiler

/// Folder walks honour `.gitignore`: names, globs, folders, anchored patterns, negation, deeper
/// files over shallower ones, and the files of the folders above up to the repository's root.
@Suite("Folder walks and .gitignore")
struct GitIgnoreWalkTests {
    static let manifest = "tipkit: 1\n"

    /// The files a walk of `folder` takes, relative to `root`.
    func walked(_ folder: String, root: String) -> [String] {
        SourceDiscovery.discover([folder]).programs.flatMap { $0 }.map { String($0.dropFirst(root.count + 1)) }.sorted()
    }

    @Test func patternsOfEveryKindAreHonoured() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/.git", withIntermediateDirectories: true)
        try folder.write(".gitignore", """
            # generated manifests
            generated.yaml
            *.draft.tips
            build/
            /top.yaml
            docs/**/old.yaml
            *.local.yaml
            !keep.local.yaml
            """)
        for file in ["app.yaml", "generated.yaml", "sub/generated.yaml", "a.draft.tips", "b.tips", "build/x.yaml",
                     "sub/build/y.yaml", "top.yaml", "sub/top.yaml", "docs/v1/old.yaml", "docs/v1/new.yaml",
                     "me.local.yaml", "keep.local.yaml", "notes/build"] {
            try folder.write(file, file.hasSuffix(".tips") ? "tipkit 1\n" : Self.manifest)
        }
        // A deeper .gitignore overrides a shallower one.
        try folder.write("deep/.gitignore", "!generated.yaml\nlocal-only.yaml\n")
        try folder.write("deep/generated.yaml", Self.manifest)
        try folder.write("deep/local-only.yaml", Self.manifest)
        #expect(walked(folder.path, root: folder.path) == [
            "app.yaml", "b.tips", "deep/generated.yaml", "docs/v1/new.yaml", "keep.local.yaml", "sub/top.yaml",
        ])
        // A file named on the command line is read, ignored or not.
        #expect(SourceDiscovery.discover([folder.path + "/generated.yaml"]).programs == [[folder.path + "/generated.yaml"]])
    }

    @Test func theGitignoreFilesAboveAreReadUpToTheRepositorysRoot() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/repo/.git", withIntermediateDirectories: true)
        try folder.write(".gitignore", "app.yaml\n")            // outside the repository: not read
        try folder.write("repo/.gitignore", "/apps/news/draft.yaml\nvendor\n")
        try folder.write("repo/apps/news/app.yaml", Self.manifest)
        try folder.write("repo/apps/news/draft.yaml", Self.manifest)
        try folder.write("repo/apps/news/vendor/lib.yaml", Self.manifest)
        #expect(walked(folder.path + "/repo/apps/news", root: folder.path + "/repo/apps/news") == ["app.yaml"])
        // Without a repository, only the .gitignore files in and under the folder walked count.
        let plain = try TemporaryFolder()
        try plain.write(".gitignore", "app.yaml\n")
        try plain.write("apps/app.yaml", Self.manifest)
        try plain.write("apps/other.yaml", Self.manifest)
        #expect(walked(plain.path + "/apps", root: plain.path + "/apps") == ["app.yaml", "other.yaml"])
        #expect(walked(plain.path, root: plain.path) == ["apps/other.yaml"])
    }

    @Test func checkOfAFolderLeavesIgnoredFilesAlone() throws {
        let folder = try TemporaryFolder()
        try folder.write(".gitignore", "broken.yaml\n")
        try folder.write("app.yaml", "tipkit: 1\nevents:\n  opened: {}\ntips:\n  t:\n    title: T\n    rules: [opened.count > 1]\n")
        try folder.write("broken.yaml", "tipkit: 1\ntips: [\n")
        let run = Invocation(["check", folder.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }
}
