import Foundation
import Testing
import TipRuntime
@testable import TipService

/// The keys file (`--keys`): read line by line whatever the line endings, and never quoted
/// back, neither at start nor to a client.
@Suite("tipc serve: keys file")
struct ServiceKeysTests {
    static let clientDigest = SHA256.hex(Array("client-token".utf8))
    static let adminDigest = SHA256.hex(Array("admin-token".utf8))

    static func file(_ ending: String) -> String {
        ["# tokens: client-token, admin-token", "client \(clientDigest) web", "", "admin \(adminDigest) ops", ""].joined(separator: ending)
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func everyLineEndingReadsTheSameKeys(ending: String) throws {
        let keys = try ServiceKeys(text: Self.file(ending))
        let admin = try #require(keys.key(authorization: "Bearer admin-token"))
        #expect(admin.role == .admin)
        #expect(admin.name == "ops")
        let client = try #require(keys.key(authorization: "Bearer client-token"))
        #expect(client.role == .client)
        #expect(client.name == "web")
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func aClientKeysRefusalQuotesNothingOfTheFile(ending: String) throws {
        let server = TipServer(pack: try ServeHandlerTests.pack(), store: ServeHandlerTests.UnreachableStore(),
                               keys: try ServiceKeys(text: Self.file(ending)))
        let response = server.handle(HTTPRequest(method: "PUT", path: "/v1/pack", headers: ["authorization": "Bearer client-token"]))
        #expect(response.status == 403)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains(Self.adminDigest) && !text.contains(Self.clientDigest) && !text.contains("ops") && !text.contains("web"), "\(text)")
    }

    @Test func aMalformedLineIsNamedByItsNumberWithoutItsText() {
        let text = "client \(Self.clientDigest)\r\n\(Self.adminDigest) admin\r\n"
        #expect {
            try ServiceKeys(text: text, file: "keys")
        } throws: { error in
            let message = (error as? ListenError)?.description ?? ""
            return message.hasPrefix("keys:2: ") && !message.contains(Self.adminDigest) && !message.contains(Self.clientDigest)
        }
        #expect {
            try ServiceKeys(text: "admin \(Self.adminDigest.dropLast())\rclient \(Self.clientDigest)", file: "keys")
        } throws: { error in
            let message = (error as? ListenError)?.description ?? ""
            return message.hasPrefix("keys:1: ") && !message.contains(Self.clientDigest) && !message.contains(Self.adminDigest.dropLast())
        }
    }
}
