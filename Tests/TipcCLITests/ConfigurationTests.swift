import Foundation
import Testing
@testable import TipcCompiler
@testable import TipcCLI

/// `.tipc.yml`.
@Suite("Configuration file")
struct ConfigurationTests {
    /// `opened` is never used by a rule (`unused`), and `t`'s rule always holds (`always-true`).
    static let app = "tipkit 1\nevent opened\nevent used\ntip t {\n  title \"T\"\n  rule used.count >= 0\n}\n"

    func repository(_ configuration: String?) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("apps/app.tips", Self.app)
        try folder.write("vendor/other.tips", "tipkit 1\ntip x {\n  title \"X\"\n  rule nope.count > 0\n}\n")
        if let configuration { try folder.write(".tipc.yml", configuration) }
        return folder
    }

    @Test func foundInTheWorkingFolderOrAParentAndApplied() throws {
        let folder = try repository("exclude: [vendor]\ncodes: { unused: off, always-true: error }\n")
        let run = Invocation(["check", "--format", "github", folder.path], workingDirectory: folder.path + "/apps")
        #expect(run.status == 1)
        #expect(run.stdout.contains("::error file=\(folder.path)/apps/app.tips,line=6"))
        #expect(run.stdout.contains("title=always-true"))
        #expect(!run.stdout.contains("unused") && !run.stdout.contains("vendor"))
        // Without the file: vendor is checked, unused and always-true are warnings.
        let plain = Invocation(["check", "--format", "github", folder.path], workingDirectory: NSTemporaryDirectory())
        #expect(plain.stdout.contains("title=unknown-event") && plain.stdout.contains("::warning") && plain.stdout.contains("title=unused"))
    }

    @Test func includeGlobsAndANamedFileStaysChecked() throws {
        let folder = try repository("include: [\"apps/**/*.tips\"]\nstrict: true\n")
        let run = Invocation(["check", "--format", "github", folder.path], workingDirectory: folder.path)
        #expect(run.status == 1) // strict: the warnings fail
        #expect(!run.stdout.contains("vendor"))
        let named = Invocation(["check", "--format", "github", folder.path + "/vendor/other.tips"], workingDirectory: folder.path)
        #expect(named.stdout.contains("title=unknown-event"))
    }

    @Test func commandLineWinsAndConfigNamesAFile() throws {
        let folder = try repository("strict: false\n")
        let strictFile = try folder.write("strict.yml", "strict: true\nexclude: [vendor/]\n")
        let lenient = Invocation(["check", folder.path + "/apps"], workingDirectory: folder.path)
        #expect(lenient.status == 0)
        let flag = Invocation(["check", "--strict", folder.path + "/apps"], workingDirectory: folder.path)
        #expect(flag.status == 1)
        let named = Invocation(["check", "--config", strictFile, folder.path], workingDirectory: folder.path)
        #expect(named.status == 1)
        #expect(!named.stdout.contains("unknown-event") && !named.stderr.contains("unknown-event"))
    }

    @Test func mistakesAreErrorsWithAPositionAndADidYouMean() throws {
        let folder = try repository("exlude: [vendor]\ncodes:\n  unsued: off\n  always-true: eror\n  unknown-event: off\nstrict: yes\n")
        let run = Invocation(["check", folder.path], workingDirectory: folder.path)
        #expect(run.status == 2)
        let config = folder.path + "/.tipc.yml"
        #expect(run.stderr.contains("\(config):1:1: error[unknown-key]: unknown key 'exlude' in .tipc.yml"))
        #expect(run.stderr.contains("= help: did you mean 'exclude'?"))
        #expect(run.stderr.contains("\(config):3:3: error[invalid-value]: no diagnostic code named 'unsued'"))
        #expect(run.stderr.contains("did you mean 'unused'?"))
        #expect(run.stderr.contains("\(config):4:16: error[invalid-value]: the setting of 'always-true' must be off, warning or error, found 'eror'"))
        #expect(run.stderr.contains("\(config):5:18: error[invalid-value]: 'unknown-event' is an error and stays one"))
        #expect(run.stderr.contains("\(config):6:9: error[invalid-value]: 'strict' must be true or false"))
        #expect(run.stderr.hasSuffix("error: the configuration '\(config)' is not valid\n"))
        let yaml = try repository("codes: { unused: off, unused: error }\n")
        #expect(Invocation(["check", yaml.path], workingDirectory: yaml.path).stderr.contains("error[duplicate-key]"))
        let missing = Invocation(["check", "--config", folder.path + "/nope.yml", folder.path])
        #expect(missing.status == 2 && missing.stderr.contains("no such file or directory"))
    }

    @Test func globsMatchLikeGitignore() {
        #expect(Glob.matches("vendor", "vendor/a/b.yaml"))
        #expect(Glob.matches("vendor", "apps/vendor/b.yaml"))
        #expect(!Glob.matches("/vendor", "apps/vendor/b.yaml"))
        #expect(Glob.matches("apps/*.yaml", "apps/x.yaml"))
        #expect(!Glob.matches("apps/*.yaml", "apps/sub/x.yaml"))
        #expect(Glob.matches("apps/**/*.yaml", "apps/sub/deep/x.yaml"))
        #expect(Glob.matches("apps/**/*.yaml", "apps/x.yaml"))
        #expect(Glob.matches("*.tips", "a/b/c.tips"))
        #expect(Glob.matches("c?.tips", "a/c1.tips"))
        #expect(!Glob.matches("c?.tips", "a/c12.tips"))
    }
}
