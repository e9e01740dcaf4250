import TipcFuzzing

/// libFuzzer entry point: the TipKit importer's Swift reader, then the checker, lints and pack
/// compiler, and writing the import as YAML and `.tips`.
///
/// Built by `scripts/fuzz.sh` with `--sanitize=fuzzer` and `-DFUZZING`, libFuzzer supplies
/// `main`. In an ordinary build the `@main` below replays the files given as arguments.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CompilerFuzzing.swiftImport([UInt8](UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if !FUZZING
@main
struct Replay {
    static func main() {
        FuzzReplay.main(CompilerFuzzing.swiftImport)
    }
}
#endif
