#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TipcFuzzing

/// libFuzzer's entry point for every fuzz target: the environment variable `TIPC_FUZZ_TARGET`
/// names the one that runs (`FuzzManifest`, `FuzzRuleLanguage`, `FuzzPack`, `FuzzPackMutation`),
/// which `scripts/fuzz.sh` sets.
///
/// Built by `scripts/fuzz.sh` with `--sanitize=fuzzer` and `-DFUZZING`, libFuzzer supplies
/// `main`. In an ordinary build the `@main` below replays files instead:
/// `tipc-fuzz TARGET FILE|FOLDER...` (`tipc-fuzz FuzzPackMutation --write-base-packs DIR` writes
/// the unmutated packs, the seed corpus of FuzzPack).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzedTarget.run([UInt8](UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Called by libFuzzer before the first input: a missing or unknown target stops the process here.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = fuzzedTarget
    return 0
}

/// The target `TIPC_FUZZ_TARGET` names; the process stops when it names none.
private let fuzzedTarget: FuzzTarget = {
    guard let name = getenv("TIPC_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        print("set TIPC_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    return target
}()

#if !FUZZING
@main
struct Replay {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            print("usage: tipc-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE|FOLDER...  "
                  + "(replays inputs; build with scripts/fuzz.sh to fuzz)")
            exit(2)
        }
        if target == .packMutation, arguments.count == 4, arguments[2] == "--write-base-packs" {
            FuzzReplay.write(PackMutation.basePacks, to: arguments[3], prefix: "base-")
        }
        exit(FuzzReplay.run(arguments: [arguments[0]] + arguments.dropFirst(2), body: target.run))
    }
}
#endif
