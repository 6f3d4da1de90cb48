/// The SwipeDict tool version, recorded in every blob's metadata and reported by the
/// command-line tool and the C API.
package enum SwipeDictVersion {
  /// The version string.
  package static let string = "0.1.0"
}
