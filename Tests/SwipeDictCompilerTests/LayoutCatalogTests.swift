import Foundation
import SwipeDictCompiler
import SwipeDictFiles
import SwipeDictFormat
import SwipeDictTestSupport
import Testing

/// The keyboard layouts of `corpora/layouts`: every file reads with the compiler's parser and
/// has the geometry the README describes, and every letter of the languages it is for reaches
/// a key (directly, lowercased or through an alias), so no word of those languages is dropped
/// as untypeable for one of its letters.
@Suite("Layout catalog")
struct LayoutCatalogTests {
  /// The letters of one language: Unicode CLDR 48's exemplar characters
  /// (`unicode-org/cldr-json`, `cldr-misc-full/main/LANG/characters.json`, fields
  /// `exemplarCharacters` and `auxiliary`), lowercase as CLDR gives them. Multi-letter
  /// sequences in braces (`{ch}`, `{dž}`, `{ij}`) are covered by their letters. What a
  /// language's sets hold that its keyboard does not type is left out, and `omitted` says what
  /// and why.
  struct Alphabet: Sendable {
    /// The main exemplar letters.
    var main: String
    /// The auxiliary letters the language's keyboard types (loanwords, names).
    var auxiliary: String
    /// Characters of the main set that are not letters but occur inside words (Catalan `·`,
    /// the Ukrainian apostrophe `ʼ`): a key or skipped, never untypeable.
    var marks: String = ""
    /// What was left out of CLDR's sets, and why.
    var omitted: String = ""
  }

  static let alphabets: [String: Alphabet] = [
    "en": Alphabet(
      main: "abcdefghijklmnopqrstuvwxyz",
      auxiliary: "áàăâåäãāæçéèĕêëēíìĭîïīñóòŏôöøōœúùŭûüūÿ"),
    "es": Alphabet(
      main: "aábcdeéfghiíjklmnñoópqrstuúüvwxyz",
      auxiliary: "àăâåäãāæçèĕêëēìĭîïīòŏôöøōœùŭûūýÿ",
      omitted: "ª º: ordinal indicators, written after digits (1.ª)"),
    "it": Alphabet(
      main: "aàbcdeéèfghiìjklmnoòpqrstuùvwxyz",
      auxiliary: "áâåäãæçêëíîïñóôöõøœßúûüÿ",
      omitted: "ª º: ordinal indicators, written after digits"),
    "pt": Alphabet(
      main: "aáàâãbcçdeéêfghiíjklmnoóòôõpqrstuúvwxyz",
      auxiliary: "ăåäāæèĕëēìĭîïīñŏöøōœùŭûüūÿ",
      omitted: "ª º: ordinal indicators, written after digits"),
    "nl": Alphabet(
      main: "aáäbcdeéëfghiíïjklmnoóöpqrstuúüvwxyz",
      auxiliary: "àâåãæçèêîñôøœùûýÿ",
      omitted: "the combining acute of {íj́} (stress marking, not on the keyboard)"),
    "pl": Alphabet(
      main: "aąbcćdeęfghijklłmnńoóprsśtuwyzźż",
      auxiliary: "àâåäæçéèêëîïôöœqßùûüvxÿ"),
    "tr": Alphabet(
      main: "abcçdefgğhıiİjklmnoöprsştuüvyz",
      auxiliary: "áàăâåäãāæéèĕêëēíìĭîïīñóòŏôøōœqßúùŭûūwxÿ"),
    "sv": Alphabet(
      main: "aàbcdeéfghijklmnopqrstuvwxyzåäö",
      auxiliary: "áâãāçèëíîïīñóúÿüæø"),
    "nb": Alphabet(
      main: "aàbcdeéfghijklmnoóòôpqrstuvwxyzæøå",
      auxiliary: "áǎãčçđèêíńñŋšŧúüžäö"),
    "da": Alphabet(
      main: "abcdefghijklmnopqrstuvwxyzæøå",
      auxiliary: "áàâçéèêëíîïñóôœúùûÿüäǿö"),
    "fi": Alphabet(
      main: "abcdefghijklmnopqrsštuvwxyzžåäö",
      auxiliary: "áàăâãąāćčċçďðđéèêěëėęēğģħíîïİįīıķĺľļłńňñņŋ"
        + "óòôőõœŕřśŝşșßťţțŧúùûůűųūýÿüźżþæø",
      omitted: "ǧ ǥ ȟ ǩ ʒ ǯ: Sámi letters, not on the Finnish keyboard"),
    "ro": Alphabet(
      main: "aăâbcdefghiîjklmnopqrsștțuvwxyz",
      auxiliary: "áàåäçéèêëñöşţü"),
    "ca": Alphabet(
      main: "aàbcçdeéèfghiíïjklmnoóòpqrstuúüvwxyz",
      auxiliary: "áăâåäãāæĕêëēìĭîīŀñŏôöøōœùŭûūÿ", marks: "·",
      omitted: "º: ordinal indicator, written after digits"),
    "de": Alphabet(
      main: "aäbcdefghijklmnoöpqrsßtuüvwxyz",
      auxiliary: "áàăâåãāæçéèĕêëēğíìĭîïİīıñóòŏôøōœşúùŭûūÿ"),
    "cs": Alphabet(
      main: "aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž",
      auxiliary: "àăâåäãāæçèĕêëēìĭîïīľłñòŏôöøōœŕùŭûüūÿ"),
    "hu": Alphabet(
      main: "aábcdeéfghiíjklmnoóöőprstuúüűvz",
      auxiliary: "àăâåäãāæçèĕêëēìĭîïīñòŏôøōœqùŭûūwxyÿ"),
    "hr": Alphabet(main: "abcčćdđefghijklmnoprsštuvzž", auxiliary: "qwxy"),
    "sl": Alphabet(
      main: "abcčdefghijklmnoprsštuvzž",
      auxiliary: "áàăâåäāæçćđéèĕêëēíìĭîïīñóòŏôöøōœqúùŭûüūwxyÿ"),
    "bs": Alphabet(main: "abcčćdđefghijklmnoprsštuvzž", auxiliary: "qwxy"),
    "sk": Alphabet(
      main: "aáäbcčdďeéfghiíjklĺľmnňoóôpqrŕsštťuúvwxyýzž",
      auxiliary: "àăâåāæçèĕêëēìĭîïīñòŏöőøōœřùŭûüűūÿ"),
    "fr": Alphabet(
      main: "aàâæbcçdeéèêëfghiîïjklmnoôœpqrstuùûüvwxyÿz",
      auxiliary: "áåäãāćēíìīñóòöõøřšſßúǔ",
      omitted: "ĳ: the Dutch ligature, not on the French keyboard"),
    "ru": Alphabet(
      main: "абвгдеёжзийклмнопрстуфхцчшщъыьэюя", auxiliary: "",
      omitted: "the stressed vowels with a combining acute (dictionary stress marks)"),
    "uk": Alphabet(
      main: "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя", auxiliary: "", marks: "ʼ",
      omitted:
        "ё ъ ы э (Russian letters: no key and no long press on the Ukrainian keyboard) and the "
        + "stressed vowels with a combining acute"),
    "be": Alphabet(
      main: "абвгдеёжзійклмнопрстуўфхцчшыьэюя", auxiliary: "",
      omitted: "the stressed vowels with a combining acute"),
    "bg": Alphabet(
      main: "абвгдежзийклмнопрстуфхцчшщъьюя", auxiliary: "ѐѝ",
      omitted:
        "ё ы э (Russian), ѣ ѫ (before 1945) and the vowels with a combining grave (stress marks)"),
    // lt, lv, sr: CLDR's exemplar sets as the Locale::CLDR data carries them (main and auxiliary).
    "lt": Alphabet(
      main: "aąbcčdeęėfghiįyjklmnoprsštuųūvzž", auxiliary: "áàãéèẽíìĩñóòõqúùũwx",
      omitted: "the stress-marked letters written with a combining accent ({ą́} {ė̃} {l̃} …)"),
    "lv": Alphabet(main: "aābcčdeēfgģhiījkķlļmnņoprsštuūvzž", auxiliary: "yōqŗwx"),
    "sr": Alphabet(main: "абвгдђежзијклљмнњопрстћуфхцчџш", auxiliary: "ѐѝ"),
    "el": Alphabet(
      main: "αάβγδεέζηήθιίϊΐκλμνξοόπρσςτυύϋΰφχψωώ", auxiliary: "",
      omitted: "the polytonic letters (ἀ ᾶ …), not typed on the modern Greek keyboard"),
  ]

  /// Every layout file and the languages (keys of ``alphabets``) it is for.
  static let catalog: [String: [String]] = [
    "qwerty-en": ["en"], "qwerty-es": ["es"], "qwerty-it": ["it"], "qwerty-pt": ["pt"],
    "qwerty-nl": ["nl"], "qwerty-pl": ["pl"], "qwerty-tr": ["tr"], "qwerty-sv": ["sv"],
    "qwerty-nb": ["nb"], "qwerty-da": ["da"], "qwerty-fi": ["fi"], "qwerty-ro": ["ro"],
    "qwerty-ca": ["ca"], "qwertz-de": ["de"], "qwertz-cs": ["cs"], "qwertz-hu": ["hu"],
    "qwertz-hr": ["hr", "sl", "bs"], "qwertz-sk": ["sk"], "azerty-fr": ["fr"],
    "azerty-be": ["fr", "nl"], "jcuken-ru": ["ru"], "jcuken-uk": ["uk"], "jcuken-be": ["be"],
    "phonetic-bg": ["bg"], "greek-el": ["el"], "qwerty-lt": ["lt"], "qwerty-lv": ["lv"],
    "cyrillic-sr": ["sr"],
  ]

  static let directory = repositoryRoot.appendingPathComponent("corpora/layouts")

  /// A layout of `corpora/layouts` read with the compiler's parser; unlike
  /// `repositoryLayout(_:)`, a file that does not read fails the test case instead of the run.
  static func load(_ name: String) throws -> KeyboardLayout {
    try LayoutFile.load(directory.appendingPathComponent("\(name).json").path)
  }

  /// The layout files' names, without `.json`.
  static let files: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }()

  /// Each layout with one of its languages.
  static let pairs: [(layout: String, language: String)] = catalog.keys.sorted().flatMap {
    layout in catalog[layout, default: []].map { (layout, $0) }
  }

  @Test("Turkish casing: I types ı and İ types i on the Turkish layout; I types i elsewhere")
  func turkishCapitals() throws {
    let turkish = try Self.load("qwerty-tr")
    func key(_ layout: KeyboardLayout, _ scalar: Unicode.Scalar) -> Unicode.Scalar? {
      layout.key(for: scalar).map { layout.keys[$0].character }
    }
    #expect(key(turkish, "I") == "ı" && key(turkish, "ı") == "ı")
    #expect(key(turkish, "İ") == "i" && key(turkish, "i") == "i")
    #expect(turkish.keyPath(for: "IRAK") == turkish.keyPath(for: "ırak"))
    #expect(turkish.keyPath(for: "İzmir") == turkish.keyPath(for: "izmir"))
    let english = try Self.load("qwerty-en")
    #expect(key(english, "I") == "i" && key(english, "İ") == "i")
  }

  @Test func thereAreTwentyOrMoreAndEachIsInTheCatalog() {
    #expect(Self.files.count >= 20)
    #expect(Self.files == Self.catalog.keys.sorted())
    for languages in Self.catalog.values {
      for language in languages { #expect(Self.alphabets[language] != nil, "\(language)") }
    }
  }

  /// The parser's own checks (distinct lowercase keys, no overlapping keys, aliases to keys)
  /// pass, the file names itself, says where its rows were checked, and has the README's
  /// geometry: three rows 54 pt tall at y = 27, 81, 135 inside the 375 pt keyboard, each row
  /// keys of one width tiling it left to right, the layout's `keyWidth` the letter key width.
  @Test(arguments: files)
  func readsAndHasSaneGeometry(file: String) throws {
    let layout = try Self.load(file)
    #expect(layout.name == file)
    #expect(layout.unit == "pt")
    #expect(Set(layout.keys.map(\.character)).count == layout.keys.count)
    #expect((24...40).contains(layout.keys.count), "\(layout.keys.count) keys")

    let url = Self.directory.appendingPathComponent("\(file).json")
    let bytes = try [UInt8](Data(contentsOf: url))
    guard case .object(let members) = try JSONReader.parse(bytes).kind,
      case .string(let notes)? = members.first(where: { $0.key == "notes" })?.value.kind
    else {
      Issue.record("\(file): no notes")
      return
    }
    #expect(notes.contains("Checked against"), "\(file): the notes name no reference")

    let slack: Float = 0.01
    for (i, key) in layout.keys.enumerated() {
      let inside = key.x - key.width / 2 >= -slack && key.x + key.width / 2 <= 375 + slack
      #expect(inside, "keys[\(i)]")
      #expect(key.height == 54 && [27, 81, 135].contains(key.y), "keys[\(i)]")
      for (j, other) in layout.keys.enumerated() where j > i {
        let overlaps = KeyboardLayout.overlap(
          (key.x, key.y, key.width, key.height), (other.x, other.y, other.width, other.height),
          keyWidth: layout.keyWidth)
        #expect(!overlaps, "keys[\(i)] and keys[\(j)] overlap")
      }
    }
    let rows = [27, 81, 135].map { y in
      layout.keys.filter { $0.y == Float(y) }.sorted { $0.x < $1.x }
    }
    #expect(rows[0].count >= 9 && rows[1].count >= 9 && rows[2].count >= 6)
    for row in rows {
      #expect(row.allSatisfy { abs($0.width - layout.keyWidth) < slack })
      for (left, right) in zip(row, row.dropFirst()) {
        let gap = right.x - left.x - layout.keyWidth
        #expect(abs(gap) < slack, "\(left.character) \(right.character)")
      }
    }
  }

  /// Every letter of each language, and its uppercase, reaches a key; the in-word marks reach
  /// a key or are skipped. Uppercase forms that need a combining mark (Greek `ΐ` → `Ϊ́`) are
  /// not checked: they are not single characters and Greek capitals drop the accents.
  @Test(arguments: pairs)
  func typesEveryLetterOfItsLanguage(layout name: String, language: String) throws {
    let layout = try Self.load(name)
    let alphabet = try #require(Self.alphabets[language])
    var untypeable: [String] = []
    for scalar in (alphabet.main + alphabet.auxiliary).unicodeScalars {
      let upper = String(scalar).uppercased().precomposedStringWithCanonicalMapping.unicodeScalars
      var forms = [scalar]
      if !upper.contains(where: { $0.properties.generalCategory == .nonspacingMark }) {
        forms += upper
      }
      for form in forms where layout.key(for: form) == nil { untypeable.append(String(form)) }
    }
    for scalar in alphabet.marks.unicodeScalars where layout.classify(scalar) == .untypeable {
      untypeable.append(String(scalar))
    }
    let letters = untypeable.joined(separator: " ")
    #expect(untypeable.isEmpty, "\(name) cannot type these \(language) letters: \(letters)")
  }

  /// Spot checks of what the references give as keys of their own.
  @Test(arguments: [
    ("qwerty-es", "ñ"), ("qwerty-ca", "ç"), ("qwerty-sv", "åäö"), ("qwerty-fi", "åäö"),
    ("qwerty-nb", "åøæ"), ("qwerty-da", "åæø"), ("qwerty-tr", "ğüşıiöç"), ("qwertz-de", "üöä"),
    ("jcuken-ru", "йцукенгшщзхфывапролджэячсмитьбю"), ("jcuken-uk", "іїє"), ("jcuken-be", "ўі"),
    ("greek-el", "ς"), ("cyrillic-sr", "љњђћџј"),
  ])
  func hasItsLanguagesLettersAsKeys(layout name: String, letters: String) throws {
    let keys = Set(try Self.load(name).keys.map(\.character))
    #expect(letters.unicodeScalars.filter { !keys.contains($0) }.isEmpty)
  }

  /// Spot checks of long-press letters: each is an alias of the key that holds it.
  @Test(arguments: [
    ("jcuken-ru", "ё", "е"), ("jcuken-ru", "ъ", "ь"), ("jcuken-uk", "ґ", "г"),
    ("jcuken-be", "ё", "е"), ("phonetic-bg", "ѝ", "и"), ("qwerty-sv", "æ", "ä"),
    ("qwerty-fi", "ø", "ö"), ("qwerty-da", "ä", "æ"), ("qwerty-nb", "ö", "ø"),
    ("qwerty-tr", "â", "a"), ("qwerty-nl", "ĳ", "i"), ("qwerty-ca", "ŀ", "l"),
    ("greek-el", "ά", "α"), ("greek-el", "ΰ", "υ"), ("qwerty-lt", "ė", "e"), ("qwerty-lt", "ų", "u"),
    ("qwerty-lv", "ķ", "k"), ("qwerty-lv", "ņ", "n"), ("cyrillic-sr", "ѝ", "и"),
  ])
  func typesALongPressLetterWithItsKey(layout name: String, letter: String, key: String) throws {
    let layout = try Self.load(name)
    let scalar = try #require(letter.unicodeScalars.first)
    let index = try #require(layout.key(for: scalar))
    #expect(String(layout.keys[index].character) == key)
  }

  /// The order of the Nordic letters follows each language's keyboard: æ ø in Danish, ø æ in
  /// Norwegian, ö ä in Swedish and Finnish, at the end of the middle row.
  @Test(arguments: [
    ("qwerty-da", "læø"), ("qwerty-nb", "løæ"), ("qwerty-sv", "löä"), ("qwerty-fi", "löä"),
  ])
  func nordicMiddleRowsEndInTheirOwnOrder(layout name: String, end: String) throws {
    let middle = try Self.load(name).keys.filter { $0.y == 81 }.map(\.character)
    #expect(Array(middle.suffix(3)) == Array(end.unicodeScalars))
  }
}
