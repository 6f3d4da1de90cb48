@_exported import SwipeDictFormat

/// Why a blob could not be opened or verified.
public enum SwipeDictError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file could not be opened, sized or mapped.
  case io(path: String, message: String)
  /// The bytes are not a valid blob: what is wrong and where (section, offset).
  case invalid(FormatError)

  public var description: String {
    switch self {
    case .io(let path, let message): return "\(path): \(message)"
    case .invalid(let error): return "invalid blob: \(error)"
    }
  }
}
