/// Position-free copies of declarations, so that two files that declare the same program in
/// different layouts (or front ends) compare equal. Used to verify that formatting and
/// conversion changed nothing but the layout.
extension ManifestFile {
    /// The declarations with every range, the path, the front end and the comments cleared, and
    /// a group's absent priority replaced by its default (`firstAvailable`), which the rule
    /// language always writes, and an empty donation limit by none.
    public func strippingLayout() -> ManifestFile {
        let none = LayoutStripping.none
        func located<T>(_ value: Located<T>?) -> Located<T>? { value.map { Located($0.value, at: none) } }
        func id(_ identifier: Identifier) -> Identifier { Identifier(identifier.name, at: none) }
        var copy = ManifestFile(path: "", format: .tips, version: located(version), displayFrequency: located(displayFrequency),
                                headRange: none)
        copy.defaultLocale = located(defaultLocale)
        func text(_ text: TextDecl?) -> TextDecl? {
            text.map { text in
                TextDecl(variants: text.variants.map { variant in
                    // The template is read from the text: comparing the texts compares them.
                    TextVariantDecl(locale: located(variant.locale), text: Located(variant.text.value, at: none), template: [])
                }, range: none, isLocalized: text.isLocalized)
            }
        }
        copy.parameters = parameters.map { parameter in
            ParameterDecl(name: id(parameter.name), type: located(parameter.type), defaultValue: located(parameter.defaultValue),
                          values: parameter.values?.map { Located($0.value, at: none) }, isTransient: parameter.isTransient,
                          range: none)
        }
        copy.events = events.map { event in
            EventDecl(name: id(event.name), fields: event.fields.map { FieldDecl(name: id($0.name), type: located($0.type)) },
                      donationLimit: event.donationLimit.flatMap { limit in
                          limit.maximumCount == nil && limit.maximumAgeSeconds == nil ? nil
                              : DonationLimitDecl(maximumCount: located(limit.maximumCount),
                                                  maximumAgeSeconds: located(limit.maximumAgeSeconds))
                      },
                      range: none)
        }
        copy.tips = tips.map { tip in
            var copy = TipDecl(name: id(tip.name), range: none)
            for attribute in TipAttributes.all {
                switch attribute.value {
                case .text(let path): copy[keyPath: path] = text(tip[keyPath: path])
                case .count(let path), .duration(let path): copy[keyPath: path] = located(tip[keyPath: path])
                case .flag(let path): copy[keyPath: path] = located(tip[keyPath: path])
                case .eventWindow(let path):
                    copy[keyPath: path] = tip[keyPath: path].map {
                        EventWindowDecl(event: id($0.event), windowSeconds: Located($0.windowSeconds.value, at: none), range: none)
                    }
                case .image: copy.image = located(tip.image)
                case .actions: copy.actions = tip.actions.map { ActionDecl(id: id($0.id), title: text($0.title)) }
                case .placeholders: copy.placeholders = tip.placeholders.map { PlaceholderDecl(name: id($0.name), type: located($0.type)) }
                case .rules: copy.rules = tip.rules.map { $0.strippingLayout() }
                case .key: copy.key = tip.key.map { TipKeyDecl(name: id($0.name), type: located($0.type), range: none) }
                }
            }
            return copy
        }
        copy.groups = groups.map { group in
            GroupDecl(name: id(group.name), priority: Located(group.priority?.value ?? .firstAvailable, at: none), tips: group.tips.map(id), range: none)
        }
        copy.experiments = experiments.map { experiment in
            var copy = ExperimentDecl(name: id(experiment.name), range: none)
            for attribute in ExperimentAttributes.all {
                switch attribute.value {
                case .tip: copy.tip = experiment.tip.map(id)
                case .eventWindow(let path):
                    copy[keyPath: path] = experiment[keyPath: path].map {
                        EventWindowDecl(event: id($0.event), windowSeconds: Located($0.windowSeconds.value, at: none), range: none)
                    }
                case .string(let path): copy[keyPath: path] = located(experiment[keyPath: path])
                case .arms:
                    copy.arms = experiment.arms.map { arm in
                        var copy = ArmDecl(name: id(arm.name), range: none)
                        for armAttribute in ArmAttributes.all {
                            switch armAttribute.value {
                            case .weight: copy.weight = located(arm.weight)
                            // `.tips` writes a flag only when true: false and absent are one.
                            case .flag(let path): copy[keyPath: path] = arm[keyPath: path]?.value == true ? Located(true, at: none) : nil
                            case .text(let path, _, _): copy[keyPath: path] = text(arm[keyPath: path])
                            case .image: copy.image = located(arm.image)
                            case .actions: copy.actions = arm.actions?.map { ActionDecl(id: id($0.id), title: text($0.title)) }
                            }
                        }
                        return copy
                    }
                }
            }
            return copy
        }
        return copy
    }
}

extension Expression {
    /// The same tree with every range (of nodes and identifiers) cleared.
    public func strippingLayout() -> Expression {
        let none = LayoutStripping.none
        func id(_ identifier: Identifier) -> Identifier { Identifier(identifier.name, at: none) }
        let stripped: Kind
        switch kind {
        case .literal, .now, .parameter, .name, .error: stripped = kind
        case .member(let base, let name): stripped = .member(base.strippingLayout(), id(name))
        case .methodCall(let base, let name, let arguments):
            stripped = .methodCall(base.strippingLayout(), id(name), arguments.map { $0.strippingLayout() })
        case .functionCall(let name, let arguments): stripped = .functionCall(id(name), arguments.map { $0.strippingLayout() })
        case .unary(let op, let operand): stripped = .unary(op, operand.strippingLayout())
        case .binary(let op, let left, let right): stripped = .binary(op, left.strippingLayout(), right.strippingLayout())
        case .within(let clause, let window): stripped = .within(clause.strippingLayout(), window.strippingLayout())
        case .inList(let value, let elements): stripped = .inList(value.strippingLayout(), elements.map { $0.strippingLayout() })
        }
        return Expression(stripped, at: none)
    }
}

private enum LayoutStripping {
    static let none = SourceRange(file: "", at: SourceLocation(line: 0, column: 0))
}
