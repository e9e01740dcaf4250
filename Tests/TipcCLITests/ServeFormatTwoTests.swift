import Foundation
import Testing
import TipService
import TipcJSON

/// `tipc serve` with format 2 as a real process: tip instances in
/// `GET …/tips` and the per-tip routes, localized texts with placeholders, and the runtime's
/// key errors as 400s.
@Suite("tipc serve: format 2", .serialized)
struct ServeFormatTwoTests {
    static let manifest = """
        tipkit: 1
        defaultLocale: en
        parameters:
          userName: { type: string, default: Ann }
        events:
          trailViewed:
            value: { trailID: int }
        tips:
          quickSearch:
            title: { en: Search faster, de: Schneller suchen, de-CH: Schnäller sueche }
            message:
              en: "Press {shortcut} to search, {$userName}."
              de: "Drücke {shortcut} zum Suchen, {$userName}."
            placeholders: { shortcut: string }
            actions:
              - { id: learn-more, title: { en: Learn more, de: Mehr erfahren } }
          streak:
            title: { en: "{days} days in a row", de: "{days} Tage in Folge" }
            placeholders: { days: int }
          newTrail:
            key: { name: trailID, type: int }
            title: A new trail near you
            maxDisplayCount: 2
            rules:
              - trailViewed.where(trailID == key).count >= 1
        """

    private func server() throws -> (TemporaryFolder, ServerProcess) {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let server = try ServerProcess(pack: (manifest as NSString).deletingLastPathComponent, store: folder.path + "/serve.sqlite")
        return (folder, server)
    }

    /// The entries of a `GET …/tips` answer, by `id` or `id[key]`.
    private func tips(_ reply: HTTPReply) -> [String: JSON] {
        guard case .array(let entries)? = reply.json?["tips"] else { return [:] }
        var result: [String: JSON] = [:]
        for entry in entries {
            guard case .string(let id)? = entry["id"] else { continue }
            switch entry["key"] {
            case .integer(let key)?: result["\(id)[\(key)]"] = entry
            case .string(let key)?: result["\(id)[\(key)]"] = entry
            default: result[id] = entry
            }
        }
        return result
    }

    private func json(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    @Test func localizedTextsChooseTheLocaleAndFillPlaceholders() throws {
        let (folder, server) = try server()
        _ = folder
        // No locale: the default; a placeholder without a value stays `{name}` and is listed.
        var reply = try server.request("GET", "/v1/users/ann/tips")
        #expect(reply.status == 200, "\(reply.text)")
        var entries = tips(reply)
        #expect(Set(entries.keys) == ["quickSearch", "streak"], "a keyed tip without records lists no instance: \(reply.text)")
        #expect(entries["quickSearch"] == (try json(#"""
            {"id":"quickSearch","status":"available","shouldDisplay":true,"title":"Search faster",
             "message":"Press {shortcut} to search, Ann.","image":null,"actions":[{"id":"learn-more","title":"Learn more"}],
             "placeholders":["shortcut"]}
            """#)))
        #expect(entries["streak"]?["title"] == .string("{days} days in a row"))

        // de-CH: its own title, the message and action from `de`; values from the query
        // (percent-encoded), parameters from the user's records.
        #expect(try server.request("PUT", "/v1/users/ann/parameters/userName", body: #"{"value":"Bea"}"#).status == 200)
        reply = try server.request("GET", "/v1/users/ann/tips?locale=de-CH&value.shortcut=%E2%8C%98K&value.days=5")
        entries = tips(reply)
        #expect(entries["quickSearch"]?["title"] == .string("Schnäller sueche"), "\(reply.text)")
        #expect(entries["quickSearch"]?["message"] == .string("Drücke ⌘K zum Suchen, Bea."))
        #expect(entries["quickSearch"]?["actions"] == (try json(#"[{"id":"learn-more","title":"Mehr erfahren"}]"#)))
        #expect(entries["streak"]?["title"] == .string("5 Tage in Folge"))
        // A locale the pack lacks falls back to the default; another user has their own parameters.
        reply = try server.request("GET", "/v1/users/bob/tips?tip=quickSearch&locale=fr&value.shortcut=K")
        #expect(tips(reply)["quickSearch"]?["message"] == .string("Press K to search, Ann."), "\(reply.text)")

        // A value that is not of the placeholder's type is the runtime's 400.
        reply = try server.request("GET", "/v1/users/ann/tips?value.days=many")
        #expect(reply.status == 400)
        #expect(reply.json?["error"]?["code"] == .string("wrong-placeholder-type"), "\(reply.text)")
        #expect(reply.text.contains("'days'"))
        // The per-tip routes answer in the asked locale too.
        reply = try server.request("POST", "/v1/users/ann/tips/streak/displays?locale=de&value.days=2")
        #expect(reply.json?["title"] == .string("2 Tage in Folge"), "\(reply.text)")
    }

    @Test func instancesOfAKeyedTip() throws {
        let (folder, server) = try server()
        _ = folder
        // An instance without records is evaluated fresh; brackets raw or percent-encoded.
        var reply = try server.request("GET", "/v1/users/ann/tips?tip=newTrail%5B42%5D")
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.json?["tips"] == (try json(#"""
            [{"id":"newTrail","key":42,"status":"pending","shouldDisplay":false,"title":"A new trail near you",
              "message":null,"image":null,"actions":[],"reason":"pending: rule 1 does not hold"}]
            """#)))
        #expect(try server.request("POST", "/v1/users/ann/events/trailViewed", body: #"{"value":{"trailID":42}}"#).status == 201)
        #expect(try server.request("POST", "/v1/users/ann/events/trailViewed", body: #"{"value":{"trailID":7}}"#).status == 201)
        reply = try server.request("GET", "/v1/users/ann/tips?tip=newTrail[42]")
        #expect(tips(reply)["newTrail[42]"]?["status"] == .string("available"), "\(reply.text)")
        #expect(tips(reply)["newTrail[42]"]?["shouldDisplay"] == .bool(true))
        #expect(tips(try server.request("GET", "/v1/users/ann/tips?tip=newTrail[1]"))["newTrail[1]"]?["status"] == .string("pending"))

        // Each instance is its own tip for displays, invalidation and reset.
        reply = try server.request("POST", "/v1/users/ann/tips/newTrail%5B42%5D/displays", body: #"{"milliseconds":500}"#)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.json?["key"] == .integer(42))
        #expect(reply.json?["status"] == .string("available"))
        reply = try server.request("POST", "/v1/users/ann/tips/newTrail[42]/displays")
        #expect(reply.json?["status"] == .string("invalidated(displayCountExceeded)"), "\(reply.text)")
        reply = try server.request("POST", "/v1/users/ann/tips/newTrail%5B7%5D/invalidate", body: #"{"reason":"tipClosed"}"#)
        #expect(reply.json?["status"] == .string("invalidated(tipClosed)"), "\(reply.text)")

        // The list has one entry per instance with records, in key order, and the plain tips.
        reply = try server.request("GET", "/v1/users/ann/tips")
        guard case .array(let entries)? = reply.json?["tips"] else { Issue.record("no tips: \(reply.text)"); return }
        #expect(entries.compactMap { $0["key"] } == [.integer(7), .integer(42)], "\(reply.text)")
        var listed = tips(reply)
        #expect(listed["newTrail[42]"]?["status"] == .string("invalidated(displayCountExceeded)"))
        #expect(listed["newTrail[7]"]?["status"] == .string("invalidated(tipClosed)"))
        #expect(listed["quickSearch"] != nil && listed["newTrail"] == nil)
        // Another user has no instances.
        #expect(tips(try server.request("GET", "/v1/users/bob/tips")).keys.contains { $0.hasPrefix("newTrail") } == false)

        reply = try server.request("POST", "/v1/users/ann/tips/newTrail[42]/reset")
        #expect(reply.json?["status"] == .string("available"), "\(reply.text)")
        listed = tips(try server.request("GET", "/v1/users/ann/tips"))
        #expect(listed["newTrail[42]"]?["status"] == .string("available"))
        #expect(listed["newTrail[7]"]?["status"] == .string("invalidated(tipClosed)"))
    }

    @Test func keyErrorsAreTheRuntimesCodes() throws {
        let (folder, server) = try server()
        _ = folder
        let errors: [(String, String, String?, Int, String, String)] = [
            ("GET", "/v1/users/ann/tips?tip=newTrail", nil, 400, "missing-key", "'newTrail'"),
            ("GET", "/v1/users/ann/tips?tip=newTrail[x]", nil, 400, "wrong-key-type", "'newTrail'"),
            ("GET", "/v1/users/ann/tips?tip=quickSearch%5B1%5D", nil, 400, "unexpected-key", "'quickSearch'"),
            ("GET", "/v1/users/ann/tips?tip=newTrial[1]", nil, 404, "unknown-tip", "did you mean 'newTrail'?"),
            ("POST", "/v1/users/ann/tips/newTrail/displays", nil, 400, "missing-key", "'newTrail'"),
            ("POST", "/v1/users/ann/tips/newTrail[seven]/invalidate", #"{"reason":"tipClosed"}"#, 400, "wrong-key-type", "'newTrail'"),
            ("POST", "/v1/users/ann/tips/streak[1]/reset", nil, 400, "unexpected-key", "'streak'"),
            ("POST", "/v1/users/ann/tips/newTrai[1]/reset", nil, 404, "unknown-tip", "did you mean 'newTrail'?"),
        ]
        for (method, path, body, status, code, fragment) in errors {
            let reply = try server.request(method, path, body: body)
            #expect(reply.status == status, "\(method) \(path): \(reply.text)")
            #expect(reply.json?["error"]?["code"] == .string(code), "\(method) \(path): \(reply.text)")
            #expect(reply.text.contains(fragment), "\(method) \(path): \(reply.text)")
        }
        // Refused requests wrote nothing.
        let snapshot = try server.request("POST", "/v1/users/ann/sync", body: "{}")
        #expect(snapshot.json?["records"]?["tips"] == .array([]), "\(snapshot.text)")
    }
}
