#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A tip on screen, from the moment the UI shows it until it goes away: what a SwiftUI or UIKit
/// wrapper holds while the tip is visible. `TipCenter.beginDisplay(of:key:)` records the display
/// when it makes one; `end()` (or `close()`, or `end(invalidating:)`) records the time on screen,
/// measured on the center's clock, so the UI never measures durations itself.
///
/// Ending is once: after one that returned, later `end`/`close` calls do nothing (one that threw
/// may be retried, and records only what is missing). A presentation dropped without being
/// ended keeps its display but records no time on screen.
public final class TipPresentation: Sendable {
    /// The tip on screen.
    public let tip: String
    /// The instance's key, for a keyed tip (nil for any other).
    public let key: TipKey?
    /// When the tip appeared, on the center's clock.
    public var began: Date { Date(millisecondsSince1970: beganMilliseconds) }
    let beganMilliseconds: Int64
    private let center: TipCenter
    /// What has been recorded of the ending: the time on screen, then (for a close) the
    /// invalidation. Each step is recorded once, so a retried `close()` after a failure records
    /// only what is missing.
    private struct Ending {
        var durationRecorded = false
        var isEnded = false
    }

    private let ending = RuntimeLock(Ending())

    init(center: TipCenter, tip: String, key: TipKey?, began: Int64) {
        self.center = center
        self.tip = tip
        self.key = key
        beganMilliseconds = began
    }

    /// Whether `end`, `close` or `end(invalidating:)` has returned without an error.
    public var isEnded: Bool { ending.withLock { $0.isEnded } }

    /// The user tapped the tip's action `action` (an id the tip declares): recorded for analytics.
    /// It does not end the presentation; an action that makes the tip pointless ends it with
    /// `end(invalidating: .actionPerformed)`.
    public func recordAction(_ action: String) throws(TipError) {
        try center.recordAction(tip, action: action, key: key)
    }

    /// The tip went away: records its time on screen.
    public func end() throws(TipError) {
        try end(invalidating: nil)
    }

    /// The user closed the tip (its close button): records its time on screen and invalidates it
    /// with the reason `tipClosed`, as TipKit's close button does.
    public func close() throws(TipError) {
        try end(invalidating: .tipClosed)
    }

    /// The tip went away and no longer applies: records its time on screen, then invalidates it
    /// with `reason` (nil: only the time).
    public func end(invalidating reason: InvalidationReason?) throws(TipError) {
        try ending.withLock { (ending: inout Ending) throws(TipError) in
            guard !ending.isEnded else { return }
            if !ending.durationRecorded {
                let milliseconds = max(0, center.clock.milliseconds().addingSaturating(-beganMilliseconds))
                if milliseconds > 0 {
                    try center.recordDisplayDuration(tip, key: key, milliseconds: milliseconds)
                }
                ending.durationRecorded = true
            }
            if let reason { try center.invalidate(tip, key: key, reason: reason) }
            ending.isEnded = true
        }
    }
}

extension TipCenter {
    /// The UI shows the tip now: records one display (which counts towards `maxDisplayCount`) and
    /// returns the presentation to end when the tip goes away, so that its time on screen is
    /// recorded too (and counts towards `maxDisplayDuration`).
    ///
    /// ```swift
    /// let shown = try center.beginDisplay(of: "favoriteBackyard")
    /// // … the tip is on screen …
    /// try shown.end()            // or shown.close(), or shown.recordAction("favorite")
    /// ```
    public func beginDisplay(of tip: String, key: TipKey? = nil) throws(TipError) -> TipPresentation {
        let began = clock.milliseconds()
        try recordDisplay(tip, key: key, milliseconds: 0)
        return TipPresentation(center: self, tip: tip, key: key, began: began)
    }
}
