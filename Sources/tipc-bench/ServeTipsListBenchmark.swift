import Foundation
import TipcCompiler
import TipRuntime
import TipService
import TipcDriver

/// `GET /v1/users/{user}/tips` over packs of many tips, in process (no HTTP): the seconds of
/// one answer listing every tip, and per tip. Per tip must stay flat as the pack grows: a
/// search by name per tip made the answer quadratic (10,000 tips 0.27 s; 100,000: 22.9 s).
func runServeTipsListBenchmark(tips counts: [Int]) {
    print("## GET …/tips listing every tip (in process, SQLite store, one user without records)")
    for count in counts.isEmpty ? [10_000, 100_000] : counts {
        var source = "tipkit 1\n"
        for index in 0..<count { source += "tip t\(index) {\n  title \"Tip \(index)\"\n}\n" }
        let (result, compiled) = Frontend.compile(sources: [SourceFile(path: "bench.tips", text: source)])
        guard let compiled, let verified = try? RulePackVerifier.verify(compiled) else {
            print("serve-tips: the benchmark's pack does not compile: \(result.diagnostics.prefix(3).map(\.message))")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-bench-tips-\(ProcessInfo.processInfo.processIdentifier)-\(count)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let store = try SQLiteServiceStore(path: folder.appendingPathComponent("serve.sqlite").path)
            let server = TipServer(pack: ServicePack(verified: verified), store: store, keys: nil)
            var seconds: [Double] = []
            for _ in 0..<3 {
                let started = Date()
                let response = server.handle(HTTPRequest(method: "GET", path: "/v1/users/ann/tips"))
                seconds.append(Date().timeIntervalSince(started))
                guard response.status == 200 else {
                    print("serve-tips: answered \(response.status)")
                    return
                }
            }
            let median = seconds.sorted()[1]
            print("  \(count) tips: \(String(format: "%.3f", median)) s per answer (median of 3), \(String(format: "%.2f", median / Double(count) * 1e6)) µs per tip")
        } catch {
            print("serve-tips: \(error)")
        }
    }
}
