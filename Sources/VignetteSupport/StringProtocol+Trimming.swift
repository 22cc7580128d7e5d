extension StringProtocol {
    /// The text without leading and trailing whitespace (spaces, tabs, line ends:
    /// `Character.isWhitespace`), nor any character of `extra`.
    package func trimmingWhitespace(and extra: Set<Character> = []) -> SubSequence {
        let drop = { (character: Character) in character.isWhitespace || extra.contains(character) }
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else {
            return self[endIndex..<endIndex]
        }
        return self[first...last]
    }
}
