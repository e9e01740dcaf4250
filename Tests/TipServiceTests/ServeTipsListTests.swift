import Foundation
import Testing
import TipRuntime
@testable import TipService

/// `GET …/tips` reads each tip's texts by the index it walks, never by a search of the tips
/// table by name (one search per tip made listing n tips quadratic; docs/performance.md has
/// the timing). A pack where two tips share a name tells the two apart: a search by name
/// finds the first for both.
@Suite("tipc serve: listing tips")
struct ServeTipsListTests {
    @Test func eachTipsTextsComeFromItsIndexNotASearchByName() throws {
        let pack = try ServeHandlerTests.pack()
        let center = try TipCenter(pack: pack.prepared, persistence: MemoryPersistence())
        var twins = pack.pack
        twins.tips = [PackTip(name: "same", title: "First"), PackTip(name: "same", title: "Second")]
        let texts = try TipTexts(pack: twins, query: [:], center: center)
        #expect(try texts.content(of: twins.tips[0], index: 0).title == "First")
        #expect(try texts.content(of: twins.tips[1], index: 1).title == "Second")
    }
}
