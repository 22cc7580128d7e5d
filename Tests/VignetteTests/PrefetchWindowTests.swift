import Testing

@testable import Vignette

/// One update of a scroll scenario and what it must answer.
private struct Step: Sendable {
    var visible: Range<Int>
    var start: [Int] = []
    var stop: [Int] = []
    var direction: PrefetchWindow.Direction = .forward
}

/// A list, a window configuration and a sequence of viewports.
private struct Scenario: Sendable, CustomTestStringConvertible {
    var name: String
    var itemCount = 100
    var sizeRatio = 1.0
    var threshold = 0.25
    var steps: [Step]
    var testDescription: String { name }
}

private func up(_ range: Range<Int>) -> [Int] { Array(range) }
private func down(_ range: Range<Int>) -> [Int] { Array(range.reversed()) }

// Unless a scenario says otherwise: 100 items, a viewport of 10, a window of 10, and a
// recomputation once either end of the viewport has moved 3 items (0.25 × 10 rounded up).
private let scenarios: [Scenario] = [
    Scenario(name: "scrolling forward starts the items ahead, nearest first", steps: [
        Step(visible: 0..<10, start: up(10..<20)),
        Step(visible: 3..<13, start: [20, 21, 22]),
        Step(visible: 6..<16, start: [23, 24, 25]),
    ]),
    Scenario(name: "scrolling back starts the items behind, nearest first", steps: [
        Step(visible: 50..<60, start: up(60..<70)),
        Step(visible: 47..<57, start: down(37..<47), stop: up(60..<70), direction: .backward),
        Step(visible: 44..<54, start: [36, 35, 34], direction: .backward),
    ]),
    Scenario(name: "small moves and a still viewport do not recompute", steps: [
        Step(visible: 0..<10, start: up(10..<20)),
        Step(visible: 0..<10),
        Step(visible: 1..<11),
        Step(visible: 2..<12),
        Step(visible: 3..<13, start: [20, 21, 22]),
    ]),
    Scenario(name: "a change of direction recomputes at once, even on a small move", steps: [
        Step(visible: 20..<30, start: up(30..<40)),
        Step(visible: 21..<31),
        Step(visible: 20..<30, start: down(10..<20), stop: up(30..<40), direction: .backward),
        Step(visible: 21..<31, start: up(31..<41), stop: up(10..<20)),
    ]),
    Scenario(name: "a fast scroll stops the window items it went past", steps: [
        Step(visible: 0..<10, start: up(10..<20)),
        Step(visible: 15..<25, start: up(25..<35), stop: up(10..<15)),
    ]),
    Scenario(name: "a jump stops the whole old window and starts the new one", steps: [
        Step(visible: 0..<10, start: up(10..<20)),
        Step(visible: 60..<70, start: up(70..<80), stop: up(10..<20)),
        Step(visible: 30..<40, start: down(20..<30), stop: up(70..<80), direction: .backward),
    ]),
    Scenario(name: "at the end of the list the window is clamped, then empty", steps: [
        Step(visible: 85..<95, start: up(95..<100)),
        Step(visible: 90..<100),
        Step(visible: 95..<120),
        Step(visible: 89..<99, start: down(79..<89), direction: .backward),
    ]),
    Scenario(name: "at the start of the list the window behind is clamped at zero", steps: [
        Step(visible: 30..<40, start: up(40..<50)),
        Step(visible: 8..<18, start: down(0..<8), stop: up(40..<50), direction: .backward),
        Step(visible: 0..<10, direction: .backward),
        Step(visible: -5..<10, direction: .backward),
    ]),
    Scenario(
        name: "sizeRatio 2 prefetches two screenfuls ahead", sizeRatio: 2, threshold: 0.5,
        steps: [
            Step(visible: 0..<10, start: up(10..<30)),
            Step(visible: 4..<14),
            Step(visible: 5..<15, start: up(30..<35)),
        ]),
    Scenario(name: "sizeRatio 0.3 of 10 items is 3 items, not 4", sizeRatio: 0.3, steps: [
        Step(visible: 0..<10, start: [10, 11, 12]),
    ]),
    Scenario(name: "threshold 0 recomputes on every move of one item", threshold: 0, steps: [
        Step(visible: 0..<10, start: up(10..<20)),
        Step(visible: 1..<11, start: [20]),
        Step(visible: 1..<11),
    ]),
]

@Suite("PrefetchWindow")
struct PrefetchWindowTests {
    @Test("scroll scenarios give the exact indices to start and to stop", arguments: scenarios)
    fileprivate func scenario(_ scenario: Scenario) {
        var window = PrefetchWindow(
            itemCount: scenario.itemCount, sizeRatio: scenario.sizeRatio,
            threshold: scenario.threshold)
        for (index, step) in scenario.steps.enumerated() {
            let change = window.update(visible: step.visible)
            #expect(change.start == step.start, "step \(index): start")
            #expect(change.stop == step.stop, "step \(index): stop")
            #expect(window.direction == step.direction, "step \(index): direction")
        }
    }

    @Test("a pixel viewport covers every line it touches, clamped to the list", arguments: [
        // (offset, length, itemLength, columns, itemCount) → visible
        (0.0, 100.0, 50.0, 1, 100, 0..<2),
        (25.0, 100.0, 50.0, 1, 100, 0..<3),
        (120.0, 200.0, 100.0, 3, 100, 3..<12),
        (120.0, 200.0, 100.0, 3, 10, 3..<10),
        (-50.0, 100.0, 50.0, 2, 100, 0..<2),
        (1e300, 100.0, 50.0, 2, 100, 100..<100),
        (0.0, 100.0, 0.0, 2, 100, 0..<0),
        (0.0, 100.0, 50.0, 0, 100, 0..<0),
        (Double.nan, 100.0, 50.0, 1, 100, 0..<0),
    ] as [(Double, Double, Double, Int, Int, Range<Int>)])
    func pixels(
        offset: Double, length: Double, itemLength: Double, columns: Int, itemCount: Int,
        visible: Range<Int>
    ) {
        let viewport = PrefetchWindow.Viewport.pixels(
            offset: offset, length: length, itemLength: itemLength, columns: columns)
        #expect(PrefetchWindow.visibleRange(of: viewport, itemCount: itemCount) == visible)
    }

    @Test("in a grid the window is whole rows ahead, and scrolling by pixels moves it")
    func gridRows() {
        func at(_ offset: Double) -> PrefetchWindow.Viewport {
            .pixels(offset: offset, length: 200, itemLength: 100, columns: 3)
        }
        var window = PrefetchWindow(itemCount: 30, sizeRatio: 0.5, threshold: 1)
        // Rows 0..<2 of three items visible; half a screen is one row.
        #expect(window.update(at(0)) == PrefetchWindow.Change(start: [6, 7, 8]))
        // Rows 0..<3 (items 0..<9): the end moved 3 items, short of the 6 of the threshold.
        #expect(window.update(at(50)).isEmpty)
        #expect(window.prefetching == [6, 7, 8])
        // Rows 2..<4: moved 6; the old row is visible now, handed over, not stopped.
        #expect(window.update(at(200)) == PrefetchWindow.Change(start: [12, 13, 14]))
        // Rows 1..<4 going back: 1.5 rows behind is 2 rows, clamped at row 0.
        #expect(
            window.update(at(150)) == PrefetchWindow.Change(start: [2, 1, 0], stop: [12, 13, 14]))
        #expect(window.direction == .backward)
    }

    @Test("a list that grows extends the window; one that shrinks stops what fell off its end")
    func itemCountChanges() {
        var window = PrefetchWindow(itemCount: 100)
        _ = window.update(visible: 85..<95)
        #expect(window.update(visible: 90..<100).isEmpty)
        window.itemCount = 120
        #expect(window.update(visible: 90..<100) == PrefetchWindow.Change(start: up(100..<110)))
        window.itemCount = 104
        #expect(window.update(visible: 90..<100) == PrefetchWindow.Change(stop: up(104..<110)))
        #expect(window.prefetching == up(100..<104))
    }

    @Test("reset returns everything being prefetched and the next update starts afresh")
    func reset() {
        var window = PrefetchWindow(itemCount: 100)
        _ = window.update(visible: 50..<60)
        _ = window.update(visible: 40..<50)
        #expect(window.reset() == down(30..<40))
        #expect(window.prefetching.isEmpty)
        #expect(window.reset().isEmpty)
        #expect(window.update(visible: 40..<50) == PrefetchWindow.Change(start: up(50..<60)))
        #expect(window.direction == .forward)
    }

    @Test("an empty list or an empty viewport prefetches nothing")
    func empty() {
        var none = PrefetchWindow(itemCount: 0)
        #expect(none.update(visible: 0..<10).isEmpty)
        var list = PrefetchWindow(itemCount: 100, sizeRatio: 3)
        #expect(list.update(visible: 40..<40).isEmpty)
        #expect(list.prefetching.isEmpty)
    }
}
