import TipRuntime
import TipcCLI
import TipService
import TipServicePostgres

/// `tipc report` with the PostgreSQL store linked in: what `tipc report --store postgres://…`
/// runs (`tipc` itself links no libpq).
enum ServiceReportCommand: TipcCommand {
    static var signature: CommandSignature { ReportCommand.signature }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        try ReportCommand.run(arguments, context: context) { (url) throws(TipStoreError) -> any ServiceStore in
            try PostgresServiceStore(url: url)
        }
    }
}
