import Foundation
import Testing
import TipRuntime
import TipService

/// `GET …/tips` in one `tipc serve` process sees every write acknowledged before it by
/// another (the reads in process are in TipServiceTests).
@Suite("tipc serve: reads from a snapshot, across processes")
struct ServeSnapshotTests {
    /// The manifest of the read-your-writes tests: the user's counter shows in a tip's title.
    static let counterManifest = """
        tipkit: 1
        parameters:
          counter: { type: int, default: 0 }
        events:
          opened: {}
        tips:
          progress:
            title: "Counter {$counter}"
            rules:
              - opened.count >= 1
        """

    /// `writer` sets the user's counter to 1, 2, …; after each 200, a GET on `reader` (another
    /// process) must show that value, while other clients donate to the same user through both
    /// servers and read it, so the GETs meet writers' transactions all along.
    static func readsSeeAcknowledgedWrites(writer: ServerProcess, reader: ServerProcess, user: String) throws {
        let done = RuntimeLock(false)
        let failures = RuntimeLock<[String]>([])
        let background = DispatchGroup()
        let ports = [writer.port, reader.port]
        for client in 0..<4 {
            DispatchQueue.global().async(group: background) {
                let port = ports[client % 2]
                while !done.withLock({ $0 }) {
                    let path = client < 2 ? "/v1/users/\(user)/events/opened" : "/v1/users/\(user)/tips"
                    let reply = try? HTTPClient.send(port: port, method: client < 2 ? "POST" : "GET", path: path, body: client < 2 ? [] : nil)
                    if reply?.status != (client < 2 ? 201 : 200) {
                        failures.withLock { $0.append("client \(client): \(reply.map { "\($0.status) \($0.text)" } ?? "no answer")") }
                    }
                }
            }
        }
        defer {
            done.withLock { $0 = true }
            background.wait()
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
        }
        for value in 1...25 {
            let put = try writer.request("PUT", "/v1/users/\(user)/parameters/counter", body: #"{"value":\#(value)}"#)
            try #require(put.status == 200, "\(put.text)")
            for server in [reader, writer] {
                let reply = try server.request("GET", "/v1/users/\(user)/tips")
                guard case .array(let tips)? = reply.json?["tips"] else { throw ServeTestError("no tips: \(reply.text)") }
                #expect(tips.first?["title"] == .string("Counter \(value)"), "write \(value), acknowledged, not seen by the GET: \(reply.text)")
            }
        }
    }

    @Test func getsInAnotherProcessSeeEveryAcknowledgedWrite() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.counterManifest)
        let pack = (manifest as NSString).deletingLastPathComponent, store = folder.path + "/serve.sqlite"
        let writer = try ServerProcess(pack: pack, store: store)
        let reader = try ServerProcess(pack: pack, store: store)
        try Self.readsSeeAcknowledgedWrites(writer: writer, reader: reader, user: "shared")
    }
}
