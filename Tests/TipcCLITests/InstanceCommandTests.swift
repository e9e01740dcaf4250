import Foundation
import Testing
@testable import TipcCLI

/// Format 2 through the command line: instances named `newTrail[42]` in timelines, `explain`
/// and `store`, and rules about tips in `simulate`.
@Suite("instances and tips about tips on the command line")
struct InstanceCommandTests {
    static let manifest = """
    tipkit: 1
    displayFrequency: daily
    events:
      opened: {}
      trailViewed:
        value: { trailID: int }
    tips:
      welcome:
        title: Welcome
        rules:
          - opened.count >= 1
      followUp:
        title: Follow up
        ignoresDisplayFrequency: true
        rules:
          - tip(welcome).invalidated and tip(welcome).invalidations.within(1d).count == 0
      newTrail:
        key: { name: trailID, type: int }
        title: A new trail near you
        maxDisplayCount: 2
        rules:
          - trailViewed.where(trailID == key).count >= 3
    """

    static let timeline = """
    start: 2026-03-01T09:00:00Z
    steps:
      - at: +0s
        donate:
          - { event: trailViewed, value: { trailID: 42 } }
          - { event: trailViewed, value: { trailID: 42 } }
          - { event: trailViewed, value: { trailID: 42 } }
          - { event: trailViewed, value: { trailID: 7 } }
          - { event: trailViewed, value: { trailID: 7 } }
          - { event: trailViewed, value: { trailID: 7 } }
      - { at: +0s, expect: { "newTrail[42]": available, "newTrail[7]": available, "newTrail[1]": pending } }
      # The first display of one instance starts the gap; another instance, never displayed,
      # waits for it, while the displayed one may display again.
      - { at: +1m, show: ["newTrail[42]", "newTrail[7]"] }
      - { at: +1m, expect: { "newTrail[42]": { displayCount: 1 }, "newTrail[7]": { displayCount: 0, shouldDisplay: false } } }
      - { at: +2m, show: ["newTrail[42]"] }
      - { at: +2m, expect: { "newTrail[42]": "invalidated(displayCountExceeded)", "newTrail[7]": available } }
      - { at: +1d1m, show: ["newTrail[7]"] }
      - { at: +1d1m, expect: { "newTrail[7]": { displayCount: 1 } } }
      - { at: +1d2m, reset: "newTrail[42]" }
      - { at: +1d2m, expect: { "newTrail[42]": { status: available, displayCount: 0 } } }
      # A day after the welcome tip went away, its follow-up.
      - { at: +2d, donate: opened }
      - { at: +2d, invalidate: { tip: welcome, reason: tipClosed } }
      - { at: +2d, expect: { followUp: pending } }
      - { at: +3d, expect: { followUp: available } }
      - { at: +3d, expect: { "newTrail[x]": pending } }
    """

    @Test func aTimelineNamesInstancesAndReadsTipsRecords() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let timeline = try folder.write("trails.timeline.yaml", Self.timeline)
        let run = Invocation(["simulate", app, "--timeline", timeline])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("show newTrail[7]: not displayed — display frequency"))
        #expect(run.stdout.contains("13 expectations, 1 failed"), "\(run.stdout)")
        #expect(run.stderr.contains("the key of tip 'newTrail' is an Int"), "only the instance with a non-Int key fails: \(run.stderr)")
    }

    @Test func storeAndExplainNameInstances() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let db = folder.path + "/store.sqlite"
        for _ in 0..<3 { _ = Invocation(["store", "--db", db, "--manifest", app, "donate", "trailViewed", "--value", "{\"trailID\": 42}"]) }
        let invalidated = Invocation(["store", "--db", db, "--manifest", app, "invalidate", "newTrail[42]", "--reason", "tipClosed"])
        #expect(invalidated.status == 0, "\(invalidated.stderr)")
        #expect(invalidated.stdout == "newTrail[42]: invalidated(tipClosed)\n")
        let status = Invocation(["store", "--db", db, "--manifest", app, "status"])
        #expect(status.stdout.contains("newTrail[42]  invalidated(tipClosed)"), "\(status.stdout)")
        let export = Invocation(["store", "--db", db, "--manifest", app, "export"])
        #expect(export.stdout.contains("\"newTrail[42]\""), "\(export.stdout)")
        let missing = Invocation(["store", "--db", db, "--manifest", app, "status", "newTrail"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("tip 'newTrail' has an Int key"), "\(missing.stderr)")
        let explained = Invocation(["explain", app, "--db", db, "--tip", "newTrail[7]"])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains("tip newTrail[7]"), "\(explained.stdout)")
        let unknown = Invocation(["explain", app, "--db", db, "--tip", "newTrial[7]"])
        #expect(unknown.stderr.contains("did you mean 'newTrail'"), "\(unknown.stderr)")
        // A key that is not of the tip's key type: the message quotes it and says what was wanted.
        let unreadable = Invocation(["store", "--db", db, "--manifest", app, "status", "newTrail[abc]"])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("'abc' in 'newTrail[abc]' is not an Int: the key of tip 'newTrail' is an Int, e.g. 'newTrail[42]'"),
                "\(unreadable.stderr)")
        // The items of a tip's collections are its invalidations (and displays), not donations.
        _ = Invocation(["store", "--db", db, "--manifest", app, "invalidate", "welcome", "--reason", "tipClosed"])
        let followUp = Invocation(["explain", app, "--db", db, "--tip", "followUp"])
        #expect(followUp.status == 0, "\(followUp.stderr)")
        #expect(followUp.stdout.contains("tip(welcome).invalidations = 1 invalidation\n"), "\(followUp.stdout)")
        #expect(!followUp.stdout.contains("donation"), "\(followUp.stdout)")
    }
}
