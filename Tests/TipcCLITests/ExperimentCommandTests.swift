import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
@testable import TipcCLI

/// Experiments in the commands that run a user's runtime: `simulate` records displays with
/// the arm and a hidden arm's exposure, `explain` names the arm; `--unit` says who is assigned.
/// Under salt `favoriteCopy-1` (weights 45/45/10) `user-1` is in `short` and `user-32` in
/// `holdout` (docs/experiments.md, golden vectors).
@Suite("experiments in simulate and explain")
struct ExperimentCommandTests {
    static let manifest = """
    tipkit: 1
    events:
      backyardViewed: {}
      backyardFavorited: {}
    tips:
      favoriteBackyard:
        title: Save as a favorite
        message: Favorites appear at the top of the list.
        actions: [ { id: favorite, title: Favorite it } ]
        rules:
          - backyardViewed.count >= 1
    experiments:
      favoriteCopy:
        tip: favoriteBackyard
        arms:
          control: { weight: 45 }
          short:
            weight: 45
            title: Star it
            actions: [ { id: star, title: Star } ]
          holdout: { weight: 10, hidden: true }
        goal: backyardFavorited within 7d
        salt: favoriteCopy-1
    """

    static let timeline = """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +0s, donate: backyardViewed }
          - { at: +1m, show: favoriteBackyard }
          - { at: +2m, show: favoriteBackyard }
        """

    @Test func simulateRecordsDisplaysWithTheArmAndAHiddenArmsOneExposure() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let timeline = try folder.write("copy.timeline.yaml", Self.timeline + "\n  - { at: +3m, action: { tip: favoriteBackyard, id: star } }\n")
        let db = folder.path + "/short.sqlite"
        let short = Invocation(["simulate", app, "--timeline", timeline, "--db", db, "--unit", "user-1"])
        #expect(short.status == 0, "\(short.stdout)\(short.stderr)")
        #expect(short.stdout.contains("show favoriteBackyard: displayed (display 1, arm short)"), "\(short.stdout)")
        let stored = try SQLitePersistence(path: db).load()
        #expect(stored.tipRecords.values.filter { if case .display = $0.kind { return true } else { return false } }.map(\.arm) == ["short", "short"])
        #expect(stored.assignment(experiment: "favoriteCopy", salt: "favoriteCopy-1")?.arm == "short")

        let holdoutTimeline = try folder.write("holdout.timeline.yaml", Self.timeline)
        let hiddenDB = folder.path + "/holdout.sqlite"
        let holdout = Invocation(["simulate", app, "--timeline", holdoutTimeline, "--db", hiddenDB, "--unit", "user-32"])
        #expect(holdout.status == 0, "\(holdout.stdout)\(holdout.stderr)")
        #expect(holdout.stdout.contains("show favoriteBackyard: not displayed — hidden arm 'holdout' of experiment 'favoriteCopy': never displayed"),
                "\(holdout.stdout)")
        let exposures = try SQLitePersistence(path: hiddenDB).load().tipRecords.values.filter { $0.kind == .exposure(experiment: "favoriteCopy") }
        #expect(exposures.map(\.arm) == ["holdout"])
        #expect(exposures.first.map { ISO8601.string(fromMilliseconds: Int($0.date)) } == "2026-03-01T09:01:00Z")
    }

    @Test func explainNamesTheExperimentAndTheArmInTextAndJSONAndStoresNothing() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let db = folder.path + "/store.sqlite"
        let run = Invocation(["store", "--db", db, "--manifest", app, "donate", "backyardViewed"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let text = Invocation(["explain", app, "--db", db, "--tip", "favoriteBackyard", "--unit", "user-32", "--locale", "en"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("  experiment: favoriteCopy, arm holdout (hidden: never displayed) (not assigned yet: the arm the unit hashes to)"),
                "\(text.stdout)")
        #expect(text.stdout.contains("should display: false — hidden arm 'holdout'"), "\(text.stdout)")
        let json = Invocation(["explain", app, "--db", db, "--tip", "favoriteBackyard", "--unit", "user-1", "--locale", "en", "--format", "json"])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        #expect(json.stdout.contains(#""experiment" : {"#) || json.stdout.contains(#""experiment": {"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""arm""#) && json.stdout.contains(#""short""#), "\(json.stdout)")
        #expect(json.stdout.contains("Star it"), "the arm's texts: \(json.stdout)")
        #expect(try SQLitePersistence(path: db).load().assignments.isEmpty, "explaining stores no assignment")
    }

    @Test func aTimelineNamesItsUnitAndTheOptionOverridesIt() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let timeline = try folder.write("user.timeline.yaml", Self.timeline.replacingOccurrences(of: "steps:", with: "unit: user-32\nsteps:"))
        let named = Invocation(["simulate", app, "--timeline", timeline])
        #expect(named.status == 0 && named.stdout.contains("hidden arm 'holdout'"), "\(named.stdout)\(named.stderr)")
        let overridden = Invocation(["simulate", app, "--timeline", timeline, "--unit", "user-1"])
        #expect(overridden.status == 0 && overridden.stdout.contains("arm short"), "\(overridden.stdout)\(overridden.stderr)")
        let empty = try folder.write("empty.timeline.yaml", Self.timeline.replacingOccurrences(of: "steps:", with: "unit: \"\"\nsteps:"))
        let refused = Invocation(["simulate", app, "--timeline", empty])
        #expect(refused.status == 1 && refused.stderr.contains("'unit' cannot be empty"), "\(refused.stderr)")
    }

    /// The hiking example's copy experiment: its timeline's hiker sees the arm `beforeYouGo`,
    /// taps its button and downloads the map (the goal), all on the store.
    @Test func theHikingExampleRunsItsCopyExperiment() throws {
        let folder = try TemporaryFolder()
        let app = repositoryRoot + "/Examples/hiking"
        let db = folder.path + "/hiking.sqlite"
        let run = Invocation(["simulate", app, "--timeline", app + "/hiking.timeline.yaml", "--db", db])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("show offlineMaps: displayed (display 1, arm beforeYouGo)"), "\(run.stdout)")
        let stored = try SQLitePersistence(path: db).load()
        #expect(stored.assignment(experiment: "offlineMapsCopy", salt: "offlineMapsCopy")?.arm == "beforeYouGo")
        let maps = stored.tipRecords.values.filter { $0.tip == "offlineMaps" }
        #expect(maps.contains { $0.kind == .action("download") } && maps.contains { $0.arm == "beforeYouGo" })
        #expect(stored.donations.values.contains { $0.event == "mapDownloaded" })
        let texts = Invocation(["explain", app, "--db", db, "--tip", "offlineMaps", "--locale", "de-CH"])
        #expect(texts.stdout.contains("title: Kein Empfang unterwegs"), "\(texts.stdout)\(texts.stderr)")
    }

    @Test func storeStatusStoresNoAssignmentOrExposure() throws {
        let folder = try TemporaryFolder()
        let app = try folder.write("app/app.yaml", Self.manifest)
        let db = folder.path + "/store.sqlite"
        #expect(Invocation(["store", "--db", db, "--manifest", app, "donate", "backyardViewed"]).status == 0)
        let status = Invocation(["store", "--db", db, "--manifest", app, "status"])
        #expect(status.status == 0 && status.stdout.contains("favoriteBackyard  available"), "\(status.stdout)\(status.stderr)")
        let stored = try SQLitePersistence(path: db).load()
        #expect(stored.assignments.isEmpty && stored.tipRecords.isEmpty)
    }
}
