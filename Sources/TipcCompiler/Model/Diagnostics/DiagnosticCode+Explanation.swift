/// The long form of each code, for `tipc codes CODE` and SARIF rules' `fullDescription` and
/// `help`: what it means, how to fix it, and a file that gives it (the tests check that each
/// example does).
extension DiagnosticCode {
    /// What the code means and how to fix it, in a few sentences.
    public var explanation: String {
        switch self {
        case .syntax:
            return "A rule, a `.tips` declaration or a manifest value (a duration, a date, a type) does not parse. The message says what was expected where; fix the text at the position shown."
        case .yaml:
            return "The file is not well-formed YAML, or uses anchors (`&a`), aliases (`*a`) or tags (`!x`), which manifests refuse so that every value is written out where it is used. A rule that starts with `!`, `*`, `&` or a quote must be quoted in YAML, or written with `not`."
        case .duplicateKey:
            return "A YAML mapping repeats a key. YAML parsers usually keep the last value silently; tipc refuses the file so that nothing is dropped by accident. Remove or rename one of the keys."
        case .unknownKey:
            return "The manifest has a key the format does not define, usually a typo (`maxDisplayCont`). The help names the closest key the format has."
        case .missingKey:
            return "A required key is absent: `tipkit` at the top, a tip's `title`, a parameter's `type` and `default`."
        case .invalidValue:
            return "A value has the wrong kind or is out of range: a negative count, a default outside the parameter's `values`, an unknown display frequency, a name with characters names cannot have."
        case .duplicateName:
            return "Two parameters, events, tips or groups share a name (names are global across the files of one program), or two actions of one tip share an id. Rename one of them."
        case .unknownParameter:
            return "A rule reads `$name`, but no parameter has that name. The help suggests a close one when there is one."
        case .unknownEvent:
            return "A rule counts donations of an event that is not declared. Declare it under `events`, or fix the name."
        case .unknownField:
            return "A `where`, `largestSubset`, `smallestSubset` or `distinct` names a field the event's payload does not have."
        case .unknownTip:
            return "A group or an experiment names a tip that is not declared, or a rule reads `tip(X)` of a tip that is not declared. The help suggests a close name when there is one."
        case .typeMismatch:
            return "An operator is given operands it does not take (an Int compared with a String, `and` over a number), or a rule is not a Bool. The message names both types."
        case .invalidDuration:
            return "A duration that cannot be used: months and years (their length varies), a window of zero, or one too large to represent."
        case .unsatisfiable:
            return "The tip can never display: its rules contradict each other (`a.count >= 3` and `a.count < 2`), or compare a parameter with a value outside its `values`. Often a typo in a threshold."
        case .alwaysTrue:
            return "A rule holds whatever the state (`a.count >= 0`), so it says nothing. Remove it, or fix the threshold."
        case .unused:
            return "A parameter or an event that no rule reads. The app may still set or donate it, but no tip depends on it; remove it or write the rule that should use it."
        case .unknownFunction:
            return "A call of a function the rule language does not have (`count(e)` where `e.count` is meant). The only function is `date(\"…\")`; collections have members (`count`, `within`, `where`, …)."
        case .limit:
            return "An input exceeds a documented size limit (file size, nesting depth, rule length; see docs/limits.md). Such input is refused early rather than read without bound."
        case .io:
            return "An input could not be read: a missing path, a folder without manifests, permissions. The other inputs are still checked and reported; the exit status is 2."
        case .tipkitUnsupported:
            return "`tipc generate tipkit` was asked to write something TipKit cannot say at the chosen `--minimum-os`: a rule that reads two parameters or events outside a top-level `and` (a `#Rule` reads one), `now`, dates, `in`, `distinct` or other tips, a window that is not whole minutes, a donation limit other than the 1,000 newest before iOS 26, tip groups or `maxDisplayDuration` before iOS 18. Nothing is dropped or changed: rewrite the rule, or raise the minimum OS. No file shows it through `tipc check`."
        case .importApproximated:
            return "Swift read by `tipc import` or `tipc check` uses a TipKit construct that a manifest cannot hold: text built at run time, an action without an id, a rule closure the rule language has no form for, `#if` variants, a parameter of an enum type. The manifest holds the closest literal (or leaves the part out) with a comment saying what was left out; the warning points at the Swift text. See docs/tipkit-bridge.md for what is read exactly."
        case .unusedSuppression:
            return "A `tipc-disable-next-line`, `tipc-disable-line` or `tipc-disable-file` comment names a code that is not reported where it points (the problem was fixed, or the comment is on the wrong line). Remove the code from the comment, so that suppressions do not pile up and hide the next real finding."
        case .invalidLocale:
            return "A text's locale, or `defaultLocale`, is not a well-formed BCP 47 language tag: a language (`de`), optionally a script (`zh-Hans`), a region (`de-CH`, `es-419`) and further subtags, separated by hyphens. Apple's identifiers with an underscore (`de_CH`) are written with a hyphen."
        case .unknownLocale:
            return "A text's locale, or `defaultLocale`, is well-formed but its two-letter language is not an ISO 639-1 language, so no device would ever ask for it. Country codes are the usual slip: Japanese is `ja` (not `jp`), Chinese `zh` (not `cn`), Danish `da`, Greek `el`, Czech `cs`, Ukrainian `uk`; a region follows the language (`ja-JP`). Languages of three letters are not checked."
        case .missingLocale:
            return "A text written per locale lacks the default locale (`defaultLocale`), which the runtime shows when no locale matches the one asked for. Add the text in the default locale."
        case .placeholderMismatch:
            return "The locales of one text use different placeholders or parameters (`{name}`, `{$p}`): the app passes the same values whatever the locale, so every translation must use each of them. Add the missing one to the translation, or remove it from the others."
        case .unknownPlaceholder:
            return "A text reads `{name}`, but the tip declares no placeholder of that name under `placeholders`. Declare it (`placeholders: { name: string }`), fix the name, write `{$name}` for a parameter, or `{{`/`}}` for literal braces."
        case .unbalancedBrace:
            return "A text has a `{` that is not closed, a `}` that was not opened, or braces around something that is not a name (`{ x }`). In texts `{name}` is a placeholder and `{$p}` a parameter's value; write `{{` and `}}` for literal braces."
        case .unusedPlaceholder:
            return "The tip declares a placeholder that none of its texts uses, so the app would pass a value for nothing. Use it as `{name}` in a text, or remove it."
        case .invalidSuppression:
            return "A suppression comment names no code, an unknown code (a typo: the help suggests the closest), or a code that cannot be suppressed (`syntax`, `yaml`, `limit`, `io`: the file must be readable). Write `# tipc-disable-next-line CODE` in YAML or `// tipc-disable-line CODE` in `.tips`; `tipc codes` lists the codes."
        case .keyedGroupMember:
            return "A group lists a tip that declares a `key`. Each key value of such a tip is its own instance, and a group orders tips, not instances; remove the tip from the group, or its key."
        case .missingTipKey:
            return "A rule reads `tip(X)` of a tip that declares a key, so it must say which instance: `tip(X, key)` inside a keyed tip with the same key type, or `tip(X, 42)` with a literal of the key's type."
        case .unexpectedTipKey:
            return "A rule reads `tip(X, …)` with a key, but tip X declares none: there is only one of it. Write `tip(X)`."
        case .unknownGoalEvent:
            return "A tip's or an experiment's `goal: EVENT within DURATION` names an event that is not declared, so no donation could ever count as the tip having worked (or a user as converted). Declare the event under `events`, or fix the name; the help suggests a close one when there is one."
        case .zeroTotalWeight:
            return "Users are divided among an experiment's arms in proportion to their weights; when every weight is 0 there is nothing to divide, and no user could be assigned. Give at least one arm a positive weight (an arm of weight 0 gets no users, which is how an arm is switched off)."
        case .armPlaceholderMismatch:
            return "An arm replaces a tip's text (title, message or an action's title) with one that reads other placeholders or parameters (`{name}`, `{$p}`) than the text it replaces. The app passes the tip's values whatever the arm, so a text that drops one or reads another shows something else than the app means. Use the same placeholders and parameters as the tip's text."
        case .hiddenBaseline:
            return "The first arm of an experiment is its baseline: the report compares every other arm with it. A hidden arm never shows the tip, so as the baseline every arm would be judged against showing nothing. Put an arm that shows the tip first (usually the tip as declared, with no overrides); a holdout goes later."
        case .tipInSeveralExperiments:
            return "A tip is in at most one experiment: with two, a user would be in an arm of each and it would be unclear which texts to show and which experiment a conversion belongs to. Merge the experiments into one with more arms, or remove one."
        }
    }

    /// A manifest with one tip and an experiment on it with `arms` (block lines at depth 3).
    private static func experimentExample(arms: String) -> String {
        "tipkit: 1\nevents:\n  favorited: {}\ntips:\n  favorite:\n    title: Save as a favorite\nexperiments:\n  copy:\n    tip: favorite\n    arms:\n\(arms)    goal: favorited within 7d\n"
    }

    /// A small file that gives this code, as (file name, text); nil where no file shows it
    /// (`io`, `limit`).
    public var example: (file: String, text: String)? {
        switch self {
        case .syntax: return ("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count >=\n}\n")
        case .yaml: return ("app.yaml", "tipkit: 1\nparameters:\n  a: &x { type: bool, default: false }\n  b: *x\n")
        case .duplicateKey: return ("app.yaml", "tipkit: 1\ntips:\n  t:\n    title: One\n    title: Two\n")
        case .unknownKey: return ("app.yaml", "tipkit: 1\ntips:\n  t:\n    title: T\n    maxDisplayCont: 3\n")
        case .missingKey: return ("app.yaml", "tipkit: 1\ntips:\n  t:\n    message: no title\n")
        case .invalidValue: return ("app.yaml", "tipkit: 1\ntips:\n  t:\n    title: T\n    maxDisplayCount: -1\n")
        case .duplicateName: return ("app.tips", "tipkit 1\nevent opened\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count > 0\n}\n")
        case .unknownParameter: return ("app.tips", "tipkit 1\nparam isSignedIn: Bool = false\ntip t {\n  title \"T\"\n  rule $isSignedOn\n}\n")
        case .unknownEvent: return ("app.tips", "tipkit 1\nevent searchPerformed\ntip t {\n  title \"T\"\n  rule serchPerformed.count >= 3\n}\n")
        case .unknownField: return ("app.tips", "tipkit 1\nevent viewed { itemID: Int }\ntip t {\n  title \"T\"\n  rule viewed.where(itemId == 3).count > 0\n}\n")
        case .unknownTip: return ("app.tips", "tipkit 1\ntip welcome {\n  title \"Hi\"\n}\ngroup onboarding ordered { welcome, wellcome }\n")
        case .typeMismatch: return ("app.tips", "tipkit 1\nparam plan: String = \"free\"\ntip t {\n  title \"T\"\n  rule $plan > 3\n}\n")
        case .invalidDuration: return ("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count > 0 within 1y\n}\n")
        case .unsatisfiable: return ("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count >= 3\n  rule opened.count < 2\n}\n")
        case .alwaysTrue: return ("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count >= 0\n}\n")
        case .unused: return ("app.tips", "tipkit 1\nevent opened\nparam beta: Bool = false\ntip t {\n  title \"T\"\n  rule opened.count > 0\n}\n")
        case .unknownFunction: return ("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule count(opened) > 3\n}\n")
        case .importApproximated: return ("Tips.swift", "import TipKit\n\nstruct GreetingTip: Tip {\n    var name = \"friend\"\n    var title: Text { Text(\"Hello, \\(name)\") }\n}\n")
        case .unusedSuppression: return ("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count > 0 // tipc-disable-line always-true\n}\n")
        case .invalidSuppression: return ("app.yaml", "tipkit: 1\nevents:\n  opened: {}  # tipc-disable-line unsued\n")
        case .invalidLocale: return ("app.yaml", "tipkit: 1\ndefaultLocale: en\ntips:\n  t:\n    title: { en: Hello, de_DE: Hallo }\n")
        case .unknownLocale: return ("app.yaml", "tipkit: 1\ndefaultLocale: en\ntips:\n  t:\n    title: { en: Hello, jp: こんにちは }\n")
        case .missingLocale: return ("app.yaml", "tipkit: 1\ndefaultLocale: en\ntips:\n  t:\n    title: { de: Hallo, fr: Bonjour }\n")
        case .placeholderMismatch: return ("app.yaml", "tipkit: 1\ndefaultLocale: en\ntips:\n  t:\n    title: { en: \"Hello, {name}\", de: Hallo }\n    placeholders: { name: string }\n")
        case .unknownPlaceholder: return ("app.yaml", "tipkit: 1\ntips:\n  t:\n    title: \"Press {shortcut} to search\"\n    placeholders: { shortcat: string }\n")
        case .unbalancedBrace: return ("app.yaml", "tipkit: 1\ntips:\n  t:\n    title: \"Use {braces to group\"\n")
        case .unusedPlaceholder: return ("app.yaml", "tipkit: 1\ntips:\n  t:\n    title: Search faster\n    placeholders: { shortcut: string }\n")
        case .keyedGroupMember: return ("app.tips", "tipkit 1\ntip welcome {\n  title \"Hi\"\n}\ntip newTrail[trailID: Int] {\n  title \"A new trail\"\n}\ngroup onboarding ordered { welcome, newTrail }\n")
        case .missingTipKey: return ("app.tips", "tipkit 1\ntip newTrail[trailID: Int] {\n  title \"A new trail\"\n}\ntip t {\n  title \"T\"\n  rule tip(newTrail).invalidated\n}\n")
        case .unexpectedTipKey: return ("app.tips", "tipkit 1\ntip welcome {\n  title \"Hi\"\n}\ntip t {\n  title \"T\"\n  rule tip(welcome, 3).invalidated\n}\n")
        case .zeroTotalWeight: return ("app.yaml", Self.experimentExample(arms: "      control: { weight: 0 }\n      short: { weight: 0, title: Star it }\n"))
        case .armPlaceholderMismatch:
            return ("app.yaml", "tipkit: 1\nevents:\n  favorited: {}\ntips:\n  favorite:\n    title: \"Save {trail} as a favorite\"\n    placeholders: { trail: string }\nexperiments:\n  copy:\n    tip: favorite\n    arms:\n      control: { weight: 1 }\n      short: { weight: 1, title: Star it }\n    goal: favorited within 7d\n")
        case .hiddenBaseline: return ("app.yaml", Self.experimentExample(arms: "      holdout: { weight: 10, hidden: true }\n      control: { weight: 90 }\n"))
        case .tipInSeveralExperiments:
            return ("app.tips", "tipkit 1\nevent favorited\ntip favorite {\n  title \"Save as a favorite\"\n}\nexperiment copy on favorite {\n  arm control 1\n  goal favorited within 7d\n}\nexperiment copy2 on favorite {\n  arm control 1\n  goal favorited within 7d\n}\n")
        case .unknownGoalEvent: return ("app.yaml", "tipkit: 1\nevents:\n  backyardFavorited: {}\ntips:\n  favoriteBackyard:\n    title: Save as a favorite\n    goal: backyardFavourited within 7d\n")
        case .limit, .io, .tipkitUnsupported: return nil
        }
    }
}
