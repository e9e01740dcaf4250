import Foundation
import TipService
import TipcCompiler
import TipcDriver
import TipcJSON

/// `tipc lsp` as an editor sees it: a real server process over pipes, a 500-tip manifest open,
/// a one-character change (a tip's `maxDisplayCount` digit) and the time until that version's
/// diagnostics arrive; then a completion request in a rule and the time until its answer.
/// The floor is one check of the same manifest in this process (what each change must cost
/// at least). Run on one core: `taskset -c 0 .build/release/tipc-bench lsp`.
func runLanguageServerBenchmarks(changes: Int = 200) {
    Report.header("tipc lsp: a 500-tip manifest (200 parameters, 200 events), \(changes) one-character changes")
    guard let tipc = ProcessTiming.siblingExecutable("tipc") else {
        print("tipc is not built beside tipc-bench: swift build -c release --product tipc")
        return
    }
    var generator = ManifestGenerator(tips: 500)
    var text = Array(generator.yaml().utf8)
    let folder = NSTemporaryDirectory() + "tipc-bench-lsp-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/tips500.yaml"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    guard FileManager.default.createFile(atPath: path, contents: Data(text)) else {
        print("cannot write \(path)")
        return
    }
    let uri = URL(fileURLWithPath: path).absoluteString

    // The floor: one check of the manifest, in process.
    let source = SourceFile(path: path, bytes: text)
    let floor = Measure.median(runs: 20) { _ = Frontend.check(sources: [source], keepingParsedFiles: true, keepingProgram: false) }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: tipc)
    process.arguments = ["lsp"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do { try process.run() } catch {
        print("cannot start tipc lsp: \(error)")
        return
    }
    var session = BenchSession(input: input.fileHandleForWriting, output: output.fileHandleForReading.fileDescriptor)
    _ = session.request("initialize", .object([("processId", .null), ("rootUri", .null), ("capabilities", .object([]))]))
    session.notify("initialized", .object([]))
    session.notify("textDocument/didOpen", .object([("textDocument", .object([
        ("uri", .string(uri)), ("languageId", .string("yaml")), ("version", .integer(1)), ("text", .string(String(decoding: text, as: UTF8.self))),
    ]))]))
    session.waitForDiagnostics(uri: uri, version: 1)

    // The digit of tip 250's maxDisplayCount, and a rule line to complete in.
    let lines = String(decoding: text, as: UTF8.self).components(separatedBy: "\n")
    guard let tipLine = lines.firstIndex(of: "  tip250:"),
          let countLine = lines[tipLine...].firstIndex(where: { $0.hasPrefix("    maxDisplayCount: ") }),
          let ruleLine = lines[tipLine...].firstIndex(where: { $0.hasPrefix("      - ") }) else {
        print("the generated manifest has no tip250")
        return
    }
    let digitColumn = lines[countLine].utf16.count - 1
    var publish: [Double] = []
    var completion: [Double] = []
    for change in 0..<changes {
        let version = change + 2
        let digit = change % 2 == 0 ? "9" : "8"
        let range: JSON = .object([("start", position(countLine, digitColumn)), ("end", position(countLine, digitColumn + 1))])
        let start = Measure.now()
        session.notify("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri)), ("version", .integer(Int64(version)))])),
            ("contentChanges", .array([.object([("range", range), ("text", .string(digit))])])),
        ]))
        session.waitForDiagnostics(uri: uri, version: version)
        publish.append(Double(Measure.now() - start))
        let asked = Measure.now()
        let answer = session.request("textDocument/completion", .object([
            ("textDocument", .object([("uri", .string(uri))])), ("position", position(ruleLine, 8)),
        ]))
        completion.append(Double(Measure.now() - asked))
        if change == 0, case .array(let items)? = answer?["result"]?["items"], items.isEmpty { print("completion answered nothing") }
    }
    text = []
    _ = session.request("shutdown", .null)
    session.notify("exit", .null)
    process.waitUntilExit()
    func percentile(_ samples: [Double], _ p: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
    Report.ratio("diagnostics after a change, p95", value: percentile(publish, 0.95) / 1e6, floor: floor / 1e6,
                 floorLabel: "one check in process", unit: "ms")
    Report.figure("diagnostics after a change, median", Measure.median(of: publish) / 1e6, unit: "ms", note: "(target p95 ≤ 50 ms)")
    Report.figure("completion in a rule, p95", percentile(completion, 0.95) / 1e6, unit: "ms", note: "(target ≤ 20 ms)")
    Report.figure("completion in a rule, median", Measure.median(of: completion) / 1e6, unit: "ms")
}

private func position(_ line: Int, _ character: Int) -> JSON {
    .object([("line", .integer(Int64(line))), ("character", .integer(Int64(character)))])
}

/// The client's half of the benchmark's session: framed messages over the server's pipes.
private struct BenchSession {
    let input: FileHandle
    let output: Int32
    var buffer: [UInt8] = []
    var nextID = 1

    init(input: FileHandle, output: Int32) {
        self.input = input
        self.output = output
    }

    func send(_ message: JSON) {
        let body = message.utf8()
        input.write(Data(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body))
    }

    func notify(_ method: String, _ params: JSON) {
        send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    mutating func request(_ method: String, _ params: JSON) -> JSON? {
        let id = nextID
        nextID += 1
        send(.object([("jsonrpc", .string("2.0")), ("id", .integer(Int64(id))), ("method", .string(method)), ("params", params)]))
        while let message = next() {
            if message["method"] == nil, message["id"] == .integer(Int64(id)) { return message }
        }
        return nil
    }

    mutating func waitForDiagnostics(uri: String, version: Int) {
        while let message = next() {
            if message["method"] == .string("textDocument/publishDiagnostics"), message["params"]?["uri"] == .string(uri),
               message["params"]?["version"] == .integer(Int64(version)) { return }
        }
    }

    mutating func next() -> JSON? {
        while true {
            if let end = headerEnd() {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                let length = Int(header.split(separator: ":").last.map { $0.filter(\.isNumber) } ?? "") ?? 0
                if buffer.count >= end + 4 + length {
                    let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return try? JSON.parse(body)
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
