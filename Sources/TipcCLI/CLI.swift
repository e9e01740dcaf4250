public enum TipcCLIPlaceholder {}
