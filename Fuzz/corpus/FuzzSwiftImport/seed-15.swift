import TipKit

enum Events {
    static let dismissed = "onboarding.dismissed"
    static let opened = "onboarding.opened"
    static var shared: String { "onboarding.shared" }
}

enum EventID: String {
    case finished
    case exported = "onboarding.exported"
}

enum OnboardingEvents {
    static let dismissed = Tips.Event(id: Events.dismissed)
    static let opened = Tips.Event(id: Events.opened)
    static let shared = Tips.Event(id: Events.shared)
    static let finished = Tips.Event(id: EventID.finished.rawValue)
}

extension OnboardingEvents {
    // The same id as `opened`: one event, as in TipKit.
    static let openedAgain = Tips.Event(id: "onboarding.opened")
    static let exported = Tips.Event(id: EventID.exported.rawValue)
}

enum Runtime {
    static let dismissed = Tips.Event(id: UUID().uuidString)
}

enum Other {
    static let dismissed = Tips.Event(id: UUID().uuidString)
}

struct StepOneTip: Tip {
    static let tipID = "step.one"
    var id: String { Self.tipID }
    var title: Text { Text("Step one") }
    var actions: [Action] {
        Action(id: ActionIDs.next, title: "Next")
        Action(id: ActionID.skip.rawValue, title: "Skip")
    }
    var rules: [Rule] {
        #Rule(OnboardingEvents.opened) { $0.donations.count >= 1 }
        #Rule(OnboardingEvents.openedAgain) { $0.donations.count >= 1 }
    }
}

enum ActionIDs { static let next = "next" }
enum ActionID: String { case skip }

struct StepTwoTip: Tip {
    let id = StepTwoTip.identifier
    static let identifier = "step." + "two"
    var title: Text { Text("Step two") }
    var rules: [Rule] {
        #Rule(OnboardingEvents.dismissed) { $0.donations.count >= 1 }
        #Rule(OnboardingEvents.shared) { $0.donations.count >= 1 }
        #Rule(OnboardingEvents.finished) { $0.donations.count >= 1 }
        #Rule(OnboardingEvents.exported) { $0.donations.count >= 1 }
        #Rule(Runtime.dismissed) { $0.donations.count >= 1 }
        #Rule(Other.dismissed) { $0.donations.count >= 1 }
    }
}
