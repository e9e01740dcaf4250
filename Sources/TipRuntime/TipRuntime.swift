// interim: the runtime half arrives with the compiler/VM work
public enum TipRuntimeVersion { public static let formatVersion = 1 }
