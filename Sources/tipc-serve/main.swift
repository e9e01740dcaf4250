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
import TipcCLI

// `tipc-serve`: the tip service, an executable of its own so that `tipc` links neither
// libmicrohttpd nor libpq. `tipc serve ARGS` runs `tipc-serve ARGS` when it is installed beside
// `tipc`; it can also be run directly. Its messages name it `tipc serve`, as users call it.
// `tipc-serve report ARGS` is `tipc report` with a PostgreSQL store, which `tipc` hands here.
let context = CommandContext(environment: ProcessInfo.processInfo.environment,
                             standardOutput: FileDescriptorOutput.standardOutput,
                             standardError: FileDescriptorOutput.standardError)
let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitCode
if arguments == ["--version"] {
    context.standardOutput.write("tipc-serve \(TipcCommandLine.version)\n")
    status = .success
} else if arguments.first == "report" {
    status = TipcCommandLine.application.run(ServiceReportCommand.self, Array(arguments.dropFirst()), context: context)
} else {
    status = TipcCommandLine.application.run(ServeCommand.self, arguments, context: context)
}
exit(status.rawValue)
