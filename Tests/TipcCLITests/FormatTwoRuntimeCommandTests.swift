import Foundation
import Testing
@testable import TipcCLI

/// Format 2's runtime additions on the command line: groups' current tip and deleted
/// donations, in timelines and in `tipc store`.
@Suite("simulate and store: currentTip and deleteDonations")
struct FormatTwoRuntimeCommandTests {
    static let manifest = """
    tipkit 1
    displayFrequency 1h
    event opened
    tip welcome {
      title "Welcome"
    }
    tip swipe {
      title "Swipe"
      rule opened.count >= 2
    }
    group onboarding ordered { welcome, swipe }
    """

    @Test func aTimelineExpectsCurrentTipsAndDeletesDonations() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let timeline = try folder.write("app.timeline.yaml", """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +0s, expect: { onboarding: { currentTip: welcome } } }
          - { at: +1m, show: [welcome], donate: [opened, opened] }
          - { at: +1m, invalidate: { tip: welcome, reason: tipClosed } }
          - { at: +1m, expect: { onboarding: { currentTip: null }, swipe: available } }
          - { at: +1h1m, expect: { onboarding: { currentTip: swipe } } }
          - { at: +1d, deleteDonations: opened }
          - { at: +1d, expect: { onboarding: { currentTip: null }, swipe: pending } }
          - { at: +1d1s, donate: [opened, opened] }
          - { at: +1d1s, expect: { onboarding: { currentTip: swipe } } }
          - { at: +2d, deleteDonations: [opened] }
          - { at: +2d, expect: { onboarding: { currentTip: null } } }
        """)
        for extra in [[], ["--db", folder.path + "/s.sqlite"]] {
            let run = Invocation(["simulate", manifest, "--timeline", timeline] + extra)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("expect onboarding currentTip null: ok"))
            #expect(run.stdout.contains("deleteDonations opened"))
            #expect(run.stdout.contains("11 steps, 8 expectations, 0 failed"), "\(run.stdout)")
        }
    }

    @Test func aWrongExpectationOrAnUnknownNameIsAClearFailure() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let timeline = try folder.write("bad.timeline.yaml", """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +0s, expect: { onboarding: { currentTip: swipe } } }
          - { at: +0s, expect: { onbording: { currentTip: welcome } } }
          - { at: +0s, expect: { welcome: { currentTip: welcome } } }
          - { at: +0s, expect: { onboarding: { currentTip: swip } } }
          - { at: +0s, deleteDonations: opend }
        """)
        let run = Invocation(["simulate", manifest, "--timeline", timeline])
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.timeline.yaml:3:52: error: expected onboarding currentTip swipe, found welcome"), "\(run.stderr)")
        #expect(run.stderr.contains("no tip group named 'onbording'; did you mean 'onboarding'?"))
        #expect(run.stderr.contains("no tip group named 'welcome' ('welcome' is a tip: currentTip is expected of a group)"))
        #expect(run.stderr.contains("no tip named 'swip'; did you mean 'swipe'?"))
        #expect(run.stderr.contains("no event named 'opend'; did you mean 'opened'?"))
    }

    @Test func currentTipCannotShareAnExpectationWithATipsFields() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let timeline = try folder.write("mixed.timeline.yaml", """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +0s, expect: { onboarding: { currentTip: welcome, status: available } } }
        """)
        let run = Invocation(["simulate", manifest, "--timeline", timeline])
        #expect(run.status == 1)
        #expect(run.stderr.contains("'currentTip' is expected of a group, 'status' of a tip"), "\(run.stderr)")
    }

    @Test func storeDeletesDonationsAndTheDeletionTravelsByMerge() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let phone = folder.path + "/phone.sqlite", tablet = folder.path + "/tablet.sqlite"
        func store(_ db: String, _ at: String, _ arguments: String...) -> Invocation {
            Invocation(["store", "--db", db, "--manifest", manifest, "--at", at] + arguments)
        }
        #expect(store(phone, "2026-03-01T09:00:00Z", "donate", "opened", "--count", "2").status == 0)
        #expect(store(tablet, "2026-03-01T09:30:00Z", "donate", "opened").status == 0)
        let status = store(phone, "2026-03-01T10:00:00Z", "status")
        #expect(status.stdout.contains("swipe    available"), "\(status.stdout)")
        #expect(status.stdout.contains("group onboarding  currentTip=welcome"))

        let deleted = store(phone, "2026-03-01T10:00:00Z", "delete-donations", "opened")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted the donations of opened up to 2026-03-01T10:00:00Z\n")
        #expect(store(phone, "2026-03-01T10:00:00Z", "status", "swipe").stdout.contains("pending"))
        let unknown = store(phone, "2026-03-01T10:00:00Z", "delete-donations", "opend")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no event named 'opend'; did you mean 'opened'?"))

        // The tablet's donation predates the deletion: merged in, it does not count.
        #expect(store(tablet, "2026-03-01T11:00:00Z", "donate", "opened").status == 0)
        #expect(store(phone, "2026-03-01T11:00:00Z", "merge", tablet).status == 0)
        #expect(store(tablet, "2026-03-01T11:00:00Z", "merge", phone).status == 0)
        for db in [phone, tablet] {
            let export = store(db, "2026-03-01T11:00:00Z", "export")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
            #expect(json["donationDeletions"] as? [String: String] == ["opened": "2026-03-01T10:00:00Z"])
            let tips = try #require(json["tips"] as? [String: [String: Any]])
            #expect(tips["swipe"]?["status"] as? String == "pending", "one donation counts: the one after the deletion")
        }
    }
}
