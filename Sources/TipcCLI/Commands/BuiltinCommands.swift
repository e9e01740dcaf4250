/// The subcommands `tipc` offers, in the order its help lists them.
public enum BuiltinCommands {
    public static var all: [any TipcCommand.Type] {
        [CheckCommand.self, CompileCommand.self, InspectCommand.self, ExplainCommand.self, SimulateCommand.self, PreviewCommand.self,
         StoreCommand.self, ReportCommand.self, FmtCommand.self, ConvertCommand.self, ImportCommand.self, GenerateCommand.self, SchemaCommand.self, CodesCommand.self, LanguageServerCommand.self]
    }
}
