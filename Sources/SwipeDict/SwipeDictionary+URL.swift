#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension SwipeDictionary {
  /// Maps and validates a blob file given by a file URL — what an iOS app holds for a file
  /// in its bundle or its App Group container.
  ///
  /// ```swift
  /// let folder = FileManager.default
  ///   .containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.keyboard")!
  /// let dictionary = try SwipeDictionary(contentsOf: folder.appending(path: "en.swipedict"))
  /// ```
  /// - Parameters:
  ///   - url: a `file:` URL of the blob.
  ///   - verify: also check every checksum and the automaton's structure (reads the whole file).
  /// - Throws: `SwipeDictError.io` if the URL is not a file URL or the file cannot be mapped,
  ///   `.invalid` if it is not a valid blob.
  public init(contentsOf url: URL, verify: Bool = false) throws(SwipeDictError) {
    guard url.isFileURL else {
      throw .io(path: url.absoluteString, message: "not a file URL: download the blob first")
    }
    try self.init(contentsOf: url.path(percentEncoded: false), verify: verify)
  }
}
