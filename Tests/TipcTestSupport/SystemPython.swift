import Foundation

/// Debian's own Python (/usr/bin/python3), which has the packages the tests compare against
/// (hashlib, SciPy, statsmodels) once `scripts/setup.sh --tests` has run; a `python3` earlier
/// on PATH may not have them.
public enum SystemPython {
    public static let path = "/usr/bin/python3"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `script` with `input` as JSON on its standard input and returns what it prints on
    /// its standard output, decoded as JSON. Throws, quoting the script's standard error, when
    /// the script fails or Python is missing.
    public static func run(_ script: String, input: Any) throws -> Any {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "\(path) is missing; run scripts/setup.sh --tests")
        }
        // Standard error goes to a file, so that no pipe but the one read here can fill up.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-python-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw Failure(description: "cannot create \(errorFile.path)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", script]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        // Python reads all of its input before it prints anything.
        stdin.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw Failure(description: "python exited with status \(process.terminationStatus): \(errors)")
        }
        return try JSONSerialization.jsonObject(with: output)
    }
}
