#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TipcCLI

let status = TipcCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                 environment: ProcessInfo.processInfo.environment,
                                 stdout: FileDescriptorOutput.standardOutput,
                                 stderr: FileDescriptorOutput.standardError,
                                 executableFolder: ExternalCommand.runningExecutableFolder())
exit(status)
