extension String {
  /// Decodes `bytes` as UTF-8, or returns `nil` when they are not valid UTF-8.
  ///
  /// What `String(validating:as:)` does, on every Apple floor Package.swift declares: Apple's
  /// SDKs have that initializer only from iOS 18 and macOS 15 (tvOS 18, watchOS 11,
  /// visionOS 2), where it is used; before, ``init(decodingValidUTF8:)`` checks the same.
  /// - Complexity: O(*n*).
  package init?<Bytes: Collection>(validatingUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      guard let string = String(validating: bytes, as: UTF8.self) else { return nil }
      self = string
    } else {
      self.init(decodingValidUTF8: bytes)
    }
  }

  /// Decodes `bytes` as UTF-8, or returns `nil` when they are not valid UTF-8, with the API of
  /// every Swift 5 runtime: `String(decoding:as:)` replaces each ill-formed sequence with
  /// U+FFFD, so its UTF-8 is the input's exactly when nothing was replaced. (A valid U+FFFD in
  /// the input decodes to itself; the bytes of an ill-formed sequence are never those of U+FFFD.)
  /// The fallback of ``init(validatingUTF8:)`` before iOS 18; tested against it on Linux.
  /// - Complexity: O(*n*).
  package init?<Bytes: Collection>(decodingValidUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
    let string = String(decoding: bytes, as: UTF8.self)
    guard string.utf8.elementsEqual(bytes) else { return nil }
    self = string
  }
}
