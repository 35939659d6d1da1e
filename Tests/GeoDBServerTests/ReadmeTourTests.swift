// The README's tour is what the binary prints: every `$ geodb …` and `$ curl …` line of its text blocks is
// run in a scratch directory holding SampleData (the import first, as a reader would type them) and its
// output compared with the lines under it, times aside. Its setup commands are the ones CI runs.
import Foundation
import Testing
import TestSupport

@Suite struct ReadmeTourTests {
    /// One command of the README and the output shown under it.
    struct Step {
        var command: String
        var shown: String
    }

    /// The `$ ` lines of the README's ```text blocks, each with the lines up to the next command or the block's end.
    static func steps(of markdown: String) -> [Step] {
        var steps: [Step] = []
        for block in markdown.matches(of: #/```text\n(.*?)```/#.dotMatchesNewlines()) {
            for line in block.output.1.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("$ ") {
                    steps.append(Step(command: String(line.dropFirst(2)), shown: ""))
                } else if !steps.isEmpty {
                    steps[steps.count - 1].shown += line + "\n"
                }
            }
        }
        return steps.map { Step(command: $0.command, shown: $0.shown.trimmingCharacters(in: .newlines)) }
    }

    /// A shell command line split into words: quotes grouped and removed, a trailing `&` and `# comment` dropped.
    static func words(_ command: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, inWord = false
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else if character == "#" && !inWord {
                break
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words.last == "&" ? Array(words.dropLast()) : words
    }

    /// Times vary from run to run: "0.38 s" and "read 0.27 s" become "… s"; the import's default memory
    /// budget, a quarter of the machine's memory, from machine to machine: "(budget 5.9 GiB)" becomes "(budget …)".
    static func comparable(_ text: String) -> String {
        text.replacing(#/\d+\.\d\d s\b/#, with: "… s").replacing(#/\(budget [\d.]+ [KMG]iB\)/#, with: "(budget …)")
    }

    @Test func tourOutputsAreWhatGeodbPrints() throws {
        let readme = try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let steps = Self.steps(of: readme)
        #expect(steps.filter { $0.command.hasPrefix("geodb ") }.count >= 6, "\(steps.map(\.command))")
        let scratch = try ScratchDirectory()
        try FileManager.default.createSymbolicLink(atPath: scratch.path("SampleData"),
                                                   withDestinationPath: TestPaths.root.appendingPathComponent("SampleData").path)
        var server: ServerProcess?
        defer { server?.stop() }
        for step in steps {
            let words = Self.words(step.command)
            switch words.first {
            case "geodb" where words.dropFirst().first == "serve":
                // On a free port, not the README's 8080; its curl lines are sent there.
                var arguments = Array(words.dropFirst(2))
                if let port = arguments.firstIndex(of: "--port") { arguments.removeSubrange(port...(port + 1)) }
                arguments.removeAll { $0 == "--quiet" }
                let started = try ServerProcess(arguments, in: scratch.url.path)
                server = started
                #expect(started.listening.replacingOccurrences(of: ":\(started.port)/", with: ":8080/") == step.shown,
                        "\(step.command)")
            case "geodb":
                let run = try runGeodb(Array(words.dropFirst()), in: scratch.url.path)
                #expect(run.status == 0, "\(step.command): \(run.stderr)")
                #expect(Self.comparable(run.stdout.trimmingCharacters(in: .newlines)) == Self.comparable(step.shown),
                        "\(step.command) prints:\n\(run.stdout)")
            case "curl":
                let running = try #require(server, "\(step.command) before geodb serve")
                let url = try #require(words.first { $0.hasPrefix("localhost:8080/") })
                // With no language, as curl asks (URLSession would send "Accept-Language: en" by itself).
                let reply = try running.get(String(url.dropFirst("localhost:8080".count)), headers: ["Accept-Language": ""])
                #expect(reply.status == 200 && reply.text == step.shown, "\(step.command) answers:\n\(reply.text)")
            default:
                Issue.record("the README's tour has a command this test cannot run: \(step.command)")
            }
        }
        #expect(server != nil, "the tour serves its database")
    }

    /// The README's two setup commands: the demo exists, and the test command is the one `.ci/run` runs.
    @Test func setupCommandsAreTheOnesCIRuns() throws {
        let readme = try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let setup = try #require(readme.firstMatch(of: #/## Set up and run[^\n]*\n+```sh\n(.*?)```/#.dotMatchesNewlines()))
        let commands = setup.output.1.split(separator: "\n").map { Self.words(String($0)).joined(separator: " ") }
        #expect(commands.count == 2, "\(commands)")
        #expect(commands.first == "Tools/demo.sh")
        #expect(FileManager.default.isExecutableFile(atPath: TestPaths.root.appendingPathComponent("Tools/demo.sh").path))
        let ci = try String(contentsOf: TestPaths.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let ciCommand = ci.split(separator: "\n").last { !$0.isEmpty && !$0.hasPrefix("#") }.map(String.init)
        #expect(commands.last == ciCommand, ".ci/run runs \(ciCommand ?? "nothing"); the README says \(commands.last ?? "nothing")")
    }
}
