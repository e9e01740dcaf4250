/// `tipc lsp`: the language server, over standard input and output.
public enum LanguageServerCommand: TipcCommand {
    public static var signature: CommandSignature {
        CommandSignature(
            name: "lsp",
            abstract: "Run the language server (LSP 3.17 over standard input and output) for editors.",
            discussion: "Diagnostics, completion, hover, go to definition, references, rename, quick fixes, formatting and document symbols for YAML manifests, .tips files and TipKit Swift files; the files of one folder form one program, as with 'tipc check', and the nearest .tipc.yml applies. Exit status: 0 after 'shutdown' and 'exit', 1 when the input ends or 'exit' comes without 'shutdown'.",
            positionals: [],
            options: [])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let server = LanguageServer(output: context.standardOutput)
        let status = server.serve(MessageReader(descriptor: 0))
        return status == 0 ? .success : .inputHasErrors
    }
}
