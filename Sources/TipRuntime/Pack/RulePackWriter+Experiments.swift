/// The optional experiments table (`PackFormat.experimentsTableKind`; layout in
/// docs/bytecode.md, "experiments").
extension RulePackWriter {
    /// Arm flags: which of the arm's optional parts follow its weight.
    enum ArmFlag {
        static let hidden: UInt8 = 1, title: UInt8 = 2, message: UInt8 = 4, image: UInt8 = 8, actions: UInt8 = 16
        static let known: UInt8 = 31
    }

    static func encode(_ experiments: [PackExperiment], _ interner: inout StringInterner) -> [UInt8] {
        var table = ByteWriter()
        table.u32(UInt32(experiments.count))
        for experiment in experiments {
            table.u32(interner.index(experiment.name))
            table.u32(UInt32(truncatingIfNeeded: experiment.tip))
            table.u32(interner.index(experiment.salt))
            table.u32(UInt32(truncatingIfNeeded: experiment.goal.event))
            table.i64(experiment.goal.windowMilliseconds)
            table.u32(UInt32(experiment.arms.count))
            for arm in experiment.arms {
                table.u32(interner.index(arm.name))
                table.i64(arm.weight)
                var flags: UInt8 = arm.isHidden ? ArmFlag.hidden : 0
                if arm.title != nil { flags |= ArmFlag.title }
                if arm.message != nil { flags |= ArmFlag.message }
                if arm.image != nil { flags |= ArmFlag.image }
                if arm.actions != nil { flags |= ArmFlag.actions }
                table.u8(flags)
                if let title = arm.title { write(title, to: &table, &interner) }
                if let message = arm.message { write(message, to: &table, &interner) }
                switch arm.image {
                case .symbol(let name)?: table.u8(1); table.u32(interner.index(name))
                case .asset(let name)?: table.u8(2); table.u32(interner.index(name))
                case nil: break
                }
                if let actions = arm.actions {
                    table.u32(UInt32(actions.count))
                    for action in actions {
                        table.u32(interner.index(action.id))
                        write(action.title, to: &table, &interner)
                    }
                }
            }
        }
        return table.bytes
    }
}
