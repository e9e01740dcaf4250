import TipcCompiler

/// `tipc schema`: the JSON Schema (draft-07) of the YAML manifest, for editors.
public enum SchemaCommand: TipcCommand {
    public static var signature: CommandSignature {
        CommandSignature(
            name: "schema",
            abstract: "Print the JSON Schema of the manifest format, for editors.",
            discussion: "Save it next to your manifests and point yaml-language-server at it with a first line such as '# yaml-language-server: $schema=tipc.schema.json'.",
            positionals: [],
            options: [])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        context.standardOutput.write(ManifestSchema.jsonSchema() + "\n")
        return .success
    }
}
