import Testing
@testable import TipcCLI

@Suite struct ColorChoiceTests {
    @Test func autoFollowsTerminalAndEnvironment() {
        #expect(ColorChoice.auto.isEnabled(environment: [:], isTerminal: true))
        #expect(!ColorChoice.auto.isEnabled(environment: [:], isTerminal: false))
        // An empty NO_COLOR does not count (no-color.org); this issue changed it (it used to).
        #expect(ColorChoice.auto.isEnabled(environment: ["NO_COLOR": ""], isTerminal: true))
        #expect(!ColorChoice.auto.isEnabled(environment: ["NO_COLOR": "1"], isTerminal: true))
        #expect(!ColorChoice.auto.isEnabled(environment: ["TERM": "dumb"], isTerminal: true))
        #expect(ColorChoice.auto.isEnabled(environment: ["TERM": "xterm-256color"], isTerminal: true))
        #expect(ColorChoice.always.isEnabled(environment: ["NO_COLOR": "1"], isTerminal: false))
        #expect(!ColorChoice.never.isEnabled(environment: [:], isTerminal: true))
        #expect(ColorChoice.auto.isEnabled(environment: ["FORCE_COLOR": "1"], isTerminal: false))
        #expect(ColorChoice.auto.isEnabled(environment: ["FORCE_COLOR": "1", "NO_COLOR": "1"], isTerminal: false))
        #expect(!ColorChoice.auto.isEnabled(environment: ["FORCE_COLOR": "0"], isTerminal: false))
        #expect(!ColorChoice.auto.isEnabled(environment: ["FORCE_COLOR": ""], isTerminal: false))
        #expect(!ColorChoice.never.isEnabled(environment: ["FORCE_COLOR": "1"], isTerminal: true))
    }
}
