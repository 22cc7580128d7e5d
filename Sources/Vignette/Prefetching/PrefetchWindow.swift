/// The scroll-prefetching logic of a list or grid, free of any UI kit.
///
/// Feed it the viewport each time the list scrolls; it answers which indices to start
/// prefetching (nearest the viewport first) and which to stop. Hand the answer to
/// `ImagePrefetcher.startPrefetching(with:)` / `stopPrefetching(with:)`.
///
/// - The **window** is `sizeRatio` × the viewport's length of items just beyond the viewport in
///   the direction of travel, clamped to `0..<itemCount`. In a grid it is rounded up to whole rows.
///   It never contains visible items: those are the UI's own loads.
/// - The **direction** comes from successive viewports: forward when the first visible index
///   grows (or, with the same first index, the last one), backward when it shrinks, unchanged
///   otherwise. It starts forward.
/// - The window is **recomputed** on the first update, after `itemCount` changed, when the
///   direction changed, or when either end of the viewport has moved at least `threshold` ×
///   the viewport's length (and at least one item) since the last recomputation. Any other
///   update returns an empty ``Change``.
/// - Items of the old window that have become **visible** are handed over, neither started nor
///   stopped: the UI's request for them joins the prefetch already under way (equal work is
///   coalesced), and stopping it could cancel the work before the UI asks.
/// - A **jump** (a new window that shares nothing with the old) stops the whole old window and
///   starts the whole new one; no special case is needed for it.
public struct PrefetchWindow: Sendable {
    /// The direction of travel through the list.
    public enum Direction: Sendable, Equatable {
        /// Towards higher indices (scrolling down or right).
        case forward
        /// Towards lower indices (scrolling up or left).
        case backward
    }

    /// What is on screen.
    public enum Viewport: Sendable, Equatable {
        /// The visible indices, as the list reports them.
        case indices(Range<Int>)
        /// A scroll position along the scroll axis, in points or pixels: `offset` is where the
        /// viewport begins (the content offset), `length` its extent, `itemLength` the pitch of
        /// one line of items (item size plus spacing), and `columns` the items per line across
        /// the scroll axis (1 for a plain list).
        case pixels(offset: Double, length: Double, itemLength: Double, columns: Int)
    }

    /// What to do after an update.
    public struct Change: Sendable, Equatable {
        /// Indices to start prefetching, nearest the viewport first.
        public var start: [Int]
        /// Indices to stop prefetching, ascending.
        public var stop: [Int]

        /// Creates a change.
        public init(start: [Int] = [], stop: [Int] = []) {
            self.start = start
            self.stop = stop
        }

        /// Whether there is nothing to start and nothing to stop.
        public var isEmpty: Bool { start.isEmpty && stop.isEmpty }
    }

    /// The number of items in the list. Changing it makes the next update recompute the window,
    /// which stops indices past a shrunken end and extends the window over new items.
    public var itemCount: Int {
        didSet { needsRecompute = true }
    }

    /// The window's length as a multiple of the viewport's length.
    public let sizeRatio: Double

    /// How far the viewport must move before the window is recomputed, as a multiple of the
    /// viewport's length.
    public let threshold: Double

    /// The direction of travel seen in the latest update.
    public private(set) var direction: Direction = .forward

    /// The indices being prefetched, nearest the viewport (as of the last recomputation) first.
    public private(set) var prefetching: [Int] = []

    /// The viewport at the last recomputation; nil before the first.
    private var anchor: Range<Int>?
    /// The direction used at the last recomputation.
    private var anchorDirection: Direction = .forward
    /// The viewport of the latest update, for the direction of travel.
    private var lastVisible: Range<Int>?
    private var needsRecompute = true

    /// Creates a window for a list of `itemCount` items.
    ///
    /// - Parameters:
    ///   - itemCount: The number of items in the list.
    ///   - sizeRatio: The window's length as a multiple of the viewport's length; 1 prefetches
    ///     one screenful ahead. Negative values count as 0.
    ///   - threshold: How far the viewport must move before the window is recomputed, as a
    ///     multiple of the viewport's length; 0 recomputes on every move of one item or more.
    public init(itemCount: Int, sizeRatio: Double = 1.0, threshold: Double = 0.25) {
        self.itemCount = max(0, itemCount)
        self.sizeRatio = sizeRatio.isFinite ? max(0, sizeRatio) : 0
        self.threshold = threshold.isFinite ? max(0, threshold) : 0
    }

    /// Moves the viewport to the given visible indices; see ``update(_:)``.
    public mutating func update(visible: Range<Int>) -> Change {
        update(.indices(visible))
    }

    /// Moves the viewport and returns the indices to start and to stop prefetching. The change
    /// is empty when the viewport has not moved far enough to recompute the window.
    public mutating func update(_ viewport: Viewport) -> Change {
        let visible = Self.visibleRange(of: viewport, itemCount: itemCount)
        if let last = lastVisible {
            let delta = visible.lowerBound != last.lowerBound
                ? visible.lowerBound - last.lowerBound : visible.upperBound - last.upperBound
            if delta > 0 { direction = .forward } else if delta < 0 { direction = .backward }
        }
        lastVisible = visible
        guard shouldRecompute(visible) else { return Change() }

        var columns = 1
        if case .pixels(_, _, _, let perLine) = viewport { columns = max(1, perLine) }
        let window = Self.window(
            beyond: visible, direction: direction, sizeRatio: sizeRatio, columns: columns,
            itemCount: itemCount)
        let old = Set(prefetching)
        let new = Set(window)
        let change = Change(
            start: window.filter { !old.contains($0) },
            stop: prefetching.filter { !new.contains($0) && !visible.contains($0) }.sorted())
        prefetching = window
        anchor = visible
        anchorDirection = direction
        needsRecompute = false
        return change
    }

    /// Forgets everything and returns the indices that were being prefetched (nearest first), to
    /// stop. The next update starts afresh, like the first.
    @discardableResult
    public mutating func reset() -> [Int] {
        let stopped = prefetching
        prefetching = []
        anchor = nil
        lastVisible = nil
        direction = .forward
        anchorDirection = .forward
        needsRecompute = true
        return stopped
    }

    /// The visible indices of a viewport, clamped to `0..<itemCount`. A pixel viewport covers
    /// every line it touches, even partly; a degenerate one (no length, no columns) is empty.
    public static func visibleRange(of viewport: Viewport, itemCount: Int) -> Range<Int> {
        let count = max(0, itemCount)
        switch viewport {
        case .indices(let range):
            return clamp(range, to: count)
        case .pixels(let offset, let length, let itemLength, let columns):
            guard offset.isFinite, length.isFinite, itemLength.isFinite,
                itemLength > 0, length > 0, columns > 0
            else { return 0..<0 }
            let first = max(0, offset) / itemLength
            let end = max(0, offset + length) / itemLength
            // Lines that cannot exist are clamped before converting, so huge offsets cannot trap.
            let lines = Double(count / columns + 1)
            let firstLine = Int(min(first.rounded(.down), lines))
            let endLine = Int(min(end.rounded(.up), lines))
            return clamp(firstLine * columns..<max(firstLine, endLine) * columns, to: count)
        }
    }

    // MARK: - Private

    private func shouldRecompute(_ visible: Range<Int>) -> Bool {
        guard !needsRecompute, let anchor else { return true }
        if direction != anchorDirection { return true }
        let moved = max(
            abs(visible.lowerBound - anchor.lowerBound),
            abs(visible.upperBound - anchor.upperBound))
        guard moved > 0 else { return false }
        return Double(moved) >= threshold * Double(anchor.count)
    }

    /// The window just beyond `visible` in `direction`, nearest first.
    private static func window(
        beyond visible: Range<Int>, direction: Direction, sizeRatio: Double, columns: Int,
        itemCount: Int
    ) -> [Int] {
        let lines = (Double(visible.count) / Double(columns)) * sizeRatio
        // A hair below the integer so that 0.3 × 10 is 3 lines, not 4 from rounding noise.
        let length = Int(min((lines - 1e-9).rounded(.up) * Double(columns), Double(itemCount)))
        guard length > 0 else { return [] }
        switch direction {
        case .forward:
            let start = visible.upperBound
            return Array(start..<min(itemCount, start + length))
        case .backward:
            let end = visible.lowerBound
            return Array((max(0, end - length)..<end).reversed())
        }
    }

    private static func clamp(_ range: Range<Int>, to count: Int) -> Range<Int> {
        let lower = min(max(0, range.lowerBound), count)
        return lower..<min(max(lower, range.upperBound), count)
    }
}
