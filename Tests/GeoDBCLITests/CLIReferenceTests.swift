// docs/CLI.md is the reference of every command and option: each command `geodb --help` lists has a section
// there, and each option its `geodb help COMMAND` lists is named in that section, so an option added to
// the code and not to the doc fails here.
import Foundation
import Testing
import TestSupport

@Suite struct CLIReferenceTests {
    static let doc = Result { try String(contentsOf: TestPaths.root.appendingPathComponent("docs/CLI.md"), encoding: .utf8) }

    /// The subcommands of `geodb --help`.
    static func commands() throws -> [String] {
        let help = try runGeodb(["--help"]).stdout
        let listed = try #require(help.components(separatedBy: "SUBCOMMANDS:").last?.components(separatedBy: "\n\n").first)
        return listed.split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
        }
    }

    /// The text of `## command` in docs/CLI.md, up to the next `## `.
    static func section(_ command: String) throws -> String? {
        let text = try doc.get()
        guard let start = text.range(of: "\n## \(command)\n") else { return nil }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    @Test func everyCommandAndOptionIsDocumented() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 10, "\(commands)")
        for command in commands {
            let section = try #require(try Self.section(command), "docs/CLI.md has no section '## \(command)'")
            let help = try runGeodb(["help", command]).stdout
            // Option lines of the help: "  -o, --output <output>   …", "  --link/--no-link   …".
            let options = help.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
                line.split(separator: " ").prefix { $0.hasPrefix("-") }.flatMap { $0.split(separator: "/") }
                    .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            }
            #expect(options.contains("--help"), "\(command): no options read from its help")
            for option in options where !["--help", "-h", "--version"].contains(option) {
                #expect(section.contains("`\(option)"), "docs/CLI.md, '## \(command)', does not name \(option)")
            }
        }
    }

    /// Exit statuses and shell completion, as the doc states them (CLITrapTests runs them).
    @Test func exitStatusAndCompletionAreDocumented() throws {
        let text = try Self.doc.get()
        #expect(text.contains("**Exit status**") && text.contains("64 a usage error") && text.contains("1 a file or data problem"))
        for shell in ["bash", "zsh", "fish"] {
            #expect(text.contains("geodb --generate-completion-script \(shell)"))
        }
    }
}
