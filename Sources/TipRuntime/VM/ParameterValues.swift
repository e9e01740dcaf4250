/// The current values of a pack's parameters, type-checked on assignment and kept in the VM's
/// slot form so an evaluation reads them without conversion.
package struct ParameterValues: Sendable, Hashable {
    /// Declared types, by parameter index.
    package let types: [ValueType]
    package private(set) var values: [RuntimeValue]
    /// Slot form (String parameters: a reference to `values`).
    private(set) var slots: [Int64]

    /// Every parameter at its default.
    package init(pack: RulePack) {
        types = pack.parameters.map(\.type)
        values = pack.parameters.map(\.defaultValue)
        slots = []
        slots = values.indices.map { slot(for: $0) }
    }

    /// Why a parameter assignment was refused.
    package enum AssignmentError: Error, Sendable, Hashable {
        case unknownParameter(Int)
        case wrongType(parameter: Int, expected: ValueType, actual: ValueType)
    }

    /// Sets parameter `index`; a value of the wrong type is refused and changes nothing.
    package mutating func set(_ index: Int, to value: RuntimeValue) throws(AssignmentError) {
        guard types.indices.contains(index) else { throw .unknownParameter(index) }
        guard value.type == types[index] else { throw .wrongType(parameter: index, expected: types[index], actual: value.type) }
        values[index] = value
        slots[index] = slot(for: index)
    }

    private func slot(for index: Int) -> Int64 {
        ValueSlot.slot(values[index]) { _ in StringReference.parameter(index) }
    }
}

/// How a String value is held in a 64-bit slot: a reference to where the text lives.
/// Bits 62–63 select the source: 0 the pack's string table, 1 a parameter, 2 a payload column
/// (bits 42–61 event, 32–41 field); the low 32 bits are the index or the string code.
enum StringReference {
    static func constant(_ index: Int) -> Int64 { Int64(index) }
    static func parameter(_ index: Int) -> Int64 { 1 << 62 | Int64(index) }
    /// The String key of the instance being evaluated (no parameter has this index).
    static let instanceKey: Int64 = 1 << 62 | 0xFFFF_FFFF
    static func field(event: Int, field: Int, code: Int64) -> Int64 {
        Int64(bitPattern: 0x8000_0000_0000_0000) | Int64(event) << 42 | Int64(field) << 32 | code
    }
}
