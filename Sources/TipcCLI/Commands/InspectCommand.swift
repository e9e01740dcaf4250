#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipRuntime

/// `tipc inspect PACK`: the header, tables and disassembled bytecode of a rule pack.
public enum InspectCommand: TipcCommand {
    enum Format: String, CaseIterable { case text, json }

    static let format = OptionDefinition.choice("format", of: Format.self, default: .text, help: "Text for people, JSON for tools.")
    static let pack = PositionalDefinition("pack", help: "A rule pack (.tippack).")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "inspect",
            abstract: "Show the header, tables and bytecode of a rule pack.",
            discussion: "A damaged or hostile pack is refused with what is wrong and where (exit code 1).",
            positionals: [pack],
            options: [format])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let path = arguments.values(of: pack).first ?? ""
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CommandFailure.io("cannot read '\(path)'")
        }
        let inspector: RulePackInspector
        do {
            _ = try RulePackLoader.decode(bytes)
            inspector = try RulePackInspector(bytes: bytes)
        } catch {
            throw CommandFailure.input("\(path): \(error)")
        }
        switch arguments.choice(format, as: Format.self) ?? .text {
        case .text: context.standardOutput.write(inspector.text() + "\n")
        case .json: context.standardOutput.write(inspector.json() + "\n")
        }
        return .success
    }
}
