import Testing
@testable import TipcCLI

@Suite struct RootCommandLineTests {
    @Test func version() {
        let run = Invocation(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "tipc \(TipcCommandLine.version)\n")
    }

    @Test func rootHelpListsOnlyExistingSubcommands() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let run = Invocation(arguments)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("OVERVIEW: "))
            #expect(run.stdout.contains("\n\nUSAGE: tipc <subcommand>\n\nOPTIONS:\n"))
            #expect(run.stdout.contains("\n\nSUBCOMMANDS:\n  check   "))
            let listed = run.stdout.components(separatedBy: "SUBCOMMANDS:\n")[1]
            let built = Set(BuiltinCommands.all.map { $0.signature.name })
            for name in ["check", "compile", "inspect", "explain", "simulate", "store", "fmt", "convert", "schema"] {
                #expect(listed.contains("  \(name) ") == built.contains(name), "\(name)")
            }
        }
    }

    @Test func noArgumentsIsAUsageError() {
        let run = Invocation([])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("USAGE: tipc <subcommand>"))
    }

    @Test func unknownSubcommandSuggestsTheClosest() {
        let run = Invocation(["chekc", "x.yaml"])
        #expect(run.status == 2)
        #expect(run.stderr == """
            Error: Unknown subcommand 'chekc'
            Help: did you mean 'check'?
            Usage: tipc <subcommand>
              See 'tipc --help' for more information.

            """)
    }

    @Test func unknownRootOption() {
        let run = Invocation(["--verison"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: Unknown option '--verison'\nHelp: did you mean '--version'?\n"))
    }

    @Test func helpForASubcommand() {
        let viaHelp = Invocation(["help", "check"])
        let viaFlag = Invocation(["check", "--help"])
        let viaShort = Invocation(["check", "x", "-h"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout == viaShort.stdout)
        for section in ["OVERVIEW: ", "\n\nUSAGE: tipc check ", "\n\nARGUMENTS:\n  <paths> ...", "\n\nOPTIONS:\n  --format <format>"] {
            #expect(viaHelp.stdout.contains(section))
        }
        #expect(viaHelp.stdout.contains("--strict"))
        #expect(viaHelp.stdout.contains("-h, --help"))
        let unknown = Invocation(["help", "chek"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'check'?"))
    }

    @Test func uncaughtErrorsAreInternalErrors() {
        struct Boom: Error {}
        enum FailingCommand: TipcCommand {
            static var signature: CommandSignature { CommandSignature(name: "fail", abstract: "Fails.") }
            static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode { throw Boom() }
        }
        enum RejectingCommand: TipcCommand {
            static var signature: CommandSignature { CommandSignature(name: "reject", abstract: "Rejects.") }
            static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
                throw UsageError("Nothing to do", help: "give it something")
            }
        }
        let application = CommandLineApplication(name: "t", version: "1", abstract: "Test.",
                                                 commands: [FailingCommand.self, RejectingCommand.self])
        let out = CapturedOutput()
        let err = CapturedOutput()
        let context = CommandContext(environment: [:], standardOutput: out, standardError: err)
        #expect(application.run(["fail"], context: context) == .internalError)
        #expect(err.text.hasPrefix("error: internal error: "))
        #expect(application.run(["reject"], context: context) == .usageOrIOError)
        #expect(err.text.contains("Error: Nothing to do\nHelp: give it something\nUsage: t reject\n"))
    }
}
