/// A JSON value with deterministic serialization: object keys in the order given, integers
/// exact, no whitespace unless asked. Used for the `META` section (byte-identical builds) and
/// for the command-line tool's `--json` output.
package enum JSONValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  /// An object; keys keep the order given.
  case object([(String, JSONValue)])
  /// Text that is already JSON, written as is (for embedding stored metadata).
  case raw(String)

  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .int(Int64(value)) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

  /// An integer value.
  package static func number<I: BinaryInteger>(_ value: I) -> JSONValue { .int(Int64(value)) }

  /// The value as compact JSON text.
  package var text: String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .raw(let text): out += text
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d):
      if d.isFinite {
        out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
      } else {
        out += "null"
      }
    case .string(let s): JSONValue.escape(s, into: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        JSONValue.escape(key, into: &out)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    }
  }

  private static func escape(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }
  package func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
