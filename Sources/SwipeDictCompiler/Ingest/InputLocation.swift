/// Where in an input file something is: 1-based line and column.
///
/// The column counts bytes of the line (not characters), starting at 1 after a byte-order
/// mark. Line 0 stands for the file as a whole and column 0 for the line as a whole.
public struct InputLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file's path as given to the reader.
  public var file: String
  /// The 1-based line number, or 0 for the whole file.
  public var line: Int
  /// The 1-based byte column within the line, or 0 for the whole line.
  public var column: Int

  /// A location in a file.
  /// - Parameters:
  ///   - file: the file's path as given to the reader.
  ///   - line: the 1-based line, or 0 for the whole file.
  ///   - column: the 1-based byte column, or 0 for the whole line.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, shortened to `file:line` or `file` when column or line is 0.
  public var description: String {
    if line == 0 { return file }
    if column == 0 { return "\(file):\(line)" }
    return "\(file):\(line):\(column)"
  }
}
