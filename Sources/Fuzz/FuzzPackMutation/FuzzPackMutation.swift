import TipcFuzzing

/// libFuzzer entry point: the pack loader, verifier and VM on structure-aware mutations of valid packs.
///
/// Built by `scripts/fuzz.sh` with `--sanitize=fuzzer` and `-DFUZZING`, libFuzzer supplies
/// `main`. In an ordinary build the `@main` below replays the files given as arguments, or writes the
/// base packs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    PackMutation.run([UInt8](UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if !FUZZING
@main
struct Replay {
    static func main() {
        // `--write-base-packs DIR` writes the unmutated packs (the seed corpus of FuzzPack).
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-base-packs" {
            FuzzReplay.write(PackMutation.basePacks, to: arguments[2], prefix: "base-")
        }
        FuzzReplay.main(PackMutation.run)
    }
}
#endif
