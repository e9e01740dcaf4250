import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
@testable import TipcCLI

/// The timeline step `action:` (a tap on a tip's action) in `simulate`: stored as action
/// records; an unknown tip or action is an error at its line.
@Suite("timeline action steps")
struct ActionTimelineTests {
    static let manifest = """
    tipkit: 1
    events:
      opened: {}
    tips:
      favorite:
        title: Favorite it
        actions: [ { id: favorite, title: Favorite }, { id: later, title: Later } ]
        rules:
          - opened.count >= 1
      newTrail:
        key: { name: trailID, type: int }
        title: A new trail
        actions: [ { id: open, title: Open } ]
    """

    @Test func actionStepsAreStoredAsTaps() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let timeline = try folder.write("taps.timeline.yaml", """
            start: 2026-03-01T09:00:00Z
            steps:
              - { at: +0s, donate: opened }
              - { at: +1m, show: favorite }
              - { at: +2m, action: { tip: favorite, id: favorite } }
              - { at: +3m, action: { tip: favorite, id: favorite } }
              - { at: +4m, action: { tip: "newTrail[42]", id: open } }
              - { at: +5m, invalidate: { tip: favorite, reason: tipClosed } }
              - { at: +5m, expect: { favorite: "invalidated(tipClosed)" } }
            """)
        let db = folder.path + "/store.sqlite"
        let run = Invocation(["simulate", app, "--timeline", timeline, "--db", db])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("action favorite favorite"), "\(run.stdout)")
        #expect(run.stdout.contains("action newTrail[42] open"), "\(run.stdout)")
        let taps = try SQLitePersistence(path: db).load().tipRecords.values.compactMap { record -> String? in
            guard case .action(let action) = record.kind else { return nil }
            return "\(TipInstance(tip: record.tip, key: record.key)) \(action) \(ISO8601.string(fromMilliseconds: Int(record.date)))"
        }.sorted()
        #expect(taps == ["favorite favorite 2026-03-01T09:02:00Z", "favorite favorite 2026-03-01T09:03:00Z",
                         "newTrail[42] open 2026-03-01T09:04:00Z"])
    }

    @Test func anUnknownTipOrActionIsAnErrorAtItsLine() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let timeline = try folder.write("taps.timeline.yaml", """
            start: 2026-03-01T09:00:00Z
            steps:
              - { at: +0s, action: { tip: favorite, id: favourite } }
              - { at: +1m, action: { tip: favorit, id: favorite } }
              - { at: +2m, action: { tip: "newTrail[7]", id: close } }
              - { at: +3m, action: { tip: favorite } }
            """)
        let run = Invocation(["simulate", app, "--timeline", timeline])
        #expect(run.status == 1)
        #expect(run.stderr.contains("taps.timeline.yaml:6:"), "a step without an id is refused where it is written: \(run.stderr)")
        #expect(run.stderr.contains("action needs a 'tip' and an 'id'"), "\(run.stderr)")
        let fixed = try folder.write("taps2.timeline.yaml", """
            start: 2026-03-01T09:00:00Z
            steps:
              - { at: +0s, action: { tip: favorite, id: favourite } }
              - { at: +1m, action: { tip: favorit, id: favorite } }
              - { at: +2m, action: { tip: "newTrail[7]", id: close } }
            """)
        let second = Invocation(["simulate", app, "--timeline", fixed])
        #expect(second.status == 1)
        #expect(second.stderr.contains("taps2.timeline.yaml:3:45: error: tip 'favorite' has no action 'favourite'; did you mean 'favorite'?"),
                "\(second.stderr)")
        #expect(second.stderr.contains("taps2.timeline.yaml:4:31: error: no tip named 'favorit'; did you mean 'favorite'?"), "\(second.stderr)")
        #expect(second.stderr.contains("taps2.timeline.yaml:5:50: error: tip 'newTrail' has no action 'close'"), "\(second.stderr)")
    }
}
