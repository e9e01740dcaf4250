import Foundation
import TipRuntime

// The pack the plugin compiled from Tips/ is a resource of this target; `AppTips` is the
// accessors it generated from the same files.
guard let url = Bundle.module.url(forResource: "Tips", withExtension: "tippack") else {
    fatalError("Tips.tippack is not among the resources")
}
let clock = ManualClock(now: Date(timeIntervalSince1970: 1_780_000_000))
let center = try TipCenter(pack: try RulePackLoader.load(contentsOf: url), persistence: MemoryPersistence(), clock: clock)
let tips = try AppTips(center: center)

try tips.parameters.isSignedIn.set(true)
try tips.events.trailViewed.donate(trailID: 7)
clock.advance(by: 60)
try tips.events.trailViewed.donate(trailID: 8)
let maps = tips.tips.offlineMaps
print("shouldDisplay: \(maps.shouldDisplay)")
// The tip is on screen for 3.5 s of the manual clock; the runtime measures it.
let shown = try maps.beginDisplay()
clock.advance(by: 3.5)
try shown.end()
print("displayCount: \(maps.displayCount), displayDuration: \(maps.displayDuration) s")
print("title: \(try maps.content(locale: Locale(identifier: "en")).title)")
