import Testing
@testable import TipcCLI

@Suite struct ColorChoiceTests {
    @Test func autoFollowsTerminalAndEnvironment() {
        #expect(ColorChoice.auto.isEnabled(environment: [:], isTerminal: true))
        #expect(!ColorChoice.auto.isEnabled(environment: [:], isTerminal: false))
        #expect(!ColorChoice.auto.isEnabled(environment: ["NO_COLOR": ""], isTerminal: true))
        #expect(!ColorChoice.auto.isEnabled(environment: ["NO_COLOR": "1"], isTerminal: true))
        #expect(!ColorChoice.auto.isEnabled(environment: ["TERM": "dumb"], isTerminal: true))
        #expect(ColorChoice.auto.isEnabled(environment: ["TERM": "xterm-256color"], isTerminal: true))
        #expect(ColorChoice.always.isEnabled(environment: ["NO_COLOR": "1"], isTerminal: false))
        #expect(!ColorChoice.never.isEnabled(environment: [:], isTerminal: true))
    }
}
