// `geodb categories`: the category taxonomy of a database, with how many places each category has.
import ArgumentParser
import GeoDB

extension GeoDBCommand {
    struct Categories: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "categories", abstract: "List the category taxonomy with place counts.")

        @OptionGroup var database: DatabaseArgument

        @OptionGroup var output: JSONOption

        @Flag(help: "Also list categories without places.")
        var all = false

        func run() throws {
            let categories = try database.open().withSession { try $0.categories() }.filter { all || $0.placesWithChildren > 0 }
            if output.json {
                print(ResultJSON.categories(categories).indented())
                return
            }
            Terminal.show(Format.table([["category", "label", "places", "synonyms"]] + categories.map { c in
                [String(repeating: "  ", count: c.depth) + c.id, c.label, Format.count(c.placesWithChildren),
                 c.synonyms.prefix(4).joined(separator: ", ")]
            }, indent: 0))
        }
    }
}
