/// How an experiment divides its users among its arms: deterministic, so that every device
/// and the service put a user in the same arm without asking each other, and portable, so that
/// any other client can do the same (docs/experiments.md describes the algorithm and gives
/// vectors to test against).
///
/// A unit (a user or account id) hashes with the salt to a bucket in `0..<10_000`; the arms,
/// in declared order, own consecutive ranges of buckets in proportion to their weights.
/// Changing the weights moves only the units near the ranges' edges; changing the salt
/// re-buckets everyone.
///
/// ```swift
/// let copy = try ExperimentAssignment(salt: "favoriteCopy-1",
///                                     arms: [("control", 45), ("short", 45), ("holdout", 10)])
/// let arm = copy.arm(for: accountID).name
/// ```
public struct ExperimentAssignment: Sendable, Equatable {
    /// One arm: its name and its weight (its share of the buckets is weight / total weight).
    public struct Arm: Sendable, Hashable {
        /// The arm's name, unique in the experiment.
        public let name: String
        /// The arm's weight (0: no units).
        public let weight: Int
    }

    /// How many buckets units hash to.
    public static let bucketCount = 10_000

    /// The salt: the experiment's name unless the experiment names another.
    public let salt: String
    /// The arms in declared order.
    public let arms: [Arm]
    /// Where each arm's buckets end (exclusive); arm `i` starts where arm `i − 1` ends.
    private let upperBounds: [Int]
    /// The salt's UTF-8 bytes and the 0x00 that separates them from the unit's.
    private let saltPrefix: [UInt8]

    /// An assignment over `arms`, in order. Weights are non-negative and add up to more than
    /// zero; an arm of weight zero gets no units. Arm names are unique.
    public init(salt: String, arms: [(name: String, weight: Int)]) throws(ExperimentAssignmentError) {
        guard !arms.isEmpty else { throw .noArms }
        var names = Set<String>()
        var total = 0
        for arm in arms {
            guard names.insert(arm.name).inserted else { throw .duplicateArm(arm.name) }
            guard arm.weight >= 0 else { throw .negativeWeight(arm: arm.name, weight: arm.weight) }
            let (sum, overflow) = total.addingReportingOverflow(arm.weight)
            guard !overflow else { throw .totalWeightTooLarge }
            total = sum
        }
        guard total > 0 else { throw .zeroTotalWeight }
        var upperBounds: [Int] = []
        var cumulative = 0
        for arm in arms {
            cumulative += arm.weight
            // ⌊10,000 · cumulative / total⌋ without overflow: the product is taken in 128 bits.
            let product = cumulative.multipliedFullWidth(by: Self.bucketCount)
            upperBounds.append(total.dividingFullWidth(product).quotient)
        }
        self.salt = salt
        self.arms = arms.map { Arm(name: $0.name, weight: $0.weight) }
        self.upperBounds = upperBounds
        saltPrefix = Array(salt.utf8) + [0]
    }

    /// The arm `unit` is in.
    public func arm(for unit: String) -> Arm {
        arms[armIndex(forBucket: bucket(for: unit))]
    }

    /// The bucket `unit` hashes to, in `0..<10_000`: the first 8 bytes of
    /// SHA-256(UTF-8(salt) ‖ 0x00 ‖ UTF-8(unit)) as a big-endian integer, modulo 10,000.
    public func bucket(for unit: String) -> Int {
        var unit = unit
        return unit.withUTF8 { unitBytes in
            withUnsafeTemporaryAllocation(byteCount: saltPrefix.count + unitBytes.count, alignment: 1) { message in
                saltPrefix.withUnsafeBytes { message.copyMemory(from: $0) }
                if unitBytes.count > 0 {
                    UnsafeMutableRawBufferPointer(rebasing: message[saltPrefix.count...]).copyMemory(from: UnsafeRawBufferPointer(unitBytes))
                }
                let words = SHA256.words(UnsafeRawBufferPointer(message))
                let prefix = UInt64(words[0]) << 32 | UInt64(words[1])
                return Int(prefix % UInt64(Self.bucketCount))
            }
        }
    }

    /// The buckets the arm at `index` (a valid index of `arms`) owns: empty for an arm of weight zero.
    public func buckets(ofArm index: Int) -> Range<Int> {
        (index == 0 ? 0 : upperBounds[index - 1])..<upperBounds[index]
    }

    /// The index of the arm that owns `bucket`: the first whose range ends after it.
    func armIndex(forBucket bucket: Int) -> Int {
        // A handful of arms: a scan beats a search.
        var index = 0
        while upperBounds[index] <= bucket { index += 1 }
        return index
    }
}

/// Why arms cannot make an experiment.
public enum ExperimentAssignmentError: Error, Equatable, CustomStringConvertible {
    /// No arm was given.
    case noArms
    /// Two arms have this name.
    case duplicateArm(String)
    /// An arm's weight is below zero.
    case negativeWeight(arm: String, weight: Int)
    /// The weights add up to zero, so no arm could have a unit.
    case zeroTotalWeight
    /// The weights add up to more than an `Int` holds.
    case totalWeightTooLarge

    public var description: String {
        switch self {
        case .noArms: "an experiment needs at least one arm"
        case .duplicateArm(let name): "the arm '\(name)' is declared twice"
        case .negativeWeight(let arm, let weight): "the arm '\(arm)' has the weight \(weight); weights are zero or more"
        case .zeroTotalWeight: "the arms' weights add up to 0; at least one arm needs a positive weight"
        case .totalWeightTooLarge: "the arms' weights add up to more than \(Int.max)"
        }
    }
}
