#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The entry point of a fuzz target built without libFuzzer: runs the fuzz body once on each
/// file named on the command line (folders: each file inside), so that corpus entries and
/// crash inputs can be replayed under a debugger or in an ordinary build.
public enum FuzzReplay {
    /// Runs `body` on every input named on the command line, then exits.
    public static func main(_ body: ([UInt8]) -> Void) -> Never {
        exit(run(arguments: CommandLine.arguments, body: body))
    }

    /// Runs `body` on every input `arguments` name; returns the process exit status.
    public static func run(arguments: [String], body: ([UInt8]) -> Void) -> Int32 {
        let paths = Array(arguments.dropFirst())
        guard !paths.isEmpty else {
            print("usage: \(arguments.first ?? "fuzz-target") FILE|FOLDER...  (replays inputs; build with scripts/fuzz.sh to fuzz)")
            return 2
        }
        var count = 0
        for path in paths {
            for file in inputs(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("cannot read \(file)")
                    return 2
                }
                body([UInt8](data))
                count += 1
            }
        }
        print("replayed \(count) input(s)")
        return 0
    }

    private static func inputs(at path: String) -> [String] {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }

    /// Writes each input to `folder` as `<prefix><index>`, then exits.
    public static func write(_ inputs: [[UInt8]], to folder: String, prefix: String) -> Never {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, bytes) in inputs.enumerated() {
            let path = folder + "/" + prefix + String(index)
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                print("cannot write \(path)")
                exit(2)
            }
        }
        print("wrote \(inputs.count) file(s)")
        exit(0)
    }
}
