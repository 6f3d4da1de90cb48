@_spi(SwipeDictInternals) import SwipeDictFormat

/// How every section view's initializer opens: the check that the section holds its fixed
/// header, and errors that name the section and a byte of it (as an offset in the file).
struct SectionHeaderCheck {
  let tag: SectionTag
  /// The section's offset in the file.
  let fileOffset: Int

  /// Throws unless `section` holds a header of `headerSize` bytes.
  init(_ tag: SectionTag, section: UnsafeByteView, headerSize: Int, fileOffset: Int) throws(FormatError) {
    self.tag = tag
    self.fileOffset = fileOffset
    guard section.count >= headerSize else {
      throw fail("section is \(section.count) bytes, shorter than its header", 0)
    }
  }

  /// The section is malformed at byte `at` of it: `detail` says how.
  func fail(_ detail: String, _ at: Int) -> FormatError {
    FormatError(.malformed(detail), section: tag, offset: fileOffset + at)
  }
}
