/// A `WHERE` predicate of the form `field cmp value`, where the field is an Int, Date or
/// Duration and the value is the same for every donation (a constant, a parameter, the
/// instance's key): `LOAD_FIELD f; PUSH_INT k | LOAD_PARAM p | LOAD_KEY; CMP_INT c; RETURN` or
/// `LOAD_FIELD f; CMP_INT_K c k; RETURN`. Such a predicate cannot fail, so a filter by it
/// compares slots in one loop instead of running the block per donation
/// (`trailViewed.where(trailID == key)`).
struct FieldTest {
    let field: Int
    let comparison: ComparisonCode
    let value: Int64

    /// Where a field test's value comes from.
    enum Operand {
        case constant(Int64)
        case parameter(Int)
        case key
    }

    /// The parts of the predicate block starting at `start` of verified `code` when it is a
    /// field test; nil for any other predicate.
    @inline(__always)
    static func shape(_ code: UnsafeBufferPointer<UInt32>, at start: Int) -> (field: Int, comparison: ComparisonCode, operand: Operand)? {
        guard UInt8(truncatingIfNeeded: code[start]) == Opcode.loadField.rawValue else { return nil }
        let field = Int(code[start] >> 8)
        let second = code[start &+ 1]
        let operand: Operand, compare: Int
        switch UInt8(truncatingIfNeeded: second) {
        case Opcode.compareIntImmediate.rawValue:
            guard UInt8(truncatingIfNeeded: code[start &+ 4]) == Opcode.ret.rawValue else { return nil }
            return (field, ComparisonCode(verified: Int(second >> 8)), .constant(Instruction.immediate(code[start &+ 2], code[start &+ 3])))
        case Opcode.pushInt.rawValue, Opcode.pushDate.rawValue, Opcode.pushDuration.rawValue:
            (operand, compare) = (.constant(Instruction.immediate(code[start &+ 2], code[start &+ 3])), start &+ 4)
        case Opcode.loadParameter.rawValue:
            (operand, compare) = (.parameter(Int(second >> 8)), start &+ 2)
        case Opcode.loadKey.rawValue:
            (operand, compare) = (.key, start &+ 2)
        default:
            return nil
        }
        // CMP_INT over two slots the verifier proved Ints, Dates or Durations alike.
        guard UInt8(truncatingIfNeeded: code[compare]) == Opcode.compareInt.rawValue,
              UInt8(truncatingIfNeeded: code[compare &+ 1]) == Opcode.ret.rawValue else { return nil }
        return (field, ComparisonCode(verified: Int(code[compare] >> 8)), operand)
    }

    /// The field test of the predicate block at `start` of verified `code`, its value read from
    /// the parameters or the instance's key slot; nil for any other predicate.
    @inline(__always)
    init?(_ code: UnsafeBufferPointer<UInt32>, at start: Int, parameterSlots: UnsafeBufferPointer<Int64>, keySlot: Int64) {
        guard let (field, comparison, operand) = Self.shape(code, at: start) else { return nil }
        self.field = field
        self.comparison = comparison
        switch operand {
        case .constant(let constant): value = constant
        case .parameter(let index): value = parameterSlots[index]
        case .key: value = keySlot
        }
    }

    /// How many of the slots in `range` pass the test (one loop per comparison, with no branch
    /// on the data).
    @inline(__always)
    func count(_ range: Range<Int>, of slots: UnsafeBufferPointer<Int64>) -> Int {
        let window = UnsafeBufferPointer(rebasing: slots[range]), value = self.value
        @inline(__always)
        func count(_ passes: (Int64) -> Bool) -> Int {
            var count = 0
            for slot in window { count &+= passes(slot) ? 1 : 0 }
            return count
        }
        switch comparison {
        case .equal: return count { $0 == value }
        case .notEqual: return count { $0 != value }
        case .less: return count { $0 < value }
        case .lessOrEqual: return count { $0 <= value }
        case .greater: return count { $0 > value }
        case .greaterOrEqual: return count { $0 >= value }
        }
    }
}
