import SwipeDictTools
import Testing

@Suite("The words of a sentence with their previous words")
struct SentenceWordsTests {
  private func split(_ line: String) -> [String] {
    SentenceWords.split(line).map { "\($0.previous ?? "-")>\($0.word)" }
  }

  @Test func onlySpacesKeepTheContext() {
    #expect(split("Well, I don't know.") == ["->Well", "->I", "I>don't", "don't>know"])
    #expect(split("  two   spaces\tand a tab ") == ["->two", "two>spaces", "spaces>and", "and>a", "a>tab"])
    #expect(split("end. Start; semi: colon") == ["->end", "->Start", "->semi", "->colon"])
    #expect(split("nerve-wracking 42 times") == ["->nerve", "->wracking", "->times"])
    #expect(split("\"quoted\" words") == ["->quoted", "->words"])
  }

  @Test func apostrophesBetweenLettersStayInTheWord() {
    #expect(split("o’clock rock'n'roll") == ["->o’clock", "o’clock>rock'n'roll"])
    // A leading or trailing apostrophe is punctuation: it ends the context.
    #expect(split("'tis the dogs' bowl") == ["->tis", "tis>the", "the>dogs", "->bowl"])
    #expect(split("a '' b") == ["->a", "->b"])
  }

  @Test func lettersOfEveryScriptAndNothingElse() {
    #expect(split("Über straße") == ["->Über", "Über>straße"])
    #expect(split("") == [] && split(" ,.;!? 123 ") == [])
  }
}
